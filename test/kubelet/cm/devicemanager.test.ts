// pkg/kubelet/cm/devicemanager devicesToAllocate as its admit handler sees it (1.28+ form): the
// order of its checks is what race R14 turns on.
import { describe, expect, it } from "vitest";
import { DeviceManager, deviceRequests, type PodDevicesCheckpoint } from "../../../src/kubelet/cm/devicemanager/manager.ts";
import type { Pod } from "../../../src/k8s/pod.ts";

const gpuPod = (uid: string, n = 1): Pod => ({
  metadata: { name: uid, namespace: "default", uid },
  spec: { containers: [{ name: "c", image: "x", resources: { limits: { "example.com/gpu": String(n), cpu: "1" } } }] },
});

function manager(o: { checkpoint?: PodDevicesCheckpoint; sourcesReady?: boolean; running?: string[] } = {}) {
  const checkpoint = o.checkpoint ?? new Map();
  const dm = new DeviceManager({
    checkpoint,
    sourcesReady: () => o.sourcesReady ?? true,
    isContainerRunning: (uid, name) => (o.running ?? []).includes(`${uid}/${name}`),
    emit: () => {},
  });
  return { dm, checkpoint };
}

describe("devicesToAllocate", () => {
  it("an unregistered resource fails admission as UnexpectedAdmissionError", () => {
    const { dm } = manager();
    expect(dm.Admit(gpuPod("a"))).toEqual({
      Admit: false, Reason: "UnexpectedAdmissionError",
      Message: "Allocate failed due to cannot allocate unregistered device example.com/gpu, which is unexpected",
    });
  });

  it("a registered plugin with no healthy device fails; with devices, the allocation is checkpointed", () => {
    const { dm, checkpoint } = manager();
    dm.Register("example.com/gpu", 0);
    expect(dm.Admit(gpuPod("a")).Message).toMatch(/no healthy devices present; cannot allocate unhealthy devices example.com\/gpu/);
    dm.Register("example.com/gpu", 1);
    expect(dm.Admit(gpuPod("a")).Admit).toBe(true);
    expect([...checkpoint]).toEqual([["a/c/example.com/gpu", 1]]);
    expect(dm.Admit(gpuPod("b")).Message).toMatch(/requested number of devices unavailable for example.com\/gpu. Requested: 1, Available: 0/);
  });

  it("after a restart: the checkpointed pod's container still running passes before the plugin is back; an exited one does not", () => {
    const checkpoint: PodDevicesCheckpoint = new Map([["a/c/example.com/gpu", 1]]);
    expect(manager({ checkpoint, sourcesReady: false, running: ["a/c"] }).dm.Admit(gpuPod("a")).Admit).toBe(true);
    expect(manager({ checkpoint, sourcesReady: false, running: [] }).dm.Admit(gpuPod("a")).Admit).toBe(false);
    // Once the plugin is back, the checkpointed devices need nothing more.
    const back = manager({ checkpoint, sourcesReady: false });
    back.dm.Register("example.com/gpu", 1);
    expect(back.dm.Admit(gpuPod("a")).Admit).toBe(true);
  });

  it("a changed request of an admitted container is refused loudly", () => {
    const { dm } = manager({ checkpoint: new Map([["a/c/example.com/gpu", 1]]) });
    dm.Register("example.com/gpu", 2);
    expect(dm.Admit(gpuPod("a", 2)).Message).toMatch(/changed request for resource "example.com\/gpu" from 1 to 2/);
  });

  it("only extended resources (a domain-qualified name) are device requests", () => {
    expect(deviceRequests({ name: "c", resources: { limits: { cpu: "2", memory: "1Gi", "hugepages-2Mi": "2", "example.com/gpu": "2" } } })).toEqual([["example.com/gpu", 2]]);
  });
});
