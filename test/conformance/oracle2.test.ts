// Every public oracle2 vector, one `it` each, from the copies under test/fixtures/oracle2 (and from
// ../shared/oracle2 when it is there): each passes, or is skipped with a stated reason; at most a
// tenth are skipped. Then the runners are shown to fail when an expectation is wrong.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { kindOf, loadVectorFile, minorOfReleaseLine, runVectorFile, summarize, type FileResult } from "../../src/conformance/index.ts";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "oracle2");
const SHARED = join(import.meta.dirname, "..", "..", "..", "shared", "oracle2");
const FILES = ["phase.yaml", "pleg_events.yaml", "status_transitions.yaml", "api_status.yaml", "pod_workers.yaml"];
const KINDS = ["phase", "plegEvents", "statusTransitions", "apiStatus", "podWorkers"];

function checkDir(dir: string, label: string): void {
  const results: FileResult[] = FILES.map((name) => runVectorFile(loadVectorFile(join(dir, name))));
  describe(label, () => {
    results.forEach((res, i) => {
      describe(`${FILES[i]} (${res.kind})`, () => {
        it("is read as its kind and holds vectors", () => {
          expect(res.kind).toBe(KINDS[i]);
          expect(res.results.length).toBeGreaterThan(0);
        });
        it.each(res.results.map((r) => [`#${r.index} ${r.name}`, r] as const))("%s", (_label, r) => {
          expect({ diffs: r.diffs, unread: r.unread, notModelled: r.notModelled, error: r.error }).toEqual({ diffs: [], unread: [], notModelled: [], error: undefined });
          expect(r.verdict).toBe("ok");
        });
      });
    });
    it("passes every vector: none failed, partial or in error", () => {
      const s = summarize(results);
      expect({ failed: s.failed, partial: s.partial, error: s.error }).toEqual({ failed: 0, partial: 0, error: 0 });
    });
  });
}

checkDir(FIXTURES, "test/fixtures/oracle2");
if (existsSync(join(SHARED, "phase.yaml"))) checkDir(SHARED, "../shared/oracle2");

describe("oracle2 files", () => {
  it("name their kubelet minor in the release line", () => {
    expect(minorOfReleaseLine("master between v1.32 and v1.34 ... Call it \"v1.33 development line\".")).toBe(33);
    expect(minorOfReleaseLine("v1.30/v1.31 line")).toBe(31);
    expect(minorOfReleaseLine("no version here")).toBeUndefined();
    for (const name of FILES) expect(loadVectorFile(join(FIXTURES, name)).minor).toBeGreaterThanOrEqual(30);
  });
});

/** Runs one fixture file after editing its parsed YAML; returns the results. */
function mutated(file: string, edit: (doc: { vectors: Record<string, unknown>[] }) => void, minor?: number) {
  const doc = parseYaml(readFileSync(join(FIXTURES, file), "utf8")) as { meta: { describes: string }; vectors: Record<string, unknown>[] };
  edit(doc);
  const loaded = loadVectorFile(join(FIXTURES, file));
  return runVectorFile({ ...loaded, vectors: doc.vectors, newerVectors: [], ...(minor === undefined ? {} : { minor }) }).results;
}

const byName = (doc: { vectors: Record<string, unknown>[] }, name: string) => doc.vectors.find((v) => v["name"] === name)!;
const failing = (rs: ReturnType<typeof mutated>) => rs.filter((r) => r.verdict === "failed");

