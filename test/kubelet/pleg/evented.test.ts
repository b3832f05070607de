// pkg/kubelet/pleg/evented.go and the EventedPLEG side of container/cache.go: what an event writes
// into the cache and with which stamp, the pod lifecycle events it sends, the periodic global
// timestamp, and the fallback to relisting when the runtime's stream keeps breaking.
import { describe, expect, it } from "vitest";
import { MemorySink, Sim, sleep, type Chan, type Proc } from "../../../src/sim/index.ts";
import { Cache, emptyPodStatus } from "../../../src/kubelet/container/cache.ts";
import type { PodStatus } from "../../../src/kubelet/container/runtime.ts";
import type { ContainerEventResponse, ContainerEventType } from "../../../src/cri/api.ts";
import { EventedPLEG, eventedPlegMaxStreamRetries, globalCacheUpdatePeriodMs, type RelistingPLEG } from "../../../src/kubelet/pleg/evented.ts";
import type { PodLifecycleEvent, RelistDuration } from "../../../src/kubelet/pleg/pleg.ts";

function setup(createdAtTimestampFixed: boolean) {
  const sink = new MemorySink();
  const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, sinks: [sink], bounds: { untilMs: 20_000 } });
  const cache = new Cache(sim, true);
  const eventChannel = sim.chan<PodLifecycleEvent>("pleg/events", 10);
  const streams: Chan<ContainerEventResponse>[] = [];
  const source = { GetContainerEvents: () => { const ch = sim.chan<ContainerEventResponse>("events", 10); streams.push(ch); return ch; } };
  const calls: string[] = [];
  const generic: RelistingPLEG = {
    Start: () => void calls.push(`start@${sim.nowMs}`),
    Stop: () => void calls.push(`stop@${sim.nowMs}`),
    Update: (d: RelistDuration) => void calls.push(`update ${d.relistPeriodMs}/${d.relistThresholdMs}`),
    relist: function* (): Proc<void> { calls.push(`relist@${sim.nowMs}`); },
  };
  const pleg = new EventedPLEG(sim, source, cache, generic, {
    eventChannel,
    generatePodStatus: (e) => ({ ...emptyPodStatus("u1"), name: "web", namespace: "default", containerStatuses: [], sandboxStatuses: [], ips: [], tag: e.containerEventType } as PodStatus),
    createdAtTimestampFixed,
  });
  const cached = (kind: string) => sink.records.filter((r) => r.component === "cache" && r.kind === kind);
  return { sim, cache, pleg, eventChannel, streams, calls, cached };
}

function event(type: ContainerEventType, createdAtMs: number): ContainerEventResponse {
  return {
    containerId: "c-1", containerEventType: type, createdAtMs,
    podSandboxStatus: { id: "s-1", metadata: { name: "web", namespace: "default", uid: "u1", attempt: 0 }, state: "SANDBOX_READY", createdAtMs: 0 } as ContainerEventResponse["podSandboxStatus"],
    containersStatuses: [],
  };
}

describe("cache.Set with the EventedPLEG gate", () => {
  it("refuses data older than the entry and says so; equal or newer data is stored", () => {
    const { cache } = setup(true);
    expect(cache.Set("u1", emptyPodStatus("u1"), null, 100)).toBe(true);
    expect(cache.Set("u1", emptyPodStatus("u1"), null, 50)).toBe(false);
    expect(cache.Set("u1", emptyPodStatus("u1"), null, 100)).toBe(true);
    expect(cache.Set("u1", emptyPodStatus("u1"), null, 150)).toBe(true);
  });
});

describe("processCRIEvents", () => {
  it.each([
    [false, 1_642 * 1e9],
    [true, 1_642],
  ])("createdAtTimestampFixed=%s: a CONTAINER_CREATED event at 1.642s is cached with stamp %d and sends no pod event", (fixed, stamp) => {
    const { sim, pleg, streams, eventChannel, cached } = setup(fixed);
    pleg.Start();
    sim.go("runtime", function* () {
      yield* sleep(2_000);
      streams[0]!.trySend(event("CONTAINER_CREATED_EVENT", 1_642));
    });
    sim.run();
    expect(cached("Set").map((r) => r.timeMs)).toEqual([stamp]);
    expect(eventChannel.length).toBe(0);
  });

  it("STARTED sends ContainerStarted, STOPPED ContainerDied, DELETED both ContainerDied and ContainerRemoved", () => {
    const { sim, pleg, streams, eventChannel } = setup(true);
    pleg.Start();
    sim.go("runtime", function* () {
      yield* sleep(1);
      for (const [t, type] of [[10, "CONTAINER_STARTED_EVENT"], [20, "CONTAINER_STOPPED_EVENT"], [30, "CONTAINER_DELETED_EVENT"]] as const) {
        streams[0]!.trySend(event(type, t));
      }
    });
    sim.run();
    const got: string[] = [];
    while (eventChannel.length > 0) got.push(eventChannel.tryRecv()!.value!.Type);
    expect(got).toEqual(["ContainerStarted", "ContainerDied", "ContainerDied", "ContainerRemoved"]);
  });

  it("an out-of-order event older than the cached entry is dropped: no pod event", () => {
    const { sim, pleg, streams, eventChannel } = setup(true);
    pleg.Start();
    sim.go("runtime", function* () {
      yield* sleep(1);
      streams[0]!.trySend(event("CONTAINER_STOPPED_EVENT", 20));
      streams[0]!.trySend(event("CONTAINER_STARTED_EVENT", 10));
    });
    sim.run();
    const got: string[] = [];
    while (eventChannel.length > 0) got.push(eventChannel.tryRecv()!.value!.Type);
    expect(got).toEqual(["ContainerDied"]);
  });
});

describe("updateGlobalCache and the fallback", () => {
  it("moves the cache's global timestamp at start and every globalCacheUpdatePeriod", () => {
    const { sim, pleg, cached } = setup(true);
    pleg.Start();
    sim.run();
    expect(cached("UpdateTime").map((r) => r.timeMs).slice(0, 3)).toEqual([0, globalCacheUpdatePeriodMs, 2 * globalCacheUpdatePeriodMs]);
  });

  it(`after ${eventedPlegMaxStreamRetries} broken streams, each followed by a forced relist, the generic PLEG takes over at 1s/3m`, () => {
    const { sim, pleg, streams, calls } = setup(true);
    pleg.Start();
    sim.go("runtime", function* () {
      for (let i = 0; i < eventedPlegMaxStreamRetries; i++) {
        yield* sleep(100);
        streams[i]!.close();
      }
    });
    sim.run();
    expect(calls).toEqual(["relist@100", "relist@200", "relist@300", "relist@400", "relist@500", "stop@500", "update 1000/180000", "start@500"]);
    expect(pleg.InUse).toBe(false);
  });
});
