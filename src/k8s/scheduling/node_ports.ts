// Models pkg/scheduler/framework/plugins/nodeports/node_ports.go (Fits, fitsPorts,
// getContainerPorts) and framework.HostPortInfo (Add, CheckConflict): a host port is taken per
// protocol and IP, and 0.0.0.0 (or no hostIP) takes it on every IP.
// Simplified: only regular containers' ports are counted, as through the releases the kubelet
// models (a sidecar's host ports are not).
import type { ContainerPort, Pod } from "../pod.ts";

const DEFAULT_BIND_ALL_HOST_IP = "0.0.0.0";

/** HostPortInfo: ip → "protocol/port" entries. */
export type HostPortInfo = Map<string, Set<string>>;

/** sanitize: an empty IP is every IP, an empty protocol is TCP. */
function sanitize(ip: string | undefined, protocol: string | undefined): [string, string] {
  return [ip === undefined || ip === "" ? DEFAULT_BIND_ALL_HOST_IP : ip, protocol === undefined || protocol === "" ? "TCP" : protocol];
}

/** getContainerPorts: every port of every regular container. */
export function containerPorts(pods: readonly Pod[]): ContainerPort[] {
  return pods.flatMap((p) => p.spec.containers.flatMap((c) => c.ports ?? []));
}

/** NodeInfo.UsedPorts: HostPortInfo.Add for each port with a host port. */
export function usedPorts(pods: readonly Pod[]): HostPortInfo {
  const used: HostPortInfo = new Map();
  for (const p of containerPorts(pods)) {
    const port = p.hostPort ?? 0;
    if (port <= 0) continue;
    const [ip, protocol] = sanitize(p.hostIP, p.protocol);
    const set = used.get(ip) ?? new Set<string>();
    set.add(`${protocol}/${port}`);
    used.set(ip, set);
  }
  return used;
}

/** HostPortInfo.CheckConflict */
export function checkConflict(used: HostPortInfo, hostIP: string | undefined, protocol: string | undefined, hostPort: number): boolean {
  if (hostPort <= 0) return false;
  const [ip, proto] = sanitize(hostIP, protocol);
  const key = `${proto}/${hostPort}`;
  // 0.0.0.0 conflicts with the port on any IP; a specific IP with itself and with 0.0.0.0.
  if (ip === DEFAULT_BIND_ALL_HOST_IP) return [...used.values()].some((set) => set.has(key));
  return (used.get(DEFAULT_BIND_ALL_HOST_IP)?.has(key) ?? false) || (used.get(ip)?.has(key) ?? false);
}

/** nodeports.PreFilter: the pod's ports with a host port (computed once a scheduling cycle). */
export function wantedHostPorts(pod: Pod): ContainerPort[] {
  return containerPorts([pod]).filter((p) => (p.hostPort ?? 0) > 0);
}

/** nodeports.Fits: no wanted host port conflicts with one the other pods use. */
export function fitsPorts(pod: Pod, otherPods: readonly Pod[], wanted: readonly ContainerPort[] = wantedHostPorts(pod)): boolean {
  // PreFilter: a pod that wants no host port skips the filter (the other pods' ports are not read).
  if (wanted.length === 0) return true;
  const used = usedPorts(otherPods);
  return wanted.every((p) => !checkConflict(used, p.hostIP, p.protocol, p.hostPort ?? 0));
}
