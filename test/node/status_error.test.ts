// A pod status the PLEG cannot read (ContainerStatus failing) reaches the pod worker as a cache
// entry holding an error. pod_workers.go: the worker records Warning FailedSync "error determining
// status: ..." and returns the error without syncing (lastSyncTime unchanged), and the retry comes
// with the back-off. It must never sync with an empty status: that would read as "no sandbox" and
// create a second one next to the running pod.
import { describe, expect, it } from "vitest";
import { all, runScenario } from "../fixtures/node/trace.ts";

const POD = "default/web";

describe.each(["1.30", "1.21"])("a cache entry holding an error, kubelet %s", (version) => {
  const run = runScenario(`
name: status-error
until: 30s
kubelet: { version: "${version}" }
runtime:
  faults:
    - { method: ContainerStatus, pod: web, from: 5s, to: 9s, message: "connection refused" }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web }
      spec:
        containers: [{ name: app, image: nginx:1.25 }]
    behaviour:
      app:
        runs: [{ exitAfter: 6s, exitCode: 1 }, {}]
timeline:
  - { at: 0s, create: web }
  - { at: 8500ms, setLabels: { pod: web, labels: { tier: web } } }
`, `status-error-${version}.yaml`);
  const { records } = run;

  it("records FailedSync 'error determining status' and does not sync with an empty status", () => {
    const failed = all(records, { component: "kubelet", kind: "Event", fields: { pod: POD, reason: "FailedSync" } });
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.type).toBe("Warning");
    expect(String(failed[0]!.message)).toMatch(/^error determining status: .*connection refused/);
    const errors = all(records, { component: "podworker", kind: "StatusError", fields: { pod: POD } });
    expect(errors.map((e) => e.t)).toEqual(failed.map((e) => e.t));
    // No sync began while ContainerStatus failed (5s to 9s), so no second sandbox was made.
    const syncs = all(records, { component: "podworker", kind: "SyncBegin", fields: { pod: POD } });
    expect(syncs.filter((s) => s.t >= 5_000 && s.t < 9_000)).toEqual([]);
    expect(all(records, { component: "runtime", kind: "RunPodSandbox", fields: { pod: POD, result: "ok" } })).toHaveLength(1);
  });

  it("syncs again once the status can be read, and restarts the exited container", () => {
    const starts = all(records, { component: "runtime", kind: "StartContainer", fields: { pod: POD, container: "app", result: "ok" } });
    expect(starts).toHaveLength(2);
    expect(starts[1]!.t).toBeGreaterThan(9_000);
    expect(starts[1]!.t).toBeLessThan(20_000);
  });
});
