// A pod deleted while SyncPod waits for its volumes (1.22+): WaitForAttachAndMount polls under the
// pod worker's context, so the termination request ends the wait with "context canceled" and
// SyncPod returns before the runtime's SyncPod: no sandbox, no container, for a pod already deleted.
import { describe, expect, it } from "vitest";
import { all, first, runScenario } from "../fixtures/node/trace.ts";

const POD = "default/web";

describe("a delete during the volume wait (kubelet 1.30)", () => {
  // The sync starts at 20 ms; cgroups take 10 ms, volumes 10 ms: the delete reaches the worker at 30 ms.
  const { records, result } = runScenario(`
name: delete-during-mount
until: 30s
kubelet: { version: "1.30" }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web }
      spec:
        containers: [{ name: app, image: nginx:1.25 }]
timeline:
  - { at: 0s, create: web }
  - { at: 20ms, delete: web }
expect:
  - eventually: { pod: web, gone: true }
    by: 10s
`, "delete-during-mount.yaml");

  it("ends the sync with the context's error once the volumes are mounted, and starts nothing", () => {
    expect(result.checks.failed).toEqual([]);
    const cancel = first(records, { component: "podworker", kind: "CancelSync", fields: { pod: POD } }).rec;
    const mounted = first(records, { component: "kubelet", kind: "VolumesMounted", fields: { pod: POD } }).rec;
    expect(cancel.t).toBeLessThan(mounted.t);
    const end = first(records, { component: "podworker", kind: "SyncEnd", fields: { pod: POD, mode: "sync" } }).rec;
    expect(end.err).toBe("context canceled");
    expect(end.t).toBe(mounted.t);
    expect(all(records, { component: "runtime", kind: "RunPodSandbox", fields: { pod: POD } })).toEqual([]);
    expect(all(records, { component: "runtime", kind: "StartContainer", fields: { pod: POD } })).toEqual([]);
  });
});
