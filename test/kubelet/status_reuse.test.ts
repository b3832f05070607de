// SyncPod's status reuse (src/kubelet/status_reuse.ts): the last generated status is reused, and
// its SetPodStatus skipped, only while the pod, the runtime status and its IPs are the same objects
// and values and the generation of what both read is the one the last pass left, which that pass
// itself did not move. The generation counters it adds up move with every change (table tests),
// and every bundled scenario runs with each reuse checked against a fresh computation.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Pod, PodStatus as APIPodStatus } from "../../src/k8s/pod.ts";
import type { PodStatus } from "../../src/kubelet/container/runtime.ts";
import { StatusReuse, statusReuseChecks } from "../../src/kubelet/status_reuse.ts";
import { ReasonCache } from "../../src/kubelet/reason_cache.ts";
import { ResultsManager } from "../../src/kubelet/prober/results/results_manager.ts";
import { StatusManager } from "../../src/kubelet/status/status_manager.ts";
import { podManagerWithoutStaticPods } from "../../src/kubelet/status/interfaces.ts";
import { NewSyncResult, PodSyncResult } from "../../src/kubelet/kuberuntime/sync_result.ts";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioFile, loadScenarioText } from "../../src/scenario/index.ts";
import { nodeScenarioYaml } from "../../src/bench/node.ts";
import { bundledScenarios, ROOT } from "../cli/golden_table.ts";
import { FakeDeletionSafety, getTestPod, newSim } from "./status/fakes.ts";

const podStatusOf = (ips: string[]): PodStatus => ({ id: "u", name: "p", namespace: "default", ips, sandboxStatuses: [], containerStatuses: [] }) as unknown as PodStatus;

/** A reuse over a settable generation, counting what it generates and sets. */
function harness(setChanges = 0) {
  let generation: number | undefined = 0;
  const counts = { generated: 0, set: 0 };
  const reuse = new StatusReuse(() => generation);
  const sync = (pod: Pod, podStatus: PodStatus): APIPodStatus => {
    const s = reuse.generate(pod, podStatus, () => (counts.generated++, { phase: "Running" }));
    reuse.SetPodStatus(pod, s, () => {
      counts.set++;
      if (generation !== undefined) generation += setChanges;
    });
    return s;
  };
  return { reuse, counts, sync, setGeneration: (g: number | undefined) => (generation = g) };
}

afterEach(() => {
  statusReuseChecks.verify = false;
});

describe("the status reuse", () => {
  it("reuses the last status for the same pod, runtime status, IPs and generation", () => {
    const h = harness();
    const pod = getTestPod();
    const ps = podStatusOf(["10.0.0.2"]);
    const first = h.sync(pod, ps);
    const second = h.sync(pod, ps);
    expect(second).toBe(first);
    expect(h.counts).toEqual({ generated: 1, set: 1 });
    expect(Object.isFrozen(second)).toBe(true);
  });

  it.each([
    ["another pod object", (pod: Pod, ps: PodStatus) => [{ ...pod }, ps] as const],
    ["another runtime status object", (pod: Pod, ps: PodStatus) => [pod, { ...ps }] as const],
    ["other pod IPs on the same runtime status", (pod: Pod, ps: PodStatus) => ((ps.ips = ["10.0.0.3"]), [pod, ps] as const)],
  ])("generates and sets again for %s", (_what, change) => {
    const h = harness();
    const pod = getTestPod();
    const ps = podStatusOf(["10.0.0.2"]);
    h.sync(pod, ps);
    const [pod2, ps2] = change(pod, ps);
    h.sync(pod2, ps2);
    expect(h.counts).toEqual({ generated: 2, set: 2 });
  });

  it("generates and sets again when the generation moved since the last pass", () => {
    const h = harness();
    const pod = getTestPod();
    const ps = podStatusOf([]);
    h.sync(pod, ps);
    h.setGeneration(1);
    h.sync(pod, ps);
    h.sync(pod, ps);
    expect(h.counts).toEqual({ generated: 2, set: 2 });
  });

  it("never reuses a pass that moved the generation itself (a status cached, a trigger sent)", () => {
    const h = harness(1);
    const pod = getTestPod();
    const ps = podStatusOf([]);
    h.sync(pod, ps);
    h.sync(pod, ps);
    h.sync(pod, ps);
    expect(h.counts).toEqual({ generated: 3, set: 3 });
  });

  it("never reuses without a generation (fakes, a pod with an active deadline)", () => {
    const h = harness();
    h.setGeneration(undefined);
    const pod = getTestPod();
    const ps = podStatusOf([]);
    h.sync(pod, ps);
    h.sync(pod, ps);
    expect(h.counts).toEqual({ generated: 2, set: 2 });
  });

  it("in verify mode generates and sets a reused status again, and throws when that changes something", () => {
    statusReuseChecks.verify = true;
    const h = harness();
    const pod = getTestPod();
    const ps = podStatusOf([]);
    h.sync(pod, ps);
    h.sync(pod, ps);
    expect(h.counts).toEqual({ generated: 2, set: 2 });
    const lying = new StatusReuse(() => 0);
    lying.generate(pod, ps, () => ({ phase: "Running" }));
    lying.SetPodStatus(pod, { phase: "Running" }, () => {});
    expect(() => lying.generate(pod, ps, () => ({ phase: "Failed" }))).toThrow(/differs from a fresh one/);
  });
});

