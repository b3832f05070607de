// HandlePodCleanups' reuse (src/kubelet/housekeeping_reuse.ts): what a pass derives around its
// runtime calls is kept only while the generations it was derived from are the ones the last pass
// left, and that pass did not move them. The generation counters it compares move with every
// change they stand for (table tests), and every bundled scenario runs with each reuse checked
// against a fresh computation, which must also give the same trace hash as the golden runs.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sleep } from "../../src/sim/index.ts";
import { HousekeepingReuse, housekeepingReuseChecks, type Generations, type KnownPods } from "../../src/kubelet/housekeeping_reuse.ts";
import { PodManager } from "../../src/kubelet/pod_manager.ts";
import { PodWorkers } from "../../src/kubelet/pod_workers.ts";
import { WorkQueue } from "../../src/kubelet/util/queue.ts";
import { SyncPodCreate, SyncPodKill, SyncPodUpdate, type RunningPod } from "../../src/kubelet/types.ts";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioFile, loadScenarioText } from "../../src/scenario/index.ts";
import { nodeScenarioYaml } from "../../src/bench/node.ts";
import { bundledScenarios, ROOT } from "../cli/golden_table.ts";
import { FakeSyncer, InstantCache, newSim, pod } from "./pod_workers_fakes.ts";

afterEach(() => {
  housekeepingReuseChecks.verify = false;
});

function known(uids: string[] = ["u1"]): KnownPods {
  const set = new Set(uids);
  return { allPods: uids.map((u) => pod(u, u)), workingPods: new Map(), allPodUIDs: set, possiblyRunning: set, everyDesiredKnown: true };
}

/** A reuse over settable generations, counting what it computes. */
function harness() {
  const g = { pods: 0, workers: 0, probes: 0 as number | undefined, statuses: 0 as number | undefined };
  const counts = { known: 0, cleanup: 0, statuses: 0, orphans: 0 };
  const reuse = new HousekeepingReuse();
  const gens = (): Generations => ({ ...g });
  return { g, counts, reuse, gens };
}

describe("the housekeeping reuse", () => {
  it("keeps the known pods while neither the pods' nor the workers' generation moves", () => {
    const h = harness();
    const first = h.reuse.knownPods(h.gens, () => (h.counts.known++, known()));
    expect(h.reuse.knownPods(h.gens, () => (h.counts.known++, known()))).toBe(first);
    expect(h.counts.known).toBe(1);
  });

  it.each([
    ["the pod manager's", (g: { pods: number; workers: number }) => void g.pods++],
    ["the pod workers'", (g: { pods: number; workers: number }) => void g.workers++],
  ])("computes the known pods again when %s generation moved", (_what, move) => {
    const h = harness();
    const first = h.reuse.knownPods(h.gens, () => (h.counts.known++, known()));
    move(h.g);
    expect(h.reuse.knownPods(h.gens, () => (h.counts.known++, known()))).not.toBe(first);
    expect(h.counts.known).toBe(2);
  });

  it("never keeps known pods whose computation moved the workers (SyncKnownPods acted on an orphan)", () => {
    const h = harness();
    h.reuse.knownPods(h.gens, () => (h.counts.known++, h.g.workers++, known()));
    h.reuse.knownPods(h.gens, () => (h.counts.known++, known()));
    expect(h.counts.known).toBe(2);
  });

  it("skips CleanupPods with the same set and probe generation after a call that stopped none; never after one that stopped a worker", () => {
    const h = harness();
    const k = known();
    const cleanup = (stopped: number) => () => (h.counts.cleanup++, stopped);
    h.reuse.cleanupPods(k, () => h.g.probes, cleanup(1));
    h.reuse.cleanupPods(k, () => h.g.probes, cleanup(0));
    h.reuse.cleanupPods(k, () => h.g.probes, cleanup(0));
    expect(h.counts.cleanup).toBe(2);
    h.g.probes!++;
    h.reuse.cleanupPods(k, () => h.g.probes, cleanup(0));
    h.reuse.cleanupPods(known(), () => h.g.probes, cleanup(0)); // another set
    h.g.probes = undefined; // a fake without a generation
    h.reuse.cleanupPods(k, () => h.g.probes, cleanup(0));
    h.reuse.cleanupPods(k, () => h.g.probes, cleanup(0));
    expect(h.counts.cleanup).toBe(6);
  });

  it("skips RemoveOrphanedStatuses with the same UIDs until a status is cached", () => {
    const h = harness();
    const k = known();
    const remove = () => void h.counts.statuses++;
    h.reuse.removeOrphanedStatuses(k, () => h.g.statuses, remove);
    h.reuse.removeOrphanedStatuses(k, () => h.g.statuses, remove);
    h.g.statuses!++;
    h.reuse.removeOrphanedStatuses(k, () => h.g.statuses, remove);
    h.reuse.removeOrphanedStatuses(k, () => h.g.statuses, remove);
    expect(h.counts.statuses).toBe(2);
  });

  it("skips the orphan loop over the same runtime pods and known pods after a loop that killed none", () => {
    const h = harness();
    const k = known();
    const rp = (id: string): RunningPod => ({ id, name: id, namespace: "default", containers: [], sandboxes: [] }) as unknown as RunningPod;
    const a = rp("a");
    const kill = (n: number) => () => (h.counts.orphans++, n);
    h.reuse.killOrphans(k, [a], kill(1)); // killed one: not kept
    h.reuse.killOrphans(k, [a], kill(0));
    h.reuse.killOrphans(k, [a], kill(0)); // a new array, the same pods
    expect(h.counts.orphans).toBe(2);
    h.reuse.killOrphans(k, [a, rp("b")], kill(0));
    h.reuse.killOrphans(known(), [a, rp("b")], kill(0));
    expect(h.counts.orphans).toBe(4);
  });

  it("in verify mode computes every reused part again, and throws when the fresh one differs or acts", () => {
    const h = harness();
    housekeepingReuseChecks.verify = true;
    const k = known();
    h.reuse.knownPods(h.gens, () => k);
    expect(() => h.reuse.knownPods(h.gens, () => known(["u2"]))).toThrow(/the desired pods differ/);
    h.reuse.cleanupPods(k, () => h.g.probes, () => 0);
    expect(() => h.reuse.cleanupPods(k, () => h.g.probes, () => 1)).toThrow(/CleanupPods stopped a worker/);
    h.reuse.removeOrphanedStatuses(k, () => h.g.statuses, () => {});
    expect(() => h.reuse.removeOrphanedStatuses(k, () => h.g.statuses, () => void h.g.statuses!++)).toThrow(/removed a status/);
  });
});

