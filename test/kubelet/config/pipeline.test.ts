// The whole config pipeline: apiserver writes → watch → reflector → UndeltaStore SET → Merge → updates channel.
import { describe, expect, it } from "vitest";
import { MemorySink, Sim, recv, sleep } from "../../../src/sim/index.ts";
import { ApiServer } from "../../../src/apiserver/index.ts";
import { makePodSourceConfig, ManifestDir, UPDATES_CHANNEL_CAPACITY } from "../../../src/kubelet/config/index.ts";
import { configHarness, short } from "./helpers.ts";
import { must, podManifest } from "../../apiserver/helpers.ts";

describe("config pipeline", () => {
  it("create, image update, status patch, graceful delete, force delete → ADD, UPDATE, RECONCILE, DELETE, DELETE, REMOVE at the right virtual times", () => {
    // Every request takes 10 ms (applied at 5 ms), every watch event is delivered 5 ms after its write.
    const h = configHarness({ api: { latencyMs: 10, watchDelayMs: 5 } });
    const user = h.api.client("user");
    h.run(function* () {
      yield* sleep(1000);
      const p = must(yield* user.createPod(podManifest("web")));
      const cur = must(yield* user.getPod("default", "web"));
      must(yield* user.updatePod({ ...cur, spec: { ...cur.spec, containers: [{ ...cur.spec.containers[0]!, image: "nginx:2" }] } }));
      must(yield* user.patchPodStatus("default", "web", { phase: "Running" }, p.metadata.uid));
      must(yield* user.deletePod("default", "web", { gracePeriodSeconds: 30 }));
      must(yield* user.deletePod("default", "web", { gracePeriodSeconds: 0 }));
    });
    const uid = short(h.updates[1]!.Pods[0]!.metadata.uid);
    expect(h.seen).toEqual([
      "10 ADD api", // the first (empty) SET from the apiserver: the source is ready
      `1010 ADD api web/${uid}`,
      `1030 UPDATE api web/${uid}`,
      `1040 RECONCILE api web/${uid}`,
      `1050 DELETE api web/${uid}`,
      `1060 DELETE api web/${uid}`, // force delete: grace shortened to 0 ...
      `1060 REMOVE api web/${uid}`, // ... then the object is gone
    ]);
    const graceful = h.updates[4]!.Pods[0]!;
    expect(graceful.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(graceful.metadata.deletionTimestamp).toBe("2025-01-01T00:00:31Z");
    expect(h.updates[2]!.Pods[0]!.spec.containers[0]!.image).toBe("nginx:2");
    expect(h.records("config", "RECONCILE")).toMatchObject([{ t: 1040, pod: "default/web", source: "api" }]);
  });

  it("pods of other nodes never reach this kubelet", () => {
    const h = configHarness();
    const user = h.api.client("user");
    h.run(function* () {
      must(yield* user.createPod(podManifest("other", { nodeName: "node-2" })));
      must(yield* user.createPod(podManifest("mine")));
    });
    expect(h.seen.map((l) => l.split(" ").slice(1, 4).join(" "))).toEqual(["ADD api", expect.stringMatching(/^ADD api mine\//)]);
  });

  it("SeenAllSources turns true once every configured source has sent its first SET", () => {
    const h = configHarness({ sources: "both", api: { latencyMs: 200, watchDelayMs: 5 } });
    const answers: string[] = [];
    const all = new Set(["api", "file"]);
    h.run(function* () {
      answers.push(`0:${h.cfg.podConfig.SeenAllSources(all)}`);
      yield* sleep(100);
      answers.push(`100:${h.cfg.podConfig.SeenAllSources(all)}`); // file listed at 0, api not yet
      yield* sleep(200);
      answers.push(`300:${h.cfg.podConfig.SeenAllSources(all)}`);
      answers.push(`300 without file in seen:${h.cfg.podConfig.SeenAllSources(new Set(["api"]))}`);
    });
    expect(answers).toEqual(["0:false", "100:false", "300:true", "300 without file in seen:false"]);
  });

  it("the updates channel holds 50; a syncLoop that does not read blocks the source behind it, losing nothing", () => {
    const h = configHarness({ syncLoop: false, api: { latencyMs: 2, watchDelayMs: 1 } });
    const user = h.api.client("user");
    let lengthWhileBlocked = 0;
    const podsSeen: string[] = [];
    h.run(function* () {
      for (let i = 0; i < 70; i++) must(yield* user.createPod(podManifest(`p${String(i).padStart(2, "0")}`)));
      yield* sleep(1000);
      lengthWhileBlocked = h.cfg.podConfig.updates.length;
      h.sim.go("lateSyncLoop", function* () {
        for (;;) {
          const u = (yield* recv(h.cfg.podConfig.updates)).value!;
          for (const p of u.Pods) podsSeen.push(p.metadata.name);
        }
      }, { daemon: true });
    });
    expect(UPDATES_CHANNEL_CAPACITY).toBe(50);
    expect(lengthWhileBlocked).toBe(50);
    expect(podsSeen).toHaveLength(70);
    expect(new Set(podsSeen).size).toBe(70);
  });
});

describe("determinism", () => {
  function runOnce(seed: number, strategy: "fifo" | "random") {
    const sink = new MemorySink();
    const sim = new Sim({ seed, strategy: { name: strategy }, sinks: [sink], bounds: { untilMs: 90_000 } });
    const api = new ApiServer(sim, { latencyMs: [2, 40], watchDelayMs: [0, 30] });
    const dir = new ManifestDir(sim, "/etc/kubernetes/manifests");
    const { podConfig } = makePodSourceConfig(sim, { nodeName: "node-1", kubeClient: api.client("kubelet"), manifestDir: dir });
    sim.go("syncLoop", function* () { for (;;) yield* recv(podConfig.updates); }, { daemon: true });
    const user = api.client("user");
    sim.go("user", function* () {
      dir.write("etcd.yaml", { metadata: { name: "etcd" }, spec: { containers: [{ name: "etcd", image: "etcd:3" }] } });
      for (const n of ["a", "b", "c"]) yield* user.createPod(podManifest(n));
      yield* sleep(3000);
      api.registry.expireWatches();
      yield* user.deletePod("default", "a", { gracePeriodSeconds: 10 });
      dir.remove("etcd.yaml");
      yield* sleep(2000);
      yield* user.deletePod("default", "b", { gracePeriodSeconds: 0 });
    });
    const r = sim.run();
    return { hash: r.traceHash, tape: r.choices, kinds: sink.records.filter((x) => x.component === "config").length };
  }

  it.each(["fifo", "random"] as const)("same seed, same trace (%s strategy)", (strategy) => {
    const a = runOnce(11, strategy);
    const b = runOnce(11, strategy);
    expect(a.hash).toBe(b.hash);
    expect(a.kinds).toBeGreaterThan(10);
  });

  it("a different seed gives a different trace", () => {
    expect(runOnce(11, "random").hash).not.toBe(runOnce(12, "random").hash);
  });
});
