// Coverage features (src/explore/coverage.ts) on hand-written records: which write each read saw
// (latest or stale), how many pod worker updates a sync coalesced, the PLEG cache entry a worker
// read, the status version a patch wrote out, pod states and their edges, and where the world's
// steps landed. And the summary's coverage: the union over runs, its curve, and when it stopped.
import { describe, expect, it } from "vitest";
import { CoverageSink, coverageOf, plateauRuns, type RunSummary } from "../../src/explore/index.ts";
import type { TraceRecord } from "../../src/sim/index.ts";

let seq = 0;
const rec = (component: string, kind: string, fields: Record<string, unknown> = {}): TraceRecord => ({ t: 0, seq: seq++, component, kind, ...fields }) as TraceRecord;
const features = (records: TraceRecord[]) => {
  const sink = new CoverageSink();
  for (const r of records) sink.write(r);
  return [...sink.features];
};
const W = "default/web";

describe("reads-from on API objects", () => {
  it("names the write a GET or a watch event saw, and whether it was the latest", () => {
    const f = features([
      rec("apiserver", "Create", { actor: "user", pod: W, resourceVersion: "2", result: "ok" }),
      rec("apiserver", "PatchStatus", { actor: "kubelet", pod: W, phase: "Running", resourceVersion: "3", result: "ok" }),
      rec("apiserver", "Get", { actor: "kubelet", pod: W, resourceVersion: "3", result: "ok" }),
      rec("apiserver", "Delete", { actor: "user", pod: W, deleted: false, resourceVersion: "4", result: "ok" }),
      rec("apiserver", "WatchEvent", { type: "MODIFIED", pod: W, resourceVersion: "3" }),
      rec("apiserver", "PatchStatus", { actor: "kubelet", pod: W, phase: "Running", result: "Conflict" }),
    ]);
    expect(f).toEqual(expect.arrayContaining([
      "api user.Create after none",
      "api kubelet.PatchStatus(Running) after user.Create",
      "api kubelet.Get saw kubelet.PatchStatus(Running) latest",
      "api user.Delete(graceful) after kubelet.PatchStatus(Running)",
      "api watch.MODIFIED saw kubelet.PatchStatus(Running) stale",
      "api kubelet.PatchStatus(Running)=Conflict after user.Delete(graceful)",
    ]));
  });
});

describe("records coverage does not read", () => {
  it("are ignored, so a run with every record built reaches what a lazy run reaches", () => {
    expect(features([
      rec("apiserver", "List", { actor: "kubelet", resourceVersion: "2", result: "ok" }),
      rec("apiserver", "Watch", { actor: "kubelet", result: "ok" }),
      rec("runtime", "ListContainers", { result: "ok" }),
    ])).toEqual([]);
  });
});

describe("pod worker slots, the PLEG cache and the status cache", () => {
  it("say which update a sync saw and how many it coalesced", () => {
    const f = features([
      rec("podworker", "UpdatePod", { pod: W, uid: "u", updateType: "create", workType: "sync" }),
      rec("podworker", "UpdatePod", { pod: W, uid: "u", updateType: "update", workType: "terminating" }),
      rec("podworker", "SyncBegin", { pod: W, uid: "u", mode: "terminating" }),
    ]);
    expect(f).toContain("slot SyncBegin(terminating) saw UpdatePod(update/terminating) coalescing 2-3");
  });

  it("say which relist's entry GetNewerThan returned, with the events that relist found", () => {
    const f = features([
      rec("cache", "Set", { pod: W, uid: "u", timeMs: 100 }),
      rec("pleg", "ContainerDied", { pod: W, uid: "u" }),
      rec("cache", "Set", { pod: W, uid: "u", timeMs: 200 }),
      rec("cache", "GetNewerThan", { uid: "u", statusTimeMs: 100, waitedMs: 0 }),
      rec("cache", "GetNewerThan", { uid: "u", statusTimeMs: null, waitedMs: 5 }),
    ]);
    expect(f).toEqual(expect.arrayContaining(["pleg GetNewerThan saw Set(ContainerDied) older at once", "pleg GetNewerThan missed after waiting"]));
  });

  it("say which cached version a status patch wrote out", () => {
    const f = features([
      rec("status", "SetPodStatus", { pod: W, uid: "u", version: 1, phase: "Pending" }),
      rec("status", "SetPodStatus", { pod: W, uid: "u", version: 2, phase: "Running" }),
      rec("status", "PatchStatus", { pod: W, uid: "u", version: 1, phase: "Pending", result: "patched" }),
    ]);
    expect(f).toEqual(expect.arrayContaining(["status SetPodStatus(Running) after SetPodStatus(Pending)", "status PatchStatus=patched saw SetPodStatus(Pending) older"]));
  });
});

describe("pod states", () => {
  it("are reached and left, and the world's steps and lifecycle calls are seen in them", () => {
    const f = features([
      rec("scenario", "Step", { step: "create", pod: W }),
      rec("apiserver", "Create", { actor: "user", pod: W, resourceVersion: "2", result: "ok" }),
      rec("runtime", "PullImage", { pod: W, result: "ok" }),
      rec("runtime", "ContainerStarted", { pod: W, container: "app" }),
      rec("scenario", "Step", { step: "delete", pod: W }),
    ]);
    expect(f).toEqual(expect.arrayContaining([
      "world create while none",
      "state default/web live|none|none|",
      "call PullImage=ok while live|none|none|",
      "edge default/web live|none|none| -> live|none|none|app=running",
      "world delete while live|none|none|app=running",
    ]));
  });
});

describe("an exploration's coverage", () => {
  const run = (index: number, newFeatures?: string[]): RunSummary => ({
    index, seed: index, identity: "x/until", traceHash: null, verdict: "until", events: 1, choices: 0, deviations: 0, failure: null, ...(newFeatures === undefined ? {} : { newFeatures }),
  });

  it("is the union of what each run reached first, with a curve of where it grew", () => {
    const c = coverageOf([run(0, ["api a", "state s"]), run(1), run(2, ["api a", "api b"])], true)!;
    expect(c.features).toBe(3);
    expect(c.byFamily).toEqual({ api: 2, state: 1 });
    expect(c.curve).toEqual([[1, 2], [3, 3]]);
    expect(c.lastNewRun).toBe(3);
    expect(c.plateau).toBeNull();
  });

  it("says it stopped growing when no run added a feature for plateauRuns(runs) runs", () => {
    expect(plateauRuns(100)).toBe(100);
    expect(plateauRuns(1_000)).toBe(500);
    expect(plateauRuns(50_000)).toBe(1_000);
    const runs = [run(0, ["api a"]), ...Array.from({ length: 999 }, (_, i) => run(i + 1))];
    expect(coverageOf(runs, true)!.plateau).toBe(999);
    expect(coverageOf(runs.slice(0, 400), true)!.plateau).toBe(399); // the threshold is 200 for 400 runs
    expect(coverageOf(runs.slice(0, 100), true)!.plateau).toBeNull(); // 99 quiet runs, threshold 100
  });

  it("is null when not measured", () => {
    expect(coverageOf([run(0)], false)).toBeNull();
  });
});