describe("the generations it compares", () => {
  it("PodManager: every add, update and removal counts; reads do not", () => {
    const pm = new PodManager();
    const seen = [pm.generation];
    const p = pod("web", "u1");
    pm.AddPod(p);
    seen.push(pm.generation);
    pm.GetPods();
    pm.GetPodByUID("u1");
    seen.push(pm.generation);
    pm.UpdatePod(pod("web", "u1", { labels: { a: "b" } }));
    seen.push(pm.generation);
    pm.RemovePod(p);
    seen.push(pm.generation);
    expect(seen).toEqual([0, 1, 1, 2, 3]);
  });

  it("PodWorkers: a new worker, a termination request, its termination and finish count; a resync of a running pod does not", () => {
    const { sim } = newSim();
    const syncer = new FakeSyncer(sim);
    const pw = new PodWorkers(sim, syncer, { Eventf: () => {} }, new WorkQueue(sim), 60_000, 10_000, new InstantCache(sim));
    const seen: [string, number][] = [];
    const p = pod("web", "u1");
    sim.go("test", function* () {
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: p });
      seen.push(["created", pw.generation]);
      yield* sleep(1000);
      seen.push(["synced", pw.generation]);
      pw.UpdatePod({ UpdateType: SyncPodUpdate, Pod: p });
      yield* sleep(1000);
      pw.SyncKnownPods([p]);
      seen.push(["resynced, SyncKnownPods with it desired", pw.generation]);
      pw.UpdatePod({ UpdateType: SyncPodKill, Pod: p });
      seen.push(["kill requested", pw.generation]);
      yield* sleep(1000);
      seen.push(["terminated and finished", pw.generation]);
      pw.SyncKnownPods([]);
      seen.push(["removed by SyncKnownPods", pw.generation]);
    });
    sim.run();
    expect(seen).toEqual([
      ["created", 1],
      ["synced", 1],
      ["resynced, SyncKnownPods with it desired", 1],
      ["kill requested", 2],
      ["terminated and finished", 4],
      ["removed by SyncKnownPods", 5],
    ]);
  });
});

describe("every bundled scenario with every housekeeping reuse checked", () => {
  let reused = 0;
  it.each(bundledScenarios())("%s: a reused part is the one computed afresh, which does nothing", (file) => {
    housekeepingReuseChecks.verify = true;
    const before = housekeepingReuseChecks.reused;
    const { scenario } = loadScenarioFile(join(ROOT, file));
    simulate(scenario, { sinks: [], keepRecords: false });
    reused += housekeepingReuseChecks.reused - before;
  });
  it("reused some passes across them (the check above checked something)", () => {
    expect(reused).toBeGreaterThan(0);
  });
});

describe("a quiet node, with and without the checks", () => {
  it.each([{ name: "fifo" as const }, { name: "random" as const, seed: 7 }])(
    "10 pods with two probed containers each, 6 virtual minutes under $name: the same trace hash, most passes reused",
    ({ name, ...rest }) => {
      const { scenario } = loadScenarioText(nodeScenarioYaml(10, "6m"), "node-10-pods.yaml");
      const opts = { sinks: [], keepRecords: false, strategy: { name }, ...("seed" in rest ? { seed: rest.seed } : {}) };
      const before = housekeepingReuseChecks.reused;
      const plain = simulate(scenario, opts).run.traceHash;
      const reused = housekeepingReuseChecks.reused - before;
      housekeepingReuseChecks.verify = true;
      const verified = simulate(scenario, opts).run.traceHash;
      expect(verified).toBe(plain);
      // 180 housekeeping passes; the pods start in the first minute.
      expect(reused).toBeGreaterThan(100);
    },
  );
});
