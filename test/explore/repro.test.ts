// Repro files from a registered invariant: the record is a run record `kubelet-sim replay` reads
// (same format string, scenario beside it, pinned by sha256), and it replays exactly.
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { exploreSync, loadRepro, replayRepro, RUN_RECORD_FORMAT } from "../../src/explore/index.ts";
import { ChoiceLog } from "../../src/sim/index.ts";
import { RUN_RECORD_FORMAT as CLI_RUN_RECORD_FORMAT } from "../../src/cli/run_record.ts";
import { main } from "../../src/cli/main.ts";

const out = mkdtempSync(join(tmpdir(), "kubelet-sim-repro-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

// The R02 race under the 1.21 kubelet: the invariant it names fails in the very first run.
const R02 = "scenarios/races/r02-pw-not-started-treated-as-terminated.yaml";

describe("repro files", () => {
  const report = exploreSync({ source: { file: R02 }, runs: 5, strategy: "pct", seed: 3, outDir: out, shrink: { maxRuns: 120 } });
  const path = report.repro!.path;

  it("are run records, with the failure, its origin and the shrinking said", () => {
    const { record, tape } = loadRepro(path);
    expect(record.format).toBe(RUN_RECORD_FORMAT);
    expect(record.ok).toBe(false);
    expect(record.replayKey).toBe(`kubelet-sim replay ${path}`);
    expect(record.repro.failure.kind).toBe("invariant");
    expect(record.repro.found.file).toBe(R02);
    expect(record.repro.shrink!.runs).toBeLessThanOrEqual(120);
    expect(tape.encode()).toBe(record.choices);
    expect(ChoiceLog.decode(record.choices).length).toBe(tape.length);
  });

  it("replay to the identical trace and the same failure", () => {
    const again = replayRepro(loadRepro(path));
    expect(again.reproduced).toBe(true);
  });

  it("are what `kubelet-sim replay` reads: it reproduces the identical trace and exits 1 (the failure)", async () => {
    expect(RUN_RECORD_FORMAT).toBe(CLI_RUN_RECORD_FORMAT);
    const written: string[] = [];
    const out = vi.spyOn(process.stdout, "write").mockImplementation((t) => (written.push(String(t)), true));
    const err = vi.spyOn(process.stderr, "write").mockImplementation((t) => (written.push(String(t)), true));
    try {
      expect(await main(["replay", path, "--format", "events"])).toBe(1);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    expect(written.join("")).toContain(`reproduced: the identical trace, ${loadRepro(path).record.traceHash}`);
  });

  it("of another format version are named so in one line, by the check replay and diff make", () => {
    const other = join(out, "other-version.json");
    writeFileSync(other, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), format: "kubelet-sim/run-record/v9" }));
    expect(() => loadRepro(other)).toThrow(/^.*other-version\.json: format "kubelet-sim\/run-record\/v9": this kubelet-sim \(\S+\) reads "kubelet-sim\/run-record\/v1" records only; record the run again with it$/);
  });

  it("replay from the record alone when the YAML beside it is gone", () => {
    unlinkSync(report.repro!.scenarioPath);
    expect(replayRepro(loadRepro(path)).reproduced).toBe(true);
  });
});
