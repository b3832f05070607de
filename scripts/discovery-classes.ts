// How often a race's invariant breaks, per run, under each value class of the covering design's
// factors (guided_cover.ts): the evidence for which draws reach a race (docs/exploring.md,
// "Windows and faults as meeting points (2026-11-29)").
//   node --import tsx scripts/discovery-classes.ts [--races R13,R18] [--runs 200] [--show 8]
// For each race's discovery form (its hunt form, the generic swarm instead of its ranges, its own
// invariant watched): --runs runs with the ordinary draws of the run seeds of exploration seed 1
// (pos's knobs), with the factors' knobs printed for the first --show that fail; then, for each
// factor, the same runs with that knob alone taking a boundary (one of its own, uniformly) or its
// near draw, every other knob ordinary.
import { parseArgs } from "node:util";
import { makePlan, RunContext, runGenome } from "../src/explore/index.ts";
import { RACES, raceRawScenario } from "../src/races/catalog.ts";
import { drawKnobs, type KnobDef, type Knobs, type KnobSpace, type KnobValue } from "../src/explore/knobs.ts";
import { runSeed } from "../src/explore/seeds.ts";
import { Rng, streamSeed } from "../src/sim/rng.ts";

const { values } = parseArgs({ options: { races: { type: "string", default: "R13" }, runs: { type: "string", default: "200" }, show: { type: "string", default: "8" } } });
const runs = Number(values.runs);

type Override = (def: KnobDef, rng: Rng, knobs: Knobs) => KnobValue;
const CLASSES: Readonly<Record<"boundary" | "near", Override>> = {
  boundary: (def, rng) => def.boundaries![rng.below(def.boundaries!.length)]!,
  near: (def, rng, knobs) => def.near!(rng, knobs),
};

for (const id of values.races.split(",").map((s) => s.trim().toUpperCase())) {
  const race = RACES.find((r) => r.id === id);
  if (race === undefined) throw new Error(`discovery-classes: no race ${id}`);
  const { swarm: _swarm, ...raw } = raceRawScenario(race, "buggy", "hunt");
  const plan = makePlan({ source: { raw: { ...raw, expect: [] }, label: race.hunt.file }, strategy: "guided", swarm: "auto", seed: 1, invariants: [race.invariant] });
  const ctx = new RunContext(plan);
  const space: KnobSpace = ctx.space!;
  const fails = (i: number, knobs: Knobs) => {
    const { summary } = runGenome(ctx, i, { seed: runSeed(1, i), knobs, tape: null, how: "fresh", parent: null }, false);
    return summary.failure?.kind === "invariant" && summary.failure.id === race.invariant;
  };
  const factors = space.defs.filter((d) => d.near !== undefined);
  const shown: string[] = [];
  let failed = 0;
  for (let i = 0; i < runs; i++) {
    const knobs = drawKnobs(space, runSeed(1, i));
    if (!fails(i, knobs)) continue;
    failed++;
    if (shown.length < Number(values.show)) shown.push(space.defs.filter((d) => knobs[d.id] !== null && d.target.kind !== "latency").map((d) => `${d.id}=${JSON.stringify(knobs[d.id])}`).join(" "));
  }
  process.stdout.write(`${id} ordinary ${failed}/${runs}\n${shown.map((s) => `    ${s}\n`).join("")}`);
  for (const def of factors) {
    for (const [name, draw] of Object.entries(CLASSES)) {
      let n = 0;
      for (let i = 0; i < runs; i++) {
        const knobs: Record<string, KnobValue> = { ...drawKnobs(space, runSeed(1, i)) };
        knobs[def.id] = draw(def, new Rng("discovery-classes", streamSeed(runSeed(1, i), "discovery-classes")), knobs);
        if (fails(i, knobs)) n++;
      }
      process.stdout.write(`${id} ${def.id} ${name} ${n}/${runs} (boundaries ${JSON.stringify(def.boundaries)})\n`);
    }
  }
}
