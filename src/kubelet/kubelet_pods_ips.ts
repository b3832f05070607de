// Models pkg/kubelet/kubelet_pods.go (sortPodIPs, and generateAPIPodStatus's block that sets
// HostIP/HostIPs and a host-network pod's IPs) and component-helpers' node/util GetNodeHostIPs.
import type { Pod, PodStatus as APIPodStatus } from "../k8s/pod.ts";
import { IPFamilyOfString, IsIPv4, IsIPv6, ParseIPSloppy, ipString, type IP } from "../k8s/net.ts";
import { perKey } from "../k8s/memo.ts";

/**
 * HostIP/HostIPs, and the PodIP/PodIPs of a host-network pod: the node's IPs, immutable once set
 * (≥1.29), except that the other family's IP is added when the node becomes dual-stack.
 */
export function setHostIP(pod: Pod, s: APIPodStatus, hostIPs: readonly string[] | undefined, hostIPsField: boolean): void {
  if (hostIPs === undefined || hostIPs.length === 0) return;
  s.hostIP = hostIPs[0]!;
  if (hostIPsField) s.hostIPs = hostIPs.slice(0, 2).map((ip) => ({ ip }));
  if (pod.spec.hostNetwork !== true) return;
  if (!hostIPsField) {
    if (!s.podIP) {
      s.podIP = hostIPs[0]!;
      s.podIPs = hostIPs.slice(0, 2).map((ip) => ({ ip }));
    }
    return;
  }
  // Primary IP is not set.
  if (!s.podIP) {
    s.podIP = hostIPs[0]!;
    s.podIPs = [{ ip: s.podIP }];
  }
  // Secondary IP is not set (#105320).
  if (hostIPs.length === 2 && s.podIPs?.length === 1 && IPFamilyOfString(s.podIPs[0]!.ip) !== IPFamilyOfString(hostIPs[1]!)) {
    s.podIPs = [...s.podIPs, { ip: hostIPs[1]! }];
  }
}

/**
 * sortPodIPs: the first IP of the node IP's family (IPv4 when the kubelet has no node IP), then the
 * first of the other family, each parsed and re-formatted (the runtime may use an irregular form).
 */
export function sortPodIPs(podIPs: readonly string[], nodeIPs: readonly string[] = []): string[] {
  // A pure function of strings, asked on every status generation with the same few addresses.
  // The common case, a pod's one IP with at most one node IP, is looked up without a key string.
  if (podIPs.length === 1 && nodeIPs.length <= 1) return [...sortedOneIPOf(nodeIPs.length === 0 ? null : nodeIPs[0]!)(podIPs[0]!)];
  return [...sortedPodIPsOf(JSON.stringify([podIPs, nodeIPs]))];
}

/** sortPodIPs of one pod IP, per node IP (null: none). */
function sortedOneIPOf(nodeIP: string | null): (podIP: string) => readonly string[] {
  let f = sortedOneIPByNodeIP.get(nodeIP);
  if (f === undefined) {
    if (sortedOneIPByNodeIP.size >= 64) sortedOneIPByNodeIP.clear();
    const nodeIPs = nodeIP === null ? [] : [nodeIP];
    sortedOneIPByNodeIP.set(nodeIP, (f = perKey((podIP: string): readonly string[] => sortPodIPsUncached([podIP], nodeIPs), 1024)));
  }
  return f;
}

const sortedOneIPByNodeIP = new Map<string | null, (podIP: string) => readonly string[]>();

const sortedPodIPsOf = perKey((key: string): readonly string[] => {
  const [podIPs, nodeIPs] = JSON.parse(key) as [string[], string[]];
  return sortPodIPsUncached(podIPs, nodeIPs);
}, 1024);

function sortPodIPsUncached(podIPs: readonly string[], nodeIPs: readonly string[]): string[] {
  const v4First = nodeIPs.length === 0 || IsIPv4(ParseIPSloppy(nodeIPs[0]!));
  const [primary, secondary] = v4First ? [IsIPv4, IsIPv6] : [IsIPv6, IsIPv4];
  const parsed = podIPs.map((text) => ParseIPSloppy(text));
  const first = (valid: (ip: IP | null) => boolean): string[] => {
    const ip = parsed.find(valid);
    return ip === undefined || ip === null ? [] : [ipString(ip)];
  };
  return [...first(primary), ...first(secondary)];
}

/** GetNodeHostIPs (component-helpers/node/util): InternalIPs before ExternalIPs, then one IP of the other family. */
export function GetNodeHostIPs(addresses: readonly { type: string; address: string }[]): string[] {
  const allIPs: IP[] = [];
  for (const type of ["InternalIP", "ExternalIP"]) {
    for (const a of addresses) {
      const ip = a.type === type ? ParseIPSloppy(a.address) : null;
      if (ip !== null) allIPs.push(ip);
    }
  }
  if (allIPs.length === 0) return [];
  const nodeIPs = [allIPs[0]!];
  const other = allIPs.find((ip) => IsIPv6(ip) !== IsIPv6(nodeIPs[0]!));
  if (other !== undefined) nodeIPs.push(other);
  return nodeIPs.map(ipString);
}
