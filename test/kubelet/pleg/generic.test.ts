// Ports of upstream pkg/kubelet/pleg/generic_test.go: each test drives relist() directly, as the Go
// tests call pleg.Relist(), from inside one kernel process.
import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/sim/index.ts";
import { unknown } from "../../../src/cri/errors.ts";
import { c, plegHarness, pod, podStatusOf, runInProcess, sorted, status } from "./helpers.ts";
import type { PodLifecycleEvent } from "../../../src/kubelet/pleg/pleg.ts";
import { GenericPLEG } from "../../../src/kubelet/pleg/generic.ts";

const ev = (id: string, type: string, data: string) => `${id}/${data}/${type}`;

describe("TestRelisting", () => {
  it("reports running/exited containers seen first, nothing when unchanged, and transitions after", () => {
    const h = plegHarness();
    const seen: string[][] = [];
    runInProcess(h, function* () {
      h.runtime.AllPodList = [
        pod("1234", [c("c1", "exited"), c("c2", "running"), c("c3", "unknown")]),
        pod("4567", [c("c1", "exited")]),
      ];
      yield* h.pleg.relist();
      seen.push(sorted(h.drain()));
      yield* h.pleg.relist();
      seen.push(sorted(h.drain()));
      h.runtime.AllPodList = [pod("1234", [c("c2", "exited"), c("c3", "running")]), pod("4567", [c("c4", "running")])];
      yield* h.pleg.relist();
      seen.push(sorted(h.drain()));
    });
    expect(seen[0]).toEqual([ev("1234", "ContainerDied", "c1"), ev("1234", "ContainerStarted", "c2"), ev("4567", "ContainerDied", "c1")]);
    expect(seen[1]).toEqual([]); // no container has changed
    expect(seen[2]).toEqual(
      [
        ev("1234", "ContainerRemoved", "c1"),
        ev("1234", "ContainerDied", "c2"),
        ev("1234", "ContainerStarted", "c3"),
        ev("4567", "ContainerRemoved", "c1"),
        ev("4567", "ContainerStarted", "c4"),
      ].sort(),
    );
    // ContainerChanged (c3 unknown) is generated but filtered out, and traced as such.
    expect(h.records("pleg", "ContainerChanged")).toMatchObject([{ uid: "1234", containerID: "c3", filtered: true }]);
  });
});

describe("TestRelistingWithSandboxes", () => {
  it("sandboxes are treated as containers", () => {
    const h = plegHarness();
    const seen: string[][] = [];
    runInProcess(h, function* () {
      h.runtime.AllPodList = [
        pod("1234", [], [c("c1", "exited"), c("c2", "running"), c("c3", "unknown")]),
        pod("4567", [], [c("c1", "exited")]),
      ];
      yield* h.pleg.relist();
      seen.push(sorted(h.drain()));
      h.runtime.AllPodList = [pod("1234", [], [c("c2", "exited"), c("c3", "running")]), pod("4567", [], [c("c4", "running")])];
      yield* h.pleg.relist();
      seen.push(sorted(h.drain()));
    });
    expect(seen[0]).toEqual([ev("1234", "ContainerDied", "c1"), ev("1234", "ContainerStarted", "c2"), ev("4567", "ContainerDied", "c1")]);
    expect(seen[1]).toHaveLength(5);
  });
});

describe("TestEventChannelFull", () => {
  it("a full channel discards the event and counts it", () => {
    const h = plegHarness({ channelCapacity: 4 });
    let second: PodLifecycleEvent[] = [];
    runInProcess(h, function* () {
      h.runtime.AllPodList = [
        pod("1234", [c("c1", "exited"), c("c2", "running"), c("c3", "unknown")]),
        pod("4567", [c("c1", "exited")]),
      ];
      yield* h.pleg.relist();
      expect(h.drain()).toHaveLength(3);
      h.runtime.AllPodList = [pod("1234", [c("c2", "exited"), c("c3", "running")]), pod("4567", [c("c4", "running")])];
      yield* h.pleg.relist(); // five events, room for four
      second = h.drain();
    });
    const all = [
      ev("1234", "ContainerRemoved", "c1"),
      ev("1234", "ContainerDied", "c2"),
      ev("1234", "ContainerStarted", "c3"),
      ev("4567", "ContainerRemoved", "c1"),
      ev("4567", "ContainerStarted", "c4"),
    ];
    expect(second).toHaveLength(4);
    for (const e of sorted(second)) expect(all).toContain(e);
    expect(h.pleg.discardedEvents).toBe(1);
    expect(h.records("pleg", "EventDropped")).toHaveLength(1);
    expect(h.records("pleg", "EventDropped")[0]).toMatchObject({ discarded: 1 });
  });
});

