// activeDeadlineSeconds end to end: the sync loop's tick syncs the pod once it is past its deadline
// (PodSyncLoopHandler), generateAPIPodStatus makes it Failed with reason DeadlineExceeded
// (PodSyncHandler), and the pod worker kills its containers, in both pod worker eras.
import { describe, expect, it } from "vitest";
import { all, first, runScenario } from "../fixtures/node/trace.ts";

const POD = "default/job";

describe.each(["1.30", "1.21"])("activeDeadlineSeconds 20, kubelet %s", (version) => {
  const run = runScenario(`
name: active-deadline
until: 1m
kubelet: { version: "${version}" }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: job }
      spec:
        activeDeadlineSeconds: 20
        restartPolicy: Never
        containers: [{ name: work, image: busybox:1.36 }]
    behaviour:
      work:
        onSigterm: { exitAfter: 1s, exitCode: 143 }
timeline:
  - { at: 0s, create: job }
expect:
  - eventually: { pod: job, phase: Failed }
    by: 25s
  - eventually: { pod: job, event: { reason: DeadlineExceeded, message: "longer than the specified deadline" } }
    by: 21s
`, `active-deadline-${version}.yaml`);
  const { records } = run;

  it("fails the pod with DeadlineExceeded within a sync tick of its deadline, and stops its container", () => {
    expect(run.result.checks.failed).toEqual([]);
    const event = first(records, { component: "kubelet", kind: "Event", fields: { pod: POD, reason: "DeadlineExceeded" } }).rec;
    expect(event.t).toBeGreaterThanOrEqual(20_000);
    expect(event.t).toBeLessThan(21_100);
    const stop = first(records, { component: "runtime", kind: "StopContainer", fields: { pod: POD, container: "work" } }).rec;
    expect(stop.t).toBeGreaterThan(event.t);
    expect(all(records, { component: "runtime", kind: "StartContainer", fields: { pod: POD, result: "ok" } })).toHaveLength(1);
  });
});
