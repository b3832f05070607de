// How often one run breaks a race's invariant under each way of drawing a first run's knobs
// (issue 22, docs/exploring.md "The first run: a spread run"): per race of the discovery table
// (its hunt form, the generic swarm instead of its ranges), --n runs with pos's seeds of plan seed
// --base, each policy's share of runs that fail. The evidence behind guided's spread run.
//   node --import tsx scripts/discovery-first-runs.ts --races R01,R03 --n 100 --policies ord,rowall,spreadall
// ord: the ordinary draw (pos's run); bnd: boundary values (guided's fresh run); row0: the
// covering row with every factor ordinary; rowall: the design's rows in turn (guided's first
// runs); spreadall: every range knob without a near draw at its widest range (the spread run);
// spreadallF: every range knob; setall(F): such knobs never at their configured value; spreadhalf:
// half of them at their widest; row0spread, rowspread: a row, then spreadall's ranges.
import { parseArgs } from "node:util";
import { makePlan, RunContext, runGenome, drawKnobs, runSeed } from "../src/explore/index.ts";
import { drawBoundaryKnobs } from "../src/explore/guided_knobs.ts";
import { coverDesign, drawCoverKnobs } from "../src/explore/guided_cover.ts";
import { Rng, streamSeed } from "../src/sim/rng.ts";
import { RACES, raceRawScenario } from "../src/races/catalog.ts";
const { values } = parseArgs({ options: { races: { type: "string" }, n: { type: "string", default: "100" }, policies: { type: "string" }, base: { type: "string", default: "7" } } });
const n = Number(values.n);
const isLat = (k: string) => ["latency", "pull", "apiserver", "binding", "eventDelay"].includes(k);
const width = (v: any) => (Array.isArray(v) ? v[1] - v[0] : -1);
for (const id of values.races!.split(",")) {
  const race = RACES.find((r) => r.id === id)!;
  const { swarm: _s, ...raw } = raceRawScenario(race, "buggy", "hunt");
  const plan = makePlan({ source: { raw: { ...raw, expect: [] }, label: race.hunt.file }, strategy: "guided", swarm: "auto", seed: 1, invariants: [race.invariant] });
  const ctx = new RunContext(plan);
  const space = ctx.space!;
  const design = coverDesign(space, 1, { t: 2, classes: "merged", passes: 1 });
  const fac = new Set(design.factors);
  const zeroRow = design.factors.map(() => 0);
  const map = (s: number, f: (d: any, i: number, v: any, rng: Rng) => any, base: any) => { const rng = new Rng("p", streamSeed(s, "probe3")); const o: any = { ...base }; space.defs.forEach((d, i) => { o[d.id] = f(d, i, o[d.id], rng); }); return o; };
  const spread = (d: any) => d.boundaries.reduce((a: any, b: any) => (width(b) > width(a) ? b : a));
  const setDraw = (d: any, rng: Rng) => { for (let k = 0; k < 20; k++) { const v = d.draw(rng); if (v !== null) return v; } return null; };
  const pol: Record<string, (seed: number, i: number) => any> = {
    ord: (s) => drawKnobs(space, s),
    bnd: (s) => drawBoundaryKnobs(space, s),
    row0: (s) => drawCoverKnobs(space, s, design, zeroRow),
    rowall: (s, i) => (design.rows.length ? drawCoverKnobs(space, s, design, design.rows[i % design.rows.length]!) : drawBoundaryKnobs(space, s)),
    spreadall: (s) => map(s, (d, i, v) => (isLat(d.target.kind) && !fac.has(i) && d.boundaries ? spread(d) : v), drawKnobs(space, s)),
    spreadallF: (s) => map(s, (d, i, v) => (isLat(d.target.kind) && d.boundaries ? spread(d) : v), drawKnobs(space, s)),
    setall: (s) => map(s, (d, i, v, r) => (isLat(d.target.kind) && !fac.has(i) ? setDraw(d, r) : v), drawKnobs(space, s)),
    setallF: (s) => map(s, (d, i, v, r) => (isLat(d.target.kind) ? setDraw(d, r) : v), drawKnobs(space, s)),
    spreadhalf: (s) => map(s, (d, i, v, r) => (isLat(d.target.kind) && !fac.has(i) && d.boundaries && r.below(2) === 0 ? spread(d) : v), drawKnobs(space, s)),
    row0spread: (s) => map(s, (d, i, v) => (isLat(d.target.kind) && !fac.has(i) && d.boundaries ? spread(d) : v), drawCoverKnobs(space, s, design, zeroRow)),
    rowspread: (s, i) => map(s, (d, j, v) => (isLat(d.target.kind) && !d.near && d.boundaries ? spread(d) : v), design.rows.length ? drawCoverKnobs(space, s, design, design.rows[i % design.rows.length]!) : drawBoundaryKnobs(space, s)),
    bndsetall: (s) => map(s, (d, i, v, r) => (isLat(d.target.kind) && v === null ? setDraw(d, r) : v), drawBoundaryKnobs(space, s)),
  };
  const out: string[] = [];
  for (const p of values.policies!.split(",")) {
    let fails = 0;
    for (let i = 0; i < n; i++) {
      const seed = runSeed(Number(values.base), i);
      const { summary } = runGenome(ctx, i, { seed, knobs: pol[p]!(seed, i), tape: null, how: "fresh", parent: null }, false);
      if (summary.failure?.kind === "invariant" && summary.failure.id === race.invariant) fails++;
    }
    out.push(`${p} ${(fails / n).toFixed(2)}`);
  }
  console.log(id, out.join("  "));
}