describe("TestDetectingContainerDeaths", () => {
  it.each([1, 3])("a container stopped and removed between relists is reported (after %i relists)", (numRelists) => {
    const h = plegHarness();
    let events: string[] = [];
    runInProcess(h, function* () {
      h.runtime.AllPodList = [pod("1234", [c("c1", "running"), c("c2", "running"), c("c3", "exited")])];
      for (let i = 0; i < numRelists; i++) {
        yield* h.pleg.relist();
        h.drain();
      }
      // c2 was stopped and removed; the exited c3 was garbage collected.
      h.runtime.AllPodList = [pod("1234", [c("c1", "running")])];
      yield* h.pleg.relist();
      events = sorted(h.drain());
    });
    expect(events).toEqual([ev("1234", "ContainerDied", "c2"), ev("1234", "ContainerRemoved", "c2"), ev("1234", "ContainerRemoved", "c3")].sort());
  });

  it.each([1, 3])("a pod missing from the listing reports its container died and removed (after %i relists)", (numRelists) => {
    const h = plegHarness();
    let events: string[] = [];
    runInProcess(h, function* () {
      h.runtime.AllPodList = [pod("1234", [c("c2", "running")])];
      for (let i = 0; i < numRelists; i++) {
        yield* h.pleg.relist();
        h.drain();
      }
      h.runtime.AllPodList = [];
      yield* h.pleg.relist();
      events = sorted(h.drain());
    });
    expect(events).toEqual([ev("1234", "ContainerDied", "c2"), ev("1234", "ContainerRemoved", "c2")].sort());
  });
});

describe("TestRelistWithCache", () => {
  it("an inspection error withholds the pod's events and caches the error; the next relist retries", () => {
    const h = plegHarness();
    const p0 = pod("test-pod-0", [c("c0", "running")]);
    const p1 = pod("test-pod-1", [c("c1", "running")]);
    const statusErr = unknown("unable to get status");
    const got: string[][] = [];
    runInProcess(h, function* () {
      h.runtime.AllPodList = [p0, p1];
      h.runtime.podStatus.set(p1.id, statusErr);
      yield* h.pleg.relist();
      got.push(sorted(h.drain()));
      expect(h.cache.GetWithError(p0.id)).toEqual([podStatusOf(p0), null]);
      // GetPodStatus fails as (nil, err): the entry holds the error, with the CRI error as its cause.
      const [st1, err1] = h.cache.GetWithError(p1.id);
      expect(st1).toBeNull();
      expect(err1?.message).toBe("rpc error: code = Unknown desc = unable to get status");
      expect(err1?.cause).toBe(statusErr);
      expect(h.cache.Get(p1.id)).toBeUndefined(); // the PodCacheReader view of an error
      h.runtime.podStatus.delete(p1.id);
      yield* h.pleg.relist();
      got.push(sorted(h.drain()));
      expect(h.cache.GetWithError(p1.id)).toEqual([podStatusOf(p1), null]);
    });
    expect(got).toEqual([[ev("test-pod-0", "ContainerStarted", "c0")], [ev("test-pod-1", "ContainerStarted", "c1")]]);
  });
});

describe("TestRemoveCacheEntry", () => {
  it("a pod gone from the runtime loses its cache entry", () => {
    const h = plegHarness();
    const p0 = pod("test-pod-0", [c("c0", "running")]);
    runInProcess(h, function* () {
      h.runtime.AllPodList = [p0];
      yield* h.pleg.relist();
      h.runtime.AllPodList = [];
      yield* h.pleg.relist();
    });
    expect(h.cache.GetWithError(p0.id)).toEqual([{ id: p0.id, name: "", namespace: "", ips: [], containerStatuses: [], sandboxStatuses: [] }, null]);
    expect(h.records("cache", "Delete")).toMatchObject([{ uid: p0.id }]);
  });
});

