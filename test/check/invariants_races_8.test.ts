// The invariants added for the cluster races R26-R27 on hand-written traces: where each fires, and
// where it must not.
import { describe, expect, it } from "vitest";
import type { TraceRecord } from "../../src/sim/index.ts";
import { INVARIANTS } from "../../src/check/invariants/index.ts";
import { loadScenarioText, type Scenario } from "../../src/scenario/index.ts";

type Fields = Record<string, unknown>;
const R = (t: number, component: string, kind: string, fields: Fields = {}): Omit<TraceRecord, "seq"> => ({ t, component, kind, ...fields });

function cluster(workload: string): Scenario {
  return loadScenarioText(`
name: monitors
nodes: [{ name: node-a }, { name: node-b }]
pods:
  - manifest:
${workload}
timeline: [{ at: 0s, create: db-0 }]
`).scenario;
}

const STATEFULSET = `      apiVersion: apps/v1
      kind: StatefulSet
      metadata: { name: db }
      spec:
        replicas: 2
        serviceName: db
        selector: { matchLabels: { app: db } }
        template:
          metadata: { labels: { app: db } }
          spec: { containers: [{ name: postgres, image: "postgres:16" }] }`;

function violations(id: string, recs: Omit<TraceRecord, "seq">[], s: Scenario): string[] {
  const m = INVARIANTS.find((i) => i.id === id)!.make(s);
  return recs.flatMap((rec, seq) => {
    const v = m.observe({ ...rec, seq } as TraceRecord);
    return v === null ? [] : [`${v.t} ${v.pod}: ${v.message}`];
  });
}

describe("statefulset-identity-at-most-once", () => {
  const ID = "statefulset-identity-at-most-once";
  const s = cluster(STATEFULSET);
  const view = (t: number, pod: string, uid: string, deleted = false) => R(t, "apiserver", "PodView", { pod, uid, ...(deleted ? { deleted: true } : {}) });
  const start = (t: number, node: string, id: string, pod = "default/db-0") => R(t, "runtime", "StartContainer", { pod, node, id, container: "postgres", result: "ok", tookMs: 5 });
  const exit = (t: number, node: string, id: string, pod = "default/db-0") => R(t, "runtime", "ContainerExited", { pod, node, id, exitCode: 0 });

  it("fires when the identity's container starts on a second node while the first still runs (R26)", () => {
    const trace = [view(0, "default/db-0", "u1"), start(1_000, "node-a", "node-a-c-1"), view(60_000, "default/db-0", "u1", true), view(60_010, "default/db-0", "u2"), start(61_752, "node-b", "node-b-c-2")];
    expect(violations(ID, trace, s)).toEqual([
      "61752 default/db-0: container postgres started on node-b (uid u2) while its container postgres on node-a (uid u1), started at 1000ms, still ran: the identity runs twice",
    ]);
  });

  it("fires for two UIDs of the identity running on one node", () => {
    const trace = [view(0, "default/db-0", "u1"), start(1_000, "node-a", "c-1"), view(60_010, "default/db-0", "u2"), start(61_000, "node-a", "c-2")];
    expect(violations(ID, trace, s)).toHaveLength(1);
  });

  it("holds for one running pod and one Terminating whose containers stopped", () => {
    const trace = [view(0, "default/db-0", "u1"), start(1_000, "node-a", "node-a-c-1"), exit(59_000, "node-a", "node-a-c-1"), view(60_000, "default/db-0", "u1", true), view(60_010, "default/db-0", "u2"), start(61_752, "node-b", "node-b-c-2")];
    expect(violations(ID, trace, s)).toEqual([]);
  });

  it("holds for a container restarted in place, for other ordinals, and for pods of no StatefulSet", () => {
    const restart = [view(0, "default/db-0", "u1"), start(1_000, "node-a", "c-1"), exit(5_000, "node-a", "c-1"), start(6_000, "node-a", "c-2")];
    expect(violations(ID, restart, s)).toEqual([]);
    const ordinals = [start(1_000, "node-a", "c-1", "default/db-0"), start(2_000, "node-b", "c-2", "default/db-1")];
    expect(violations(ID, ordinals, s)).toEqual([]);
    const notOurs = [start(1_000, "node-a", "c-1", "default/web"), start(2_000, "node-b", "c-2", "default/web"), start(3_000, "node-b", "c-3", "default/db-x")];
    expect(violations(ID, notOurs, s)).toEqual([]);
  });

  it("ids that repeat across nodes are told apart by their node", () => {
    const trace = [view(0, "default/db-0", "u1"), start(1_000, "node-a", "c-1"), exit(2_000, "node-b", "c-1"), view(3_000, "default/db-0", "u2"), start(4_000, "node-b", "c-9")];
    expect(violations(ID, trace, s)).toHaveLength(1);
  });

  it("watches nothing in a scenario without a StatefulSet", () => {
    const plain = loadScenarioText(`
name: plain
pods:
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: db-0 }, spec: { containers: [{ name: postgres, image: x }] } }
`).scenario;
    expect(violations(ID, [start(1_000, "node-a", "c-1"), start(2_000, "node-b", "c-2")], plain)).toEqual([]);
  });
});