describe("the generations it adds up", () => {
  it("ReasonCache: an add, a removal and a Get that finds an entry (it reorders the LRU) count; misses do not", () => {
    const c = new ReasonCache();
    const seen = [c.generation];
    const failed = new PodSyncResult();
    const r = NewSyncResult("StartContainer", "app");
    r.Fail("CrashLoopBackOff", "back-off");
    failed.AddSyncResult(r);
    c.Update("u", failed);
    seen.push(c.generation);
    c.Get("u", "other");
    seen.push(c.generation);
    c.Get("u", "app");
    seen.push(c.generation);
    c.Remove("u", "other");
    seen.push(c.generation);
    c.Remove("u", "app");
    seen.push(c.generation);
    expect(seen).toEqual([0, 1, 1, 2, 2, 3]);
  });

  it("ResultsManager: a changed result and a removal count; the same result again does not", () => {
    const { sim } = newSim();
    const rm = new ResultsManager(sim, "readiness");
    const seen: number[] = [rm.generation];
    sim.go("t", function* () {
      yield* rm.Set("c1", "Success", "u");
      seen.push(rm.generation);
      yield* rm.Set("c1", "Success", "u");
      seen.push(rm.generation);
      yield* rm.Set("c1", "Failure", "u");
      seen.push(rm.generation);
      rm.Remove("none");
      seen.push(rm.generation);
      rm.Remove("c1");
      seen.push(rm.generation);
    });
    sim.run();
    expect(seen).toEqual([0, 1, 1, 2, 2, 3]);
  });

  it("StatusManager: a cached status, a refused update and a removal count; an equal status does not", () => {
    const { sim } = newSim();
    const pod = { ...getTestPod(), spec: { ...getTestPod().spec, restartPolicy: "Never" as const } };
    const sm = new StatusManager(sim, { kubeClient: null, podManager: podManagerWithoutStaticPods(() => pod), podDeletionSafety: new FakeDeletionSafety(), version: 30 });
    const seen = [sm.generation];
    const terminated: APIPodStatus = { containerStatuses: [{ name: "c", image: "i", imageID: "", ready: false, restartCount: 0, state: { terminated: { exitCode: 0 } } }] };
    const running: APIPodStatus = { containerStatuses: [{ name: "c", image: "i", imageID: "", ready: false, restartCount: 0, state: { running: {} } }] };
    sm.SetPodStatus(pod, terminated);
    seen.push(sm.generation);
    sm.SetPodStatus(pod, terminated);
    seen.push(sm.generation);
    // Terminated to running under restartPolicy Never: refused (StatusUpdateAborted).
    sm.SetPodStatus(pod, running);
    seen.push(sm.generation);
    sm.RemoveOrphanedStatuses(new Set([pod.metadata.uid!]));
    seen.push(sm.generation);
    sm.RemoveOrphanedStatuses(new Set());
    seen.push(sm.generation);
    expect(seen).toEqual([0, 1, 1, 2, 2, 3]);
  });
});

describe("every bundled scenario with every reuse checked", () => {
  let reused = 0;
  it.each(bundledScenarios())("%s: a reused status is the one generated afresh, and its SetPodStatus would do nothing", (file) => {
    statusReuseChecks.verify = true;
    const before = statusReuseChecks.reused;
    const { scenario } = loadScenarioFile(join(ROOT, file));
    simulate(scenario, { sinks: [], keepRecords: false });
    reused += statusReuseChecks.reused - before;
  });
  it("reused some statuses across them (the check above checked something)", () => {
    expect(reused).toBeGreaterThan(0);
  });
});

describe("a quiet node with every reuse checked", () => {
  it.each([{ name: "fifo" as const }, { name: "random" as const, seed: 7 }, { name: "random" as const, seed: 8 }])(
    "10 pods with two probed containers each, 10 virtual minutes under $name: most resyncs reuse, none otherwise than a fresh pass",
    ({ name, ...rest }) => {
      statusReuseChecks.verify = true;
      const { scenario } = loadScenarioText(nodeScenarioYaml(10, "10m"), "node-10-pods.yaml");
      let syncs = 0;
      const sink = { wantsLines: false, write: (r: { component: string; kind: string }) => void (r.component === "kubelet" && r.kind === "SyncPod" && syncs++) };
      const before = statusReuseChecks.reused;
      simulate(scenario, { sinks: [sink], keepRecords: false, strategy: { name }, ...("seed" in rest ? { seed: rest.seed } : {}) });
      const reused = statusReuseChecks.reused - before;
      // Each pod resyncs about once a minute; after its first minutes nothing changes.
      expect(reused).toBeGreaterThan(syncs / 3);
    },
  );
});
