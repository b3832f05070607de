import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const ORACLE = join(ROOT, "test", "fixtures", "oracle");
const ORACLE2 = join(ROOT, "test", "fixtures", "oracle2");
const SHARED2 = join(ROOT, "..", "shared", "oracle2");
const ORACLE2_FILES = ["phase.yaml", "pleg_events.yaml", "status_transitions.yaml", "api_status.yaml", "pod_workers.yaml"];

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "kubelet-sim.mjs"), ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("kubelet-sim conformance", () => {
  it("passes every public vector and says so on the last line", () => {
    const files = ["compute_pod_actions.yaml", "backoff.yaml", "prober_worker.yaml"].map((f) => join(ORACLE, f));
    const r = cli("conformance", ...files);
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed, 0 partial, 0 error$/);
  });

  it("runs the five oracle2 kinds: every vector ok, none partial", () => {
    const r = cli("conformance", ...ORACLE2_FILES.map((f) => join(ORACLE2, f)));
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed, 0 partial, 0 error$/);
    expect(r.out.trim().split("\n")).toHaveLength(1);
  });

  it("runs TestCacheWithEventedPLEG's newer-timestamp vector (once skipped: no PodStatus.TimeStamp)", () => {
    const r = cli("conformance", "-v", join(ORACLE2, "pleg_events.yaml"));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ok {6}.*pleg_events\.yaml #\d+ PodStatus has a newer timestamp$/m);
    expect(r.out).not.toMatch(/^(partial|error) /m);
  });

  it.runIf(existsSync(join(SHARED2, "phase.yaml")))("passes ../shared/oracle2 too (CI has shared/ beside the clone)", () => {
    const r = cli("conformance", SHARED2);
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed, 0 partial, 0 error$/);
  });

  it("takes a folder as its .yaml files, sorted; an empty folder is an error", () => {
    const byFiles = cli("conformance", ...[...ORACLE2_FILES].sort().map((f) => join(ORACLE2, f)));
    const byFolder = cli("conformance", ORACLE2);
    expect(byFolder.code).toBe(0);
    expect(byFolder.out).toBe(byFiles.out);
    const empty = mkdtempSync(join(tmpdir(), "ksim-conf-"));
    const r = cli("conformance", empty, join(ORACLE2, "phase.yaml"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/a folder with no \.yaml vector files in it/);
    expect(r.err).not.toMatch(/\n\s+at /);
    // The other file still runs, and the folder is counted as an error.
    expect(r.out.trim().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed, 0 partial, 1 error$/);
  });

  it("-v lists the passing vectors too", () => {
    const r = cli("conformance", "-v", join(ORACLE2, "phase.yaml"));
    expect(r.out).toMatch(/^ok {6}.*phase\.yaml #0 waiting$/m);
    // The newer line's vectors run too (#128516 is modelled from 1.33.0), marked as such.
    expect(r.out).toMatch(/^ok {6}.*phase\.yaml #\d+ \(newer line\) re-initializing the pod after the sandbox is recreated$/m);
    expect(r.out).not.toMatch(/^(partial|error) /m);
  });

  it("prints each failing vector with its diff and exits 1", () => {
    const dir = mkdtempSync(join(tmpdir(), "ksim-conf-"));
    const text = readFileSync(join(ORACLE, "backoff.yaml"), "utf8").replace("expect: 50\n", "expect: 51\n");
    const file = join(dir, "backoff.yaml");
    writeFileSync(file, text);
    const r = cli("conformance", file);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {4}.*backoff\.yaml #0 TestSlowBackoff\n {8}steps\[14\] \(t=8 Get _idSlow\): expected 51, got 50\n/);
    expect(r.out.trim().split("\n").at(-1)).toBe("4 passed, 1 failed, 0 partial, 0 error");
  });

  it("exits 2 without a stack trace for unreadable or invalid files", () => {
    const missing = cli("conformance", join(ORACLE, "nope.yaml"));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^kubelet-sim: .*nope\.yaml: cannot read/);
    expect(missing.err).not.toMatch(/\n\s+at /);
    const dir = mkdtempSync(join(tmpdir(), "ksim-conf-"));
    writeFileSync(join(dir, "bad.yaml"), "meta: {describes: pizza}\nvectors: []\n");
    const bad = cli("conformance", join(dir, "bad.yaml"));
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/names nothing kubelet-sim can check/);
    expect(bad.out).toMatch(/^error {3}.*bad\.yaml: meta\.describes names nothing/m);
  });

  it("reports a vector that cannot run as its error line, and goes on; never exits 3", () => {
    const dir = mkdtempSync(join(tmpdir(), "ksim-conf-"));
    const text = readFileSync(join(ORACLE2, "status_transitions.yaml"), "utf8")
      .replace("startTime: '1970-01-01T00:00:01Z'", "startTime: not-a-time")
      .replace("op: SetPodStatus\n    status:\n      message: X", "op: SetPodStatusLater\n    status:\n      message: X");
    const file = join(dir, "status_transitions.yaml");
    writeFileSync(file, text);
    const r = cli("conformance", file, join(ORACLE2, "phase.yaml"));
    expect(r.code).toBe(1);
    expect(r.err).toBe("");
    expect(r.out).toMatch(/^error {3}.*status_transitions\.yaml #5 no previous state\n {8}startTime "not-a-time": not a time/m);
    expect(r.out).toMatch(/^error {3}.*status_transitions\.yaml #\d+ TestUnchangedStatus\n {8}steps\[0\] \(SetPodStatusLater\): unknown op/m);
    expect(r.out.trim().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed, 0 partial, 2 error$/);
  });

  it("has --help with examples", () => {
    const r = cli("conformance", "--help");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Examples:/);
    expect(r.out).toMatch(/test\/fixtures\/oracle\/\*\.yaml/);
  });
});
