// The Job controller in a cluster: completions and parallelism, failures counted against
// backoffLimit, a failed pod's replacement delayed by the pod failure backoff (10 s, 20 s, ...).
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
import { checkScenarioText, formatIssue, loadScenarioText } from "../../src/scenario/index.ts";
import { pastBackoffLimitOnFailure, type Job } from "../../src/controllers/job.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import type { TraceRecord } from "../../src/sim/index.ts";

const job = (spec: string, behaviour: string, extra = "") => `
name: job
until: 3m
nodes: [{ name: node-a }, { name: node-b }, { name: node-c }]
pods:
  - manifest:
      apiVersion: batch/v1
      kind: Job
      metadata: { name: pi }
      spec:
        ${spec}
        template:
          spec:
            restartPolicy: Never
            containers: [{ name: pi, image: "perl:5.34" }]
    behaviour: { pi: ${behaviour} }
${extra}timeline:
  - { at: 0s, create: pi }
`;

function run(text: string): TraceRecord[] {
  return simulate(loadScenarioText(text, "job.yaml").scenario).records!;
}

const creates = (records: readonly TraceRecord[]) => records.filter((r) => r.component === "apiserver" && r.kind === "Create" && r.result === "ok");

describe("Job controller", () => {
  it("runs completions 5 with parallelism 2: never more than 2 at once, 5 pods, then JobComplete", () => {
    const records = run(job("{ completions: 5, parallelism: 2 }".slice(2, -2).replace(", ", "\n        "), "{ exitAfter: 5s }"));
    expect(creates(records).length).toBe(5);
    const running = new Set<string>();
    let most = 0;
    for (const r of records) {
      if (r.kind !== "PodView") continue;
      if (r["status"] === "Running") running.add(String(r.pod));
      else running.delete(String(r.pod));
      most = Math.max(most, running.size);
    }
    expect(most).toBe(2);
    const done = records.find((r) => r.kind === "JobComplete");
    expect(done).toMatchObject({ succeeded: 5, failed: 0 });
  });

  it("fails after backoffLimit failures, each replacement later by 10 s, then 20 s", () => {
    const records = run(job("backoffLimit: 2", "{ exitAfter: 1s, exitCode: 1 }"));
    expect(creates(records).length).toBe(3);
    expect(records.find((r) => r.kind === "JobFailed")).toMatchObject({ reason: "BackoffLimitExceeded", failed: 3 });
    const waits = records.filter((r) => r.kind === "PodFailureBackoff");
    expect(waits.map((r) => r["failures"])).toEqual([1, 2]);
    const created = creates(records).map((r) => r.t);
    expect(created[1]! - created[0]!).toBeGreaterThanOrEqual(10_000);
    expect(created[2]! - created[1]!).toBeGreaterThanOrEqual(20_000);
  });

  it("refuses counts upstream validation refuses, located", () => {
    const r = checkScenarioText(job("parallelism: -1", "{ exitAfter: 1s }"), "job.yaml");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map(formatIssue).join("\n")).toContain("pods[0].manifest.spec.parallelism: the apiserver would reject this Job with 422 Invalid: spec.parallelism: Invalid value: -1: must be greater than or equal to 0");
  });

  it("refuses an Indexed Job in a cluster", () => {
    const r = checkScenarioText(job("completionMode: Indexed", "{ exitAfter: 1s }"), "job.yaml");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map(formatIssue).join("\n")).toMatch(/expected completionMode NonIndexed in a cluster/);
  });

  it.each([
    [0, [1], true],
    [0, [0], false],
    [3, [1, 1], false],
    [3, [2, 1], true],
  ])("pastBackoffLimitOnFailure(limit %i, restarts %j) = %s", (backoffLimit, restarts, want) => {
    const template = { spec: { restartPolicy: "OnFailure", containers: [] } } as unknown as Pod;
    const pods = restarts.map((n) => ({ status: { phase: "Running", containerStatuses: [{ restartCount: n }] } }) as unknown as Pod);
    expect(pastBackoffLimitOnFailure({ backoffLimit, template } as unknown as Job, pods)).toBe(want);
  });
});
