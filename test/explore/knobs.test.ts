// A run's knobs are applied to the compiled scenario (what the run runs, with no schema on the way)
// and to the raw one (what a repro file writes back). The two must be the same scenario: for every
// bundled scenario and manifest example, under its declared `swarm` ranges and under the generic
// ones, the raw form compiled by the schema equals the compiled form patched.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyKnobs, applyKnobsRaw, drawKnobs, knobSpaceFor, readRawScenario, redrawKnob, compileRawOrThrow, type KnobSpace } from "../../src/explore/index.ts";
import { Rng } from "../../src/sim/index.ts";
import { drawBoundaryKnobs } from "../../src/explore/guided_knobs.ts";
import { bundledScenarios, ROOT } from "../cli/golden_table.ts";

const manifests = readdirSync(join(ROOT, "examples/manifests")).filter((f) => f.endsWith(".yaml")).map((f) => `examples/manifests/${f}`);
const files = [...bundledScenarios(), ...manifests];

function sameBothWays(file: string, mode: "declared" | "auto", seeds: number): number {
  const { raw, scenario } = readRawScenario(join(ROOT, file));
  const plainRaw = mode === "auto" ? (({ swarm: _s, ...rest }) => rest)(raw) : raw;
  const base = compileRawOrThrow(plainRaw, file);
  const space = knobSpaceFor(mode, plainRaw, mode === "auto" ? base : scenario);
  if (space === null) return 0;
  for (let seed = 0; seed < seeds; seed++) {
    // Every third seed: the guided strategy's boundary-value draw, whose values must be valid too.
    let knobs = seed % 3 === 2 ? drawBoundaryKnobs(space, seed) : drawKnobs(space, seed);
    if (seed % 2 === 1) knobs = redrawKnob(space, knobs, seed % space.defs.length, new Rng("test", String(seed)));
    const patched = applyKnobs(base, space, knobs);
    const compiled = compileRawOrThrow(applyKnobsRaw(plainRaw, space, knobs), file);
    expect(patched, `${file} ${mode} seed ${seed}`).toEqual(compiled);
  }
  return space.defs.length;
}

describe("knobs applied to the compiled scenario and to the raw one", () => {
  it.each(files)("give the same scenario under the generic swarm: %s", (file) => {
    expect(sameBothWays(file, "auto", 12)).toBeGreaterThan(0);
  });

  it.each(bundledScenarios().filter((f) => f.includes("/hunt/")))("give the same scenario under the file's own ranges: %s", (file) => {
    expect(sameBothWays(file, "declared", 12)).toBeGreaterThan(0);
  });
});

describe("the generic swarm's knobs", () => {
  const auto = (file: string): KnobSpace => {
    const { raw } = readRawScenario(join(ROOT, file));
    const { swarm: _s, ...plain } = raw;
    return knobSpaceFor("auto", plain, compileRawOrThrow(plain, file))!;
  };

  it("cover every CRI latency configured above 0, the apiserver, each step instant after 0s and the watch", () => {
    const ids = auto("scenarios/races/hunt/r05-hunt.yaml").defs.map((d) => d.id);
    expect(ids).toContain("latency.PullImage");
    expect(ids).toContain("latency.RunPodSandbox");
    expect(ids).not.toContain("latency.GetContainerEvents"); // configured at 0s
    expect(ids).toContain("apiserver.latency");
    expect(ids).toEqual(expect.arrayContaining(["step@5000", "step@9000", "watch.watchDelay", "watch.watchDrop", "watch.watchGone"]));
    expect(ids).not.toContain("step@0");
  });

  it("draw each knob within its documented range, and leave it as configured about half the time", () => {
    const space = auto("scenarios/races/hunt/r01-hunt.yaml");
    let kept = 0;
    let total = 0;
    for (let seed = 0; seed < 400; seed++) {
      const k = drawKnobs(space, seed);
      const pull = k["latency.PullImage"];
      total++;
      if (pull === null) kept++;
      else {
        const [lo, hi] = pull as [number, number];
        // PullImage is configured at 8s in r01-hunt: factors 1/4 to 32.
        expect(lo).toBeGreaterThanOrEqual(2_000);
        expect(hi).toBeLessThanOrEqual(256_000);
        expect(lo).toBeLessThanOrEqual(hi);
      }
      const shift = k["step@10000"] as number;
      expect(10_000 + shift).toBeGreaterThanOrEqual(1);
      expect(Math.abs(shift)).toBeLessThanOrEqual(Math.floor(90_000 / 4));
    }
    expect(kept / total).toBeGreaterThan(0.4);
    expect(kept / total).toBeLessThan(0.6);
  });

  it("are a function of the run's seed", () => {
    const space = auto("scenarios/basics/09-graceful-delete-prestop.yaml");
    expect(drawKnobs(space, 7)).toEqual(drawKnobs(space, 7));
    expect(drawKnobs(space, 7)).not.toEqual(drawKnobs(space, 8));
  });
});
