// GetPods hands out the same frozen pod while the runtime's listing of it is unchanged (the PLEG
// then skips it at once), and a new pod, with the new state, as soon as anything of it changes.
import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/sim/index.ts";
import { CriError } from "../../../src/cri/errors.ts";
import type { RuntimePod } from "../../../src/kubelet/kuberuntime/running_pod.ts";
import type { RuntimeService } from "../../../src/cri/services.ts";
import { KubeGenericRuntimeManager } from "../../../src/kubelet/kuberuntime/kuberuntime_manager_sync.ts";
import { driver, webPod } from "./sync/driver.ts";

const present = { present: true, pullTime: null, fail: null };

describe("GetPods", () => {
  it("an unchanged listing gives the same frozen pods; a sandbox's death gives a new pod with the new states", () => {
    const d = driver({ runtime: { images: { "nginx:1.25": present } } });
    const lists: RuntimePod[][] = [];
    d.run(function* () {
      yield* d.syncOnce(webPod());
      for (let i = 0; i < 3; i++) {
        if (i === 2) d.rt.sandboxDies("s-1");
        const pods = yield* d.manager.GetPods(true);
        if (pods instanceof CriError) throw new Error(pods.message);
        lists.push(pods);
        yield* sleep(1000);
      }
    });
    const [first, again, after] = lists.map((l) => l[0]!);
    expect(Object.isFrozen(first)).toBe(true);
    expect(again).toBe(first);
    expect(after).not.toBe(first);
    expect(first!.sandboxes.map((s) => s.state)).toEqual(["running"]);
    expect(after!.sandboxes.map((s) => s.state)).not.toEqual(["running"]);
    // The sandbox's death took its container with it: a new view, with the new state.
    expect(after!.containers.map((c) => c.state)).toEqual(["exited"]);
    expect(again!.containers[0]).toBe(first!.containers[0]);
  });

  it("GetPods(true) and GetPods(false) keep separate listings", () => {
    const d = driver({ runtime: { images: { "nginx:1.25": present } } });
    const out: RuntimePod[][] = [];
    d.run(function* () {
      yield* d.syncOnce(webPod());
      for (const all of [true, false, true]) {
        const pods = yield* d.manager.GetPods(all);
        if (pods instanceof CriError) throw new Error(pods.message);
        out.push(pods);
      }
    });
    expect(out[2]![0]).toBe(out[0]![0]);
    expect(out[1]![0]).not.toBe(out[0]![0]);
  });

  // A runtime service that lists fresh copies of the runtime's views, so that only its generation
  // can tell GetPods the listing is unchanged; with `hideGeneration`, nothing can.
  function copyingManager(d: ReturnType<typeof driver>, hideGeneration: boolean): KubeGenericRuntimeManager {
    const svc = Object.create(d.rt) as RuntimeService;
    Object.defineProperty(svc, "ListContainers", {
      value: function* (filter: Parameters<RuntimeService["ListContainers"]>[0]) {
        const r = yield* d.rt.ListContainers(filter);
        return r instanceof CriError ? r : r.map((c) => Object.freeze({ ...c }));
      },
    });
    if (hideGeneration) Object.defineProperty(svc, "generation", { value: undefined });
    return new KubeGenericRuntimeManager({ sim: d.sim, runtimeService: svc, imageService: d.rt, network: d.rt });
  }

  it("an unchanged runtime generation reuses the last result; a changed one compares the listings again", () => {
    const d = driver({ runtime: { images: { "nginx:1.25": present } } });
    const counted = copyingManager(d, false);
    const blind = copyingManager(d, true);
    const out: Record<string, RuntimePod[]> = {};
    d.run(function* () {
      yield* d.syncOnce(webPod());
      const list = function* (m: KubeGenericRuntimeManager, name: string) {
        const pods = yield* m.GetPods(true);
        if (pods instanceof CriError) throw new Error(pods.message);
        out[name] = pods;
      };
      yield* list(counted, "first");
      yield* list(counted, "same generation");
      d.rt.store.touch(); // a change the listing does not show: a new generation, fresh copies
      yield* list(counted, "new generation");
      yield* list(blind, "blind 1");
      yield* list(blind, "blind 2");
    });
    expect(out["same generation"]![0]).toBe(out["first"]![0]);
    expect(out["new generation"]![0]).not.toBe(out["first"]![0]);
    expect(out["new generation"]).toEqual(out["first"]);
    expect(out["blind 2"]![0]).not.toBe(out["blind 1"]![0]);
  });
});
