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
    expect(r.out.trim().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed$/);
  });

  it("runs the five oracle2 kinds: no failure, each skip listed with its reason and counted", () => {
    const r = cli("conformance", ...ORACLE2_FILES.map((f) => join(ORACLE2, f)));
    expect(r.code).toBe(0);
    const last = r.out.trim().split("\n").at(-1)!;
    const m = /^(\d+) passed, 0 failed(?:, (\d+) skipped)?$/.exec(last);
    expect(m).not.toBeNull();
    const skipped = Number(m![2] ?? 0);
    const skipLines = r.out.split("\n").filter((l) => l.startsWith("skip  "));
    expect(skipLines).toHaveLength(skipped);
    expect(skipped).toBeLessThanOrEqual((Number(m![1]) + skipped) / 10);
  });

  it("runs TestCacheWithEventedPLEG's newer-timestamp vector (once skipped: no PodStatus.TimeStamp)", () => {
    const r = cli("conformance", "-v", join(ORACLE2, "pleg_events.yaml"));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ok {2}.*pleg_events\.yaml #\d+ PodStatus has a newer timestamp$/m);
    expect(r.out).not.toMatch(/^skip /m);
  });

  it.runIf(existsSync(join(SHARED2, "phase.yaml")))("passes ../shared/oracle2 too (CI has shared/ beside the clone)", () => {
    const r = cli("conformance", SHARED2);
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed(, \d+ skipped)?$/);
  });

  it("takes a folder as its .yaml files, sorted; an empty folder is an error", () => {
    const byFiles = cli("conformance", ...[...ORACLE2_FILES].sort().map((f) => join(ORACLE2, f)));
    const byFolder = cli("conformance", ORACLE2);
    expect(byFolder.code).toBe(0);
    expect(byFolder.out).toBe(byFiles.out);
    const empty = mkdtempSync(join(tmpdir(), "ksim-conf-"));
    const r = cli("conformance", empty);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/a folder with no \.yaml vector files in it/);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it("-v lists the passing vectors too", () => {
    const r = cli("conformance", "-v", join(ORACLE2, "phase.yaml"));
    expect(r.out).toMatch(/^ok {4}.*phase\.yaml #0 waiting$/m);
    // The newer line's vectors run too (#128516 is modelled from 1.33.0), marked as such.
    expect(r.out).toMatch(/^ok {4}.*phase\.yaml #\d+ \(newer line\) re-initializing the pod after the sandbox is recreated$/m);
    expect(r.out).not.toMatch(/^skip /m);
  });

  it("prints each failing vector with its diff and exits 1", () => {
    const dir = mkdtempSync(join(tmpdir(), "ksim-conf-"));
    const text = readFileSync(join(ORACLE, "backoff.yaml"), "utf8").replace("expect: 50\n", "expect: 51\n");
    const file = join(dir, "backoff.yaml");
    writeFileSync(file, text);
    const r = cli("conformance", file);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}.*backoff\.yaml #0 TestSlowBackoff\n {8}steps\[14\] \(t=8 Get _idSlow\): expected 51, got 50\n/);
    expect(r.out.trim().split("\n").at(-1)).toBe("4 passed, 1 failed");
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
  });

  it("has --help with examples", () => {
    const r = cli("conformance", "--help");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Examples:/);
    expect(r.out).toMatch(/test\/fixtures\/oracle\/\*\.yaml/);
  });
});
