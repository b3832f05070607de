// `explore FILE --swarm auto --strategy guided` works on every bundled scenario and manifest
// example: a few runs each under the generic swarm and the guided strategy, coverage measured, and
// no run that panics or ends in a way kubelet-sim itself gets wrong (a panic is a model bug; the
// races' own bugs, found under their buggy kubelets, are failures like any other).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exploreSync, jsonLine, summarize } from "../../src/explore/index.ts";
import { bundledScenarios, ROOT } from "../cli/golden_table.ts";

const manifests = readdirSync(join(ROOT, "examples/manifests")).filter((f) => f.endsWith(".yaml")).map((f) => `examples/manifests/${f}`);

describe("explore --swarm auto --strategy guided", () => {
  it.each([...bundledScenarios(), ...manifests])("runs on %s", (file) => {
    const report = exploreSync({ source: { file: join(ROOT, file) }, runs: 4, strategy: "guided", islands: 2, swarm: "auto", seed: 1, keepGoing: true, shrink: false, outDir: null });
    expect(report.runs).toHaveLength(4);
    expect(report.plan.swarm).toBe("auto");
    const line = jsonLine(summarize(report));
    expect(line.coverage!.features).toBeGreaterThan(0);
    const broken = report.runs.filter((r) => r.verdict === "panic" || r.verdict === "diverged");
    expect(broken.map((r) => `${r.index}: ${r.failure?.message ?? r.verdict}`)).toEqual([]);
  });
});
