// generic.go updateCache under the EventedPLEG gate: the cache entry is stamped with the status'
// own TimeStamp while the Evented PLEG is in use (Go's zero time when unset), else with the clock
// read before GetPodStatus; Cache.Set refuses a stamp older than the entry it holds.
import { describe, expect, it } from "vitest";
import { Sim, sleep } from "../../../src/sim/index.ts";
import { Cache } from "../../../src/kubelet/container/cache.ts";
import type { PodStatus } from "../../../src/kubelet/container/runtime.ts";
import { GenericPLEG } from "../../../src/kubelet/pleg/generic.ts";
import type { RuntimePod } from "../../../src/kubelet/kuberuntime/running_pod.ts";

const pod: RuntimePod = { id: "p", name: "p", namespace: "ns", createdAtMs: 0, containers: [], sandboxes: [] };
const status = (timestampMs?: number): PodStatus => ({
  id: "p", name: "p", namespace: "ns", ips: [], containerStatuses: [], sandboxStatuses: [], ...(timestampMs === undefined ? {} : { timestampMs }),
});

/** An entry stamped 1000 ms, then updateCache at 5000 ms with a status carrying `timestampMs`. */
function run(gate: boolean, inUse: boolean, timestampMs: number | undefined): { updated: boolean; modifiedMs: number | null } {
  const sim = new Sim({ seed: 1, strategy: { name: "fifo" } });
  const cache = new Cache(sim, gate);
  const source = { *GetPods() { return [pod]; }, *GetPodStatus() { return status(timestampMs); } };
  const pleg = new GenericPLEG(sim, source, cache, { eventedPLEG: gate, isEventedPLEGInUse: () => inUse });
  let updated = false;
  sim.go("t", function* () {
    cache.Set("p", status(), null, 1000);
    yield* sleep(5000);
    [, updated] = yield* pleg.updateCache(pod, "p");
  });
  sim.run();
  return { updated, modifiedMs: cache.modifiedTimes()[0]!.modifiedMs };
}

describe("GenericPLEG.updateCache: which time stamps the cache", () => {
  it.each([
    { name: "gate off: the clock", gate: false, inUse: false, ts: 9000, updated: true, modifiedMs: 5000 },
    { name: "gate on, Evented PLEG not in use: the clock", gate: true, inUse: false, ts: 9000, updated: true, modifiedMs: 5000 },
    { name: "in use, newer TimeStamp: stored at it", gate: true, inUse: true, ts: 9000, updated: true, modifiedMs: 9000 },
    { name: "in use, older TimeStamp: refused", gate: true, inUse: true, ts: 500, updated: false, modifiedMs: 1000 },
    { name: "in use, no TimeStamp (before 1.32, containerd): Go's zero time, refused", gate: true, inUse: true, ts: undefined, updated: false, modifiedMs: 1000 },
  ])("$name", ({ gate, inUse, ts, updated, modifiedMs }) => {
    expect(run(gate, inUse, ts)).toEqual({ updated, modifiedMs });
  });
});