describe("TestRelistWithReinspection", () => {
  it("a pod that failed inspection is reinspected, and no events repeat", () => {
    const h = plegHarness();
    const infra = c("infra", "running");
    const good = pod("test-pod", [infra]);
    const out: string[][] = [];
    runInProcess(h, function* () {
      h.runtime.AllPodList = [good];
      yield* h.pleg.relist(); // listing 1: everything ok
      out.push(sorted(h.drain()));
      h.runtime.AllPodList = [pod("test-pod", [infra, c("transient", "unknown")])];
      h.runtime.podStatus.set("test-pod", unknown("inspection error"));
      yield* h.pleg.relist(); // listing 2: the inspection fails
      out.push(sorted(h.drain()));
      expect(h.cache.GetWithError("test-pod")[1]?.message).toBe("rpc error: code = Unknown desc = inspection error");
      h.runtime.AllPodList = [good];
      h.runtime.podStatus.delete("test-pod");
      yield* h.pleg.relist(); // listing 3: reinspected, same containers as listing 1
      out.push(sorted(h.drain()));
    });
    expect(out).toEqual([[ev("test-pod", "ContainerStarted", "infra")], [], []]);
    expect(h.cache.GetWithError("test-pod")).toEqual([podStatusOf(good), null]);
    expect(h.runtime.calls.filter((x) => x.startsWith("GetPodStatus"))).toHaveLength(3);
  });
});

describe("TestRelistIPChange", () => {
  it.each([[["192.168.1.5"]], [["192.168.1.5/24", "2000::"]]])("keeps the pod IPs %j once the sandbox is gone", (ips) => {
    const h = plegHarness();
    runInProcess(h, function* () {
      const running = pod("test-pod-0", [c("c0", "running")]);
      h.runtime.AllPodList = [running];
      h.runtime.podStatus.set(running.id, podStatusOf(running, { ips }));
      yield* h.pleg.relist();
      const exited = pod("test-pod-0", [c("c0", "exited")]);
      h.runtime.AllPodList = [exited];
      h.runtime.podStatus.set(exited.id, { ...podStatusOf(exited), containerStatuses: [status("c0", "exited")] });
      yield* h.pleg.relist();
      expect(h.drain().map((e) => e.Type)).toEqual(["ContainerStarted", "ContainerDied"]);
    });
    expect(h.cache.GetWithError("test-pod-0")[0]!.ips).toEqual(ips);
  });
});

describe("TestHealthy", () => {
  it("unhealthy before any relist, healthy within the threshold, unhealthy past it", () => {
    const h = plegHarness({ untilMs: 3_600_000 });
    const seen: [number, boolean, string | null][] = [];
    const check = () => {
      const { ok, err } = h.pleg.Healthy();
      seen.push([h.sim.nowMs, ok, err?.message ?? null]);
    };
    runInProcess(h, function* () {
      check();
      yield* sleep(10 * 60_000);
      check();
      yield* h.pleg.relist();
      yield* sleep(60_000);
      check();
      yield* sleep(3 * 60_000);
      check();
    });
    expect(seen).toEqual([
      [0, false, "pleg has yet to be successful"],
      [600_000, false, "pleg has yet to be successful"],
      [660_000, true, null],
      [840_000, false, "pleg was last seen active 4m0s ago; threshold is 3m0s"],
    ]);
  });
});

describe("cacheEnabled: the cache-less PLEG of newTestGenericPLEG", () => {
  it("never inspects a pod, advances every record and sends the events; the kubelet's PLEG inspects", () => {
    const h = plegHarness();
    const cacheLess = new GenericPLEG(h.sim, h.runtime, null, {});
    const sent: string[][] = [];
    runInProcess(h, function* () {
      h.runtime.AllPodList = [pod("1234", [c("c1", "running")])];
      // An inspection error would hold the events back in a PLEG with a cache.
      h.runtime.podStatus.set("1234", unknown("inspection fails"));
      yield* cacheLess.relist();
      sent.push(sorted(drainOf(cacheLess)));
      h.runtime.AllPodList = [pod("1234", [c("c1", "exited")])];
      yield* cacheLess.relist();
      sent.push(sorted(drainOf(cacheLess)));
    });
    expect(sent).toEqual([[ev("1234", "ContainerStarted", "c1")], [ev("1234", "ContainerDied", "c1")]]);
    expect(h.runtime.calls).toEqual(["GetPods(true)", "GetPods(true)"]);
    const withCache = plegHarness();
    runInProcess(withCache, function* () {
      withCache.runtime.AllPodList = [pod("1234", [c("c1", "running")])];
      yield* withCache.pleg.relist();
    });
    expect(withCache.runtime.calls).toEqual(["GetPods(true)", "GetPodStatus(1234)"]);
  });
});

function drainOf(pleg: GenericPLEG): PodLifecycleEvent[] {
  const out: PodLifecycleEvent[] = [];
  for (let r = pleg.Watch().tryRecv(); r !== undefined && r.ok; r = pleg.Watch().tryRecv()) out.push(r.value!);
  return out;
}
