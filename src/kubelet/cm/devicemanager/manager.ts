// Models pkg/kubelet/cm/devicemanager/manager.go (ManagerImpl: device plugin registration, Allocate,
// devicesToAllocate, the pod devices checkpoint) as its admit handler sees it, 1.28+ form, reached
// through the topology manager's admit handler (pkg/kubelet/cm/topologymanager, scope none): a
// failed allocation rejects the pod with UnexpectedAdmissionError.
//
// A device plugin (a DaemonSet pod, or a daemon) serves a resource such as example.com/gpu; the
// kubelet knows its devices only once the plugin has registered on the kubelet's socket. A kubelet
// restart recreates the socket and forgets the registration, so until the plugin notices and
// registers again the resource is unregistered (race R14, issue #126341). The allocations survive
// in the checkpoint (kubelet_internal_checkpoint), which the node keeps across restarts.
// Simplified: devices are counted, not named (no IDs, topology, or health of single devices);
// Start's container map is read from the runtime without the CRI call's latency; the devices of
// pods that are gone are never given back (UpdateAllocatedDevices is not modelled).
import type { Container, Pod } from "../../../k8s/pod.ts";
import type { PodAdmitResult } from "../../lifecycle/admission.ts";

/** The checkpoint of allocated devices: podUID/container/resource → count. Outlives the kubelet. */
export type PodDevicesCheckpoint = Map<string, number>;

export interface DeviceManagerDeps {
  checkpoint: PodDevicesCheckpoint;
  /** sourcesReady.AllReady(): false while the kubelet is still starting (its sources not all seen). */
  sourcesReady: () => boolean;
  /** Whether the runtime shows this container of the pod running (Start's containerRunningSet). */
  isContainerRunning: (podUID: string, containerName: string) => boolean;
  emit: (kind: string, fields: Record<string, unknown>) => void;
}

export class DeviceManager {
  /** healthyDevices: resource → how many healthy devices its plugin reported; absent until it registers. */
  private readonly healthyDevices = new Map<string, number>();

  constructor(private readonly deps: DeviceManagerDeps) {}

  /** A plugin registered (GetDevicePluginOptions, ListAndWatch's first answer): its devices are known. */
  Register(resource: string, devices: number): void {
    this.healthyDevices.set(resource, devices);
    this.deps.emit("DevicePluginRegistered", { resource, devices });
  }

  /** The topology manager's admit handler (scope none): allocate every container's devices. */
  Admit(pod: Pod): PodAdmitResult {
    for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
      for (const [resource, required] of deviceRequests(c)) {
        const err = this.devicesToAllocate(pod.metadata.uid!, c.name, resource, required);
        if (err !== null) {
          // UnexpectedAdmissionError.Error()
          return { Admit: false, Reason: "UnexpectedAdmissionError", Message: `Allocate failed due to ${err.message}, which is unexpected` };
        }
      }
    }
    return { Admit: true, Reason: "", Message: "" };
  }

  /** devicesToAllocate, without device names: checks and records how many devices the container holds. */
  private devicesToAllocate(podUID: string, contName: string, resource: string, required: number): Error | null {
    const key = `${podUID}/${contName}/${resource}`;
    let needed = required;
    // Gets list of devices that have already been allocated. This can happen if a container restarts for example.
    const devices = this.deps.checkpoint.get(key);
    if (devices !== undefined) {
      needed -= devices;
      // A pod's resource is not expected to change once admitted by the API server.
      if (needed !== 0) return new Error(`pod "${podUID}" container "${contName}" changed request for resource "${resource}" from ${devices} to ${required}`);
    }
    // Scenario 2, a kubelet restart: a container reported running already has its devices.
    if (!this.deps.sourcesReady() && this.deps.isContainerRunning(podUID, contName)) return null;
    // Scenarios 1 and 3: the registration and health checks come *before* the "nothing needed"
    // shortcut (doing otherwise caused issue #109595).
    const healthy = this.healthyDevices.get(resource);
    if (healthy === undefined) return new Error(`cannot allocate unregistered device ${resource}`);
    if (healthy === 0) return new Error(`no healthy devices present; cannot allocate unhealthy devices ${resource}`);
    if (needed === 0) return null; // No change, no work.
    const used = [...this.deps.checkpoint.entries()].filter(([k]) => k.endsWith(`/${resource}`)).reduce((n, [, v]) => n + v, 0);
    if (healthy - used < needed) return new Error(`requested number of devices unavailable for ${resource}. Requested: ${needed}, Available: ${healthy - used}`);
    this.deps.checkpoint.set(key, required);
    return null;
  }
}

/** The extended resources a container asks for (limits, as device plugins require; requests default to them). */
export function deviceRequests(c: Container): [string, number][] {
  const out: [string, number][] = [];
  const limits = c.resources?.limits ?? c.resources?.requests ?? {};
  for (const name of Object.keys(limits).sort()) {
    if (name === "cpu" || name === "memory" || name.startsWith("hugepages-") || name === "ephemeral-storage" || !name.includes("/")) continue;
    const n = Number(limits[name]);
    if (Number.isInteger(n) && n > 0) out.push([name, n]);
  }
  return out;
}
