// A quiet relist (the same frozen pods listed as by the last relist, which found no events) skips
// setCurrent and computeEvents: the records and the events are what they were. A changed pod, a
// relist with events, or a listing of pods that are not frozen (so possibly changed in place)
// computes them again.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Proc } from "../../../src/sim/index.ts";
import type { CriError } from "../../../src/cri/errors.ts";
import type { RuntimePod } from "../../../src/kubelet/kuberuntime/running_pod.ts";
import { PodRecords } from "../../../src/kubelet/pleg/generic_events.ts";
import { GenericPLEG } from "../../../src/kubelet/pleg/generic.ts";
import { c, FakeRuntime, plegHarness, pod, runInProcess } from "./helpers.ts";

/** GetPods hands out the listed pods themselves, as kuberuntime's GetPods does for an unchanged listing. */
class SharingRuntime extends FakeRuntime {
  override *GetPods(all: boolean): Proc<RuntimePod[] | CriError> {
    this.calls.push(`GetPods(${all})`);
    yield* [];
    return [...this.AllPodList];
  }
}

function frozen(p: RuntimePod): RuntimePod {
  for (const x of [...p.containers, ...p.sandboxes]) Object.freeze(x);
  Object.freeze(p.containers);
  Object.freeze(p.sandboxes);
  return Object.freeze(p);
}

afterEach(() => vi.restoreAllMocks());

describe("a quiet relist", () => {
  it("reuses the last relist's outcome while the same frozen pods are listed, and computes again when one changes", () => {
    const h = plegHarness();
    const runtime = new SharingRuntime();
    const pleg = new GenericPLEG(h.sim, runtime, h.cache);
    const drain = (): string[] => {
      const out: string[] = [];
      for (let r = pleg.Watch().tryRecv(); r !== undefined && r.ok; r = pleg.Watch().tryRecv()) out.push(`${r.value!.ID}/${String(r.value!.Data)}/${r.value!.Type}`);
      return out.sort();
    };
    const setCurrent = vi.spyOn(PodRecords.prototype, "setCurrent");
    const steps: { events: string[]; computed: boolean }[] = [];
    const relist = function* () {
      const before = setCurrent.mock.calls.length;
      yield* pleg.relist();
      steps.push({ events: drain(), computed: setCurrent.mock.calls.length > before });
    };
    runInProcess(h, function* () {
      runtime.AllPodList = [frozen(pod("p1", [c("c1", "running")]))];
      yield* relist(); // new container: an event
      yield* relist(); // nothing changed, but the last relist had events: computed, none
      yield* relist(); // the same pods again after a quiet relist: reused
      runtime.AllPodList = [frozen(pod("p1", [c("c1", "exited")]))];
      yield* relist(); // a new pod object: computed, ContainerDied
      yield* relist();
      yield* relist();
      runtime.AllPodList = [pod("p1", [c("c1", "exited")])];
      yield* relist(); // not frozen: computed every time
      yield* relist();
    });
    expect(steps).toEqual([
      { events: ["p1/c1/ContainerStarted"], computed: true },
      { events: [], computed: true },
      { events: [], computed: false },
      { events: ["p1/c1/ContainerDied"], computed: true },
      { events: [], computed: true },
      { events: [], computed: false },
      { events: [], computed: true },
      { events: [], computed: true },
    ]);
    // Every relist still lists and records, as upstream's does.
    expect(runtime.calls.filter((x) => x.startsWith("GetPods")).length).toBe(8);
    expect(h.records("pleg", "relist").length).toBe(8);
  });
});
