// A planted bug (canary.ts) must be found by pct within N runs, shrunk to fewer deviations from
// fifo, and written as a repro file that replays to the same violation and the same trace.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exploreSync, loadRepro, replayRepro, deviationCount } from "../../src/explore/index.ts";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { canaryInvariant, CANARY_ID, TWO_PODS } from "./canary.ts";

const out = mkdtempSync(join(tmpdir(), "kubelet-sim-canary-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("a planted interleaving bug", () => {
  it("holds under fifo: only another interleaving breaks it", () => {
    const r = exploreSync({ source: { file: TWO_PODS }, runs: 0, strategy: "pct", invariants: [], extraInvariants: [canaryInvariant], outDir: null });
    const fifo = simulate(loadScenarioFile(TWO_PODS).scenario, { strategy: { name: "fifo" } });
    expect(fifo.ok).toBe(true);
    expect(r.runs).toHaveLength(0);
  });

  const report = exploreSync({
    source: { file: TWO_PODS }, runs: 200, strategy: "pct", seed: 1, invariants: [], extraInvariants: [canaryInvariant], outDir: out,
  });

  it("is found by pct within 200 runs", () => {
    expect(report.first).not.toBeNull();
    expect(report.first!.failure).toMatchObject({ kind: "invariant", id: CANARY_ID });
    expect(report.stoppedBy).toBe("failure");
    expect(report.runs.length).toBe(report.first!.index + 1);
  });

  it("is shrunk to fewer deviations from fifo and a smaller scenario", () => {
    const shrunk = deviationCount(report.found!.choices);
    expect(shrunk).toBeGreaterThan(0); // fifo alone never shows it
    expect(shrunk).toBeLessThan(report.first!.deviations);
    expect(report.shrink!.log.length).toBeGreaterThan(1);
    expect(report.found!.scenario.untilMs).toBeLessThan(loadScenarioFile(TWO_PODS).scenario.untilMs);
  });

  it("is written as a repro that replays to the same violation and the identical trace", () => {
    const repro = loadRepro(report.repro!.path);
    expect(repro.record.repro.failure.id).toBe(CANARY_ID);
    expect(repro.record.repro.found.run).toBe(report.first!.index);
    const again = replayRepro(repro, [canaryInvariant]);
    expect(again.result.run.verdict).not.toBe("diverged");
    expect(again.failure).toMatchObject({ kind: "invariant", id: CANARY_ID });
    expect(again.result.run.traceHash).toBe(repro.record.traceHash);
    expect(again.reproduced).toBe(true);
    // The YAML beside the record is the scenario that ran.
    expect(readFileSync(report.repro!.scenarioPath, "utf8")).toBe(repro.scenarioText);
  });
});

describe("the same planted bug under pos (partial order sampling)", () => {
  const pos = exploreSync({
    source: { file: TWO_PODS }, runs: 300, strategy: "pos", seed: 1, invariants: [], extraInvariants: [canaryInvariant], outDir: out,
  });

  it("is found, shrunk and written as a repro that replays exactly, as under pct", () => {
    expect(pos.strategy).toBe("pos");
    expect(pos.first?.failure).toMatchObject({ kind: "invariant", id: CANARY_ID });
    expect(deviationCount(pos.found!.choices)).toBeLessThanOrEqual(pos.first!.deviations);
    const again = replayRepro(loadRepro(pos.repro!.path), [canaryInvariant]);
    expect(again.reproduced).toBe(true);
    expect(again.result.run.traceHash).toBe(loadRepro(pos.repro!.path).record.traceHash);
  });
});