describe("the oracle2 runners fail on a wrong expectation", () => {
  it("phase", () => {
    const rs = mutated("phase.yaml", (d) => ((byName(d, "waiting")["expect"] as Record<string, unknown>)["phase"] = "Running"));
    expect(failing(rs).map((r) => r.diffs)).toEqual([["phase: expected Running, got Pending"]]);
  });

  it("phase under 1.31, before #126653: a running regular init container no longer keeps the pod Pending", () => {
    const rs = failing(mutated("phase.yaml", () => {}, 31));
    expect(rs.map((r) => r.name)).toEqual(["regular containers is stopped, restartable init container and regular int container are both running"]);
  });

  it("phase, newer line (#128516): its vectors run with podHasInitialized, and a wrong one fails", () => {
    const doc = parseYaml(readFileSync(join(FIXTURES, "phase.yaml"), "utf8")) as { newerVersionVectors: Record<string, unknown>[] };
    const newer = doc.newerVersionVectors;
    const reinit = newer.find((v) => v["name"] === "re-initializing the pod after the sandbox is recreated")!;
    (reinit["expect"] as Record<string, unknown>)["phase"] = "Running";
    const loaded = loadVectorFile(join(FIXTURES, "phase.yaml"));
    const rs = runVectorFile({ ...loaded, vectors: [], newerVectors: newer }).results;
    expect(rs.every((r) => r.newerLine === true && r.verdict !== "error")).toBe(true);
    expect(failing(rs).map((r) => [r.name, r.diffs])).toEqual([["re-initializing the pod after the sandbox is recreated", ["phase: expected Running, got Pending"]]]);
  });

  it("PLEG events and health", () => {
    const rs = mutated("pleg_events.yaml", (d) => {
      const steps = byName(d, "TestHealthy")["steps"] as Record<string, unknown>[];
      steps.at(-1)!["expect"] = true;
      const relisting = byName(d, "TestRelisting")["steps"] as Record<string, unknown>[];
      (relisting[2]!["expectEvents"] as Record<string, unknown>[]).pop();
    });
    const names = failing(rs).map((r) => r.name).sort();
    expect(names).toEqual(["TestHealthy", "TestRelisting"]);
  });

  it("status manager: a merge, a TerminatePod default and a state transition", () => {
    const rs = mutated("status_transitions.yaml", (d) => {
      ((byName(d, "no change")["expect"] as { status: Record<string, unknown> }).status)["phase"] = "Pending";
      const terminate = byName(d, "no previous state")["expect"] as { containers: Record<string, { state: string }> };
      terminate.containers["0"]!.state = "waiting";
      (byName(d, "Never: regular init terminated(0) -> running")["expect"] as Record<string, unknown>)["illegal"] = false;
    });
    expect(failing(rs).map((r) => r.name).sort()).toEqual(["Never: regular init terminated(0) -> running", "no change", "no previous state"]);
  });

  it("API status: the whole status is compared, and the pod IPs", () => {
    const rs = mutated("api_status.yaml", (d) => {
      const gen = byName(d, "running can revert to pending")["expect"] as { status: Record<string, unknown> };
      gen.status["qosClass"] = "Burstable";
      (byName(d, "Dual-stack with IPv6 node IP")["expect"] as Record<string, unknown>)["podIPs"] = ["10.0.0.1", "fd01::1234"];
    });
    expect(failing(rs).map((r) => r.name).sort()).toEqual(["Dual-stack with IPv6 node IP", "running can revert to pending"]);
  });

  it("pod workers: the status after UpdatePod and the workers, and a sequence", () => {
    const rs = mutated("pod_workers.yaml", (d) => {
      ((byName(d, "a new pod is recorded and started")["expect"] as { podSyncStatus: Record<string, unknown> }).podSyncStatus)["startedAt"] = 2;
      const steps = byName(d, "TestSyncKnownPods")["steps"] as Record<string, unknown>[];
      (steps.at(-1)!["expect"] as Record<string, unknown>)["trackedPodSyncStatuses"] = 1;
    });
    const bad = failing(rs);
    expect(bad.map((r) => r.name).sort()).toEqual(["TestSyncKnownPods", "a new pod is recorded and started"]);
    expect(bad.find((r) => r.name === "a new pod is recorded and started")!.diffs).toEqual(["podSyncStatus.startedAt: expected 2, got 3"]);
  });

  it("a vector of an unknown function is an error instead of passing", () => {
    const rs = mutated("status_transitions.yaml", (d) => (d.vectors[0]!["function"] = "somethingElse"));
    expect(rs[0]!.verdict).toBe("error");
    expect(rs[0]!.error).toMatch(/no runner/);
  });

  it("kindOf reads the five describes lines", () => {
    for (const [i, name] of FILES.entries()) {
      const doc = parseYaml(readFileSync(join(FIXTURES, name), "utf8")) as { meta: { describes: string } };
      expect(kindOf(doc.meta.describes)).toBe(KINDS[i]);
    }
  });
});