describe("job-running-at-most-parallelism", () => {
  const ID = "job-running-at-most-parallelism";
  function jobScenario(parallelism: number): Scenario {
    return loadScenarioText(`
name: monitors
nodes: [{ name: node-a }, { name: node-b }]
pods:
  - manifest:
      apiVersion: batch/v1
      kind: Job
      metadata: { name: train }
      spec:
        parallelism: ${parallelism}
        completions: 4
        template:
          spec:
            restartPolicy: Never
            containers: [{ name: worker, image: x }]
timeline: [{ at: 0s, create: train }]
`).scenario;
  }
  const start = (t: number, node: string, id: string, pod: string) => R(t, "runtime", "StartContainer", { pod, node, id, container: "worker", result: "ok", tookMs: 5 });
  const exit = (t: number, node: string, id: string, pod: string) => R(t, "runtime", "ContainerExited", { pod, node, id, exitCode: 143 });

  it("fires when a replacement starts while the deleted pod's worker still runs (R27)", () => {
    const trace = [start(1_742, "node-a", "node-a-c-1", "default/train-w64sf"), start(41_752, "node-b", "node-b-c-1", "default/train-7fkf9")];
    expect(violations(ID, trace, jobScenario(1))).toEqual([
      "41752 default/train-7fkf9: Job default/train (parallelism 1) runs 2 pods at once: default/train-w64sf on node-a (container worker node-a-c-1 started at 1742ms), default/train-7fkf9 on node-b (container worker node-b-c-1 started at 41752ms)",
    ]);
  });

  it("holds when the old worker exited first, within the parallelism, and for pods of no Job", () => {
    const replaced = [start(1_742, "node-a", "node-a-c-1", "default/train-w64sf"), exit(60_020, "node-a", "node-a-c-1", "default/train-w64sf"), start(70_888, "node-a", "node-a-c-2", "default/train-7fkf9")];
    expect(violations(ID, replaced, jobScenario(1))).toEqual([]);
    const two = [start(1_000, "node-a", "c-1", "default/train-aaaaa"), start(1_000, "node-b", "c-1", "default/train-bbbbb")];
    expect(violations(ID, two, jobScenario(2))).toEqual([]);
    expect(violations(ID, [...two, start(2_000, "node-b", "c-2", "default/train-ccccc")], jobScenario(2))).toHaveLength(1);
    const other = [start(1_000, "node-a", "c-1", "default/web-aaaaa"), start(1_000, "node-b", "c-1", "default/trainer-bbbbb")];
    expect(violations(ID, other, jobScenario(1))).toEqual([]);
  });

  it("counts a pod once whatever its containers, and a container restarted in place (OnFailure) as the same pod", () => {
    const trace = [start(1_000, "node-a", "c-1", "default/train-aaaaa"), exit(5_000, "node-a", "c-1", "default/train-aaaaa"), start(6_000, "node-a", "c-2", "default/train-aaaaa")];
    expect(violations(ID, trace, jobScenario(1))).toEqual([]);
  });
});
