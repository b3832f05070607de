// The further upstream cases transcribed under test/fixtures/oracle2-transcribed (each file pinned to
// its upstream commit): every one is read whole and passes. Then the harness features they rely on
// are shown to fail when the expectation is wrong, and the one case kubelet-sim names as not
// modelled (TestCacheWithEventedPLEG "PodStatus has no timestamp") is partial with its reason.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { loadVectorFile, runVector, runVectorFile, summarize } from "../../src/conformance/index.ts";

const DIR = join(import.meta.dirname, "..", "fixtures", "oracle2-transcribed");
const FILES = ["pleg_events.yaml", "status_transitions.yaml", "pod_workers.yaml"];

for (const name of FILES) {
  const res = runVectorFile(loadVectorFile(join(DIR, name)));
  describe(`oracle2-transcribed/${name} (${res.kind})`, () => {
    it.each(res.results.map((r) => [`#${r.index} ${r.name || "(unnamed)"}`, r] as const))("%s", (_label, r) => {
      expect({ diffs: r.diffs, unread: r.unread, notModelled: r.notModelled, error: r.error }).toEqual({ diffs: [], unread: [], notModelled: [], error: undefined });
      expect(r.verdict).toBe("ok");
    });
  });
}

/** One vector of a transcribed file, edited, run alone. */
function edited(file: string, id: string, edit: (v: Record<string, unknown>) => void) {
  const doc = parseYaml(readFileSync(join(DIR, file), "utf8")) as { vectors: Record<string, unknown>[] };
  const index = doc.vectors.findIndex((v) => v["id"] === id);
  const v = structuredClone(doc.vectors[index]!);
  edit(v);
  return runVector(loadVectorFile(join(DIR, file)), v, index);
}

const steps = (v: Record<string, unknown>) => v["steps"] as Record<string, unknown>[];

describe("the harness features fail on a wrong expectation", () => {
  it("PLEG: a status returned with its error is cached with it", () => {
    const r = edited("pleg_events.yaml", "TestRelistWithCache", (v) => {
      ((steps(v)[0]!["expectCache"] as Record<string, Record<string, unknown>>)["test-pod-1"]!)["error"] = null;
    });
    expect(r.diffs).toEqual(['steps[0] (relist) cache[test-pod-1].error: expected (absent), got "unable to get status"']);
  });

  it("PLEG: the strict mock's calls, an event count, a subset, a metric", () => {
    const calls = edited("pleg_events.yaml", "TestRelistWithReinspection", (v) => (steps(v)[2]!["expectGetPodStatusCalls"] = []));
    expect(calls.diffs).toEqual(['steps[2] (relist) GetPodStatus calls: expected [], got ["test-pod"]']);
    const count = edited("pleg_events.yaml", "TestEventChannelFull", (v) => (steps(v)[1]!["expectEventCount"] = 5));
    expect(count.diffs).toEqual(["steps[1] (relist) events: expected 5, got 4"]);
    const subset = edited("pleg_events.yaml", "TestEventChannelFull", (v) => (steps(v)[1]!["expectEventsSubsetOf"] as unknown[]).splice(0, 1));
    expect(subset.verdict).toBe("failed");
    const metric = edited("pleg_events.yaml", "TestRunningPodAndContainerCount/test pod count", (v) => (v["expectMetric"] = { name: "kubelet_running_pods", value: 3 }));
    expect(metric.diffs).toEqual(["metrics.kubelet_running_pods{}: expected 3, got 2"]);
  });

  it("PLEG: an unexpected GetPodStatus fails, as the strict mock does", () => {
    const r = edited("pleg_events.yaml", "TestRelistWithCache", (v) => {
      delete (steps(v)[0]!["getPodStatus"] as Record<string, unknown>)["test-pod-0"];
    });
    expect(r.diffs[0]).toBe("steps[0] (relist) unexpected GetPodStatus(test-pod-0): the strict mock fails the test");
  });

  it("PLEG: PodStatus has no timestamp is partial, naming why", () => {
    const r = edited("pleg_events.yaml", "TestCacheWithEventedPLEG/PodStatus has an older timestamp", (v) => {
      v["name"] = "PodStatus has no timestamp";
      const s = steps(v)[1]!;
      delete ((s["getPodStatus"] as Record<string, { status: Record<string, unknown> }>)["test-pod1"]!.status)["timeStamp"];
      s["expect"] = { updated: true, error: null, cachedRestartCount: 5 };
    });
    expect(r.verdict).toBe("partial");
    expect(r.notModelled).toEqual([{ fields: ["steps[1].expect"], why: expect.stringMatching(/unmerged PRs #124953\/#126415.*no release does/) }]);
  });

  it("status manager: start times against the harness clock, T1 unchanged, readiness and startup", () => {
    const start = edited("status_transitions.yaml", "TestNewStatusPreservesPodStartTime", (v) => ((v["expect"] as Record<string, unknown>)["startTime"] = "now-2m"));
    expect(start.diffs).toEqual(['startTime: expected 2024-12-31T23:58:00Z (now-2m), got "2024-12-31T23:59:00Z"']);
    const startup = edited("status_transitions.yaml", "TestSetContainerStartup", (v) => (steps(v)[2]!["expectUpdates"] = 0));
    expect(startup.diffs).toEqual(["steps[2] (SetContainerStartup) updates: expected 0, got 1"]);
    const ready = edited("status_transitions.yaml", "TestSetContainerReadiness", (v) => (((steps(v)[3]!["expect"] as Record<string, unknown>)["containers"] as Record<string, Record<string, unknown>>)["c1"]!["ready"] = false));
    expect(ready.diffs).toEqual(["steps[3] (SetContainerReadiness) containers[c1].ready: expected false, got true"]);
  });

  it("status manager: TerminatePod's whole status, and a last termination", () => {
    const exact = edited("status_transitions.yaml", "TestTerminatePod_DefaultUnknownStatus/#00", (v) => (((v["expect"] as Record<string, Record<string, unknown>>)["exactStatus"]!)["startTime"] = "unix:2"));
    expect(exact.diffs).toEqual(['status.startTime: expected "1970-01-01T00:00:02Z", got "1970-01-01T00:00:01Z"']);
  });

  it("pod workers: a paused worker released after the update, a running pod, a terminal syncer", () => {
    const paused = edited("pod_workers.yaml", "TestUpdatePod/a new pod is recorded and started unless it is a duplicate of an existing terminating pod UID", (v) => {
      ((v["expect"] as Record<string, Record<string, unknown>>)["podSyncStatus"]!)["restartRequested"] = false;
    });
    expect(paused.diffs).toEqual(["podSyncStatus.restartRequested: expected (absent), got true"]);
    const runtime = edited("pod_workers.yaml", "TestUpdatePodForRuntimePod", (v) => ((steps(v)[1]!["expect"] as Record<string, unknown>)["processedPods"] = 0));
    expect(runtime.diffs).toEqual(["steps[1] (UpdatePodForRuntimePod) processedPods: expected 0, got 1"]);
    const terminal = edited("pod_workers.yaml", "TestTerminalPhaseTransition", (v) => steps(v).splice(2, 1));
    expect(terminal.verdict).toBe("failed");
  });

  it("every transcribed file passes as a whole", () => {
    const s = summarize(FILES.map((f) => runVectorFile(loadVectorFile(join(DIR, f)))));
    expect({ failed: s.failed, partial: s.partial, error: s.error }).toEqual({ failed: 0, partial: 0, error: 0 });
    expect(s.passed).toBeGreaterThan(40);
  });
});
