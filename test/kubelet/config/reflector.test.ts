// The reflector's ListAndWatch against the apiserver model: 410 → relist with backoff, partitions, short watches.
import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/sim/index.ts";
import { REFLECTOR_BACKOFF } from "../../../src/kubelet/config/index.ts";
import { configHarness } from "./helpers.ts";
import { must, podManifest } from "../../apiserver/helpers.ts";

const noJitter = { ...REFLECTOR_BACKOFF, jitter: 0 };

function reflectorLines(h: ReturnType<typeof configHarness>): string[] {
  return h.records("reflector").map((r) => {
    const { t, kind } = r;
    const detail = kind === "Backoff" ? r.delayMs : kind === "Listed" ? `${r.requested}->${r.resourceVersion}` : kind === "WatchEnded" ? (r.expired ? "expired" : r.error) : "";
    return `${t} ${kind} ${String(detail)}`.trimEnd();
  });
}

describe("reflector ListAndWatch", () => {
  it("lists with resourceVersion 0, then watches from the listed version", () => {
    const h = configHarness({ config: { reflectorBackoff: noJitter } });
    h.run(function* () {});
    expect(reflectorLines(h)).toEqual(["10 Listed 0->1"]);
    expect(h.records("apiserver", "Watch")).toMatchObject([{ t: 15, actor: "kubelet", nodeName: "node-1", fromResourceVersion: "1" }]);
  });

  it("410 Expired on the watch: back off 800 ms, relist from the last seen version, catch up what changed", () => {
    const h = configHarness({ config: { reflectorBackoff: noJitter } });
    const user = h.api.client("user");
    h.run(function* () {
      must(yield* user.createPod(podManifest("a")));
      must(yield* user.createPod(podManifest("b")));
      yield* sleep(1000);
      h.api.registry.expireWatches();
      // While the reflector backs off, b goes away and c arrives: the relist must show both.
      must(yield* user.deletePod("default", "b", { gracePeriodSeconds: 0 }));
      must(yield* user.createPod(podManifest("c")));
    });
    expect(reflectorLines(h)).toEqual([
      "10 Listed 0->1",
      // Expired at 1020, delivered 5 ms later; the relist runs 800 ms after, from version 3.
      "1025 WatchEnded expired",
      "1025 Backoff 800",
      "1835 Listed 3->6",
    ]);
    expect(h.seen.slice(-2)).toEqual([
      expect.stringMatching(/^1835 REMOVE api b\//),
      expect.stringMatching(/^1835 ADD api c\//),
    ]);
  });

  it("a refused list backs off 800 ms doubling to the 30 s cap, then recovers when the partition ends", () => {
    const h = configHarness({
      api: { latencyMs: 10, partitions: [{ fromMs: 0, toMs: 100_000, mode: "refuse", actors: ["kubelet"] }] },
      config: { reflectorBackoff: noJitter },
      untilMs: 200_000,
    });
    h.run(function* () {});
    const delays = h.records("reflector", "Backoff").map((r) => r.delayMs);
    expect(delays).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
    const listed = h.records("reflector", "Listed");
    expect(listed).toHaveLength(1);
    // Attempts at 10, 820, 2430, 5640, 12050, 24860, 50470, 80480; the next at 110490 succeeds.
    expect(listed[0]!.t).toBe(110_490);
    expect(h.seen).toEqual(["110490 ADD api"]);
  });

  it("with upstream's jitter the relist delays stay within [d, 2d)", () => {
    const h = configHarness({
      api: { latencyMs: 10, partitions: [{ fromMs: 0, toMs: 150_000, mode: "refuse", actors: ["kubelet"] }] },
      untilMs: 150_000,
      seed: 42,
    });
    h.run(function* () {});
    const delays = h.records("reflector", "Backoff").map((r) => r.delayMs as number);
    const base = [800, 1600, 3200, 6400, 12800, 25600, 30000];
    expect(delays.length).toBeGreaterThanOrEqual(5);
    delays.forEach((d, i) => {
      const b = base[Math.min(i, base.length - 1)]!;
      expect(d).toBeGreaterThanOrEqual(b);
      expect(d).toBeLessThan(2 * b);
    });
  });

  it("a partition after the list: re-watch with backoff (no relist), then resume from the last version", () => {
    const h = configHarness({
      api: { latencyMs: 10, watchDelayMs: 5, partitions: [{ fromMs: 5000, toMs: 8000, mode: "refuse", actors: ["kubelet"] }] },
      config: { reflectorBackoff: noJitter },
    });
    const user = h.api.client("user");
    h.run(function* () {
      yield* sleep(6000);
      must(yield* user.createPod(podManifest("during")));
    });
    expect(h.records("reflector", "Listed")).toHaveLength(1);
    expect(h.records("reflector", "WatchRetry").length).toBeGreaterThanOrEqual(2);
    expect(h.records("reflector", "Backoff").map((r) => r.delayMs)).toEqual([800, 1600, 3200]);
    // Re-watches at 5000, 5810, 7420 are refused; the one at 10630 opens from resourceVersion 1
    // and replays the pod created during the cut (delivered 5 ms after it opened at 10635).
    expect(h.records("apiserver", "Watch").filter((r) => r.result === "ok").map((r) => [r.t, r.fromResourceVersion])).toEqual([[15, "1"], [10_635, "1"]]);
    expect(h.seen).toEqual(["10 ADD api", expect.stringMatching(/^10640 ADD api during\//)]);
  });

  it("a watch closed within a second with no events is a 'very short watch' error: back off and relist", () => {
    const h = configHarness({ api: { latencyMs: 10, watchDelayMs: 5 }, config: { reflectorBackoff: noJitter } });
    h.run(function* () {
      yield* sleep(500);
      h.api.registry.dropWatches("kubelet");
    });
    expect(reflectorLines(h)).toEqual([
      "10 Listed 0->1",
      "500 WatchEnded very short watch: config/apiserver: Unexpected watch close - watch lasted less than a second and no items received",
      "500 Backoff 800",
      "1310 Listed 1->1",
    ]);
  });

  it("a watch closed after a second just re-watches from the last version, without a relist", () => {
    const h = configHarness({ config: { reflectorBackoff: noJitter } });
    h.run(function* () {
      yield* sleep(5000);
      h.api.registry.dropWatches("kubelet");
    });
    expect(reflectorLines(h)).toEqual(["10 Listed 0->1", "5000 WatchClosed"]);
    expect(h.records("apiserver", "Watch").map((r) => [r.t, r.fromResourceVersion])).toEqual([[15, "1"], [5005, "1"]]);
  });
});
