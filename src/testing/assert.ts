// Property tests over the kubelet: "for all these scenarios and these schedules, invariant X
// holds". fast-check draws scenarios (objects, see arbitraries/) and run seeds; each scenario is
// run under fifo first (which also calibrates pct's k), then under pct with seeds derived from the
// drawn one. A failure is shrunk by fast-check (fewer pods, steps, faults; smaller seeds) and
// reported with the scenario, the run's seed and strategy, and a command that replays it.
import fc from "fast-check";
import { stringify } from "yaml";
import { simulate } from "../simulate.ts";
import { formatStrategy, isFailureVerdict, type StrategySpec } from "../sim/index.ts";
import { resolveInvariantIds } from "../check/invariants/index.ts";
import type { InvariantInfo, Violation } from "../check/invariants.ts";
import { countKind } from "../explore/plan.ts";
import { ExtraMonitors } from "../explore/context.ts";
import { runSeed } from "../explore/seeds.ts";
import { scenarioFromObject } from "./scenario.ts";

export interface InvariantHoldsOptions {
  /** Scenario objects (see scenarioArb). */
  scenarios: fc.Arbitrary<Record<string, unknown>>;
  /** Schedules per scenario: the first is fifo, the others pct (default 3). */
  schedules?: number;
  /** Invariant ids, or "all". */
  invariant: string | readonly string[];
  /** Scenarios fast-check draws (default 25). */
  numRuns?: number;
  /** fast-check's seed, to reproduce a report (default: fast-check's own). */
  seed?: number;
  /** fast-check's replay path, printed with a failure. */
  path?: string;
  /** pct's depth (default 3). */
  depth?: number;
  /** Monitors outside the registry (a test's own). */
  extraInvariants?: readonly InvariantInfo[];
}

export interface InvariantCounterexample {
  /** The shrunk scenario, as an object and as a file would say it (with `never:` for the invariant). */
  scenario: Record<string, unknown>;
  yaml: string;
  seed: number;
  strategy: string;
  schedule: number;
  violation: { invariant: string; t: number; pod: string; message: string };
  replayKey: string;
  fastCheck: { seed: number; path: string | undefined; numShrinks: number };
}

export interface InvariantHoldsResult {
  ok: boolean;
  runs: number;
  counterexample: InvariantCounterexample | null;
}

interface Finding {
  seed: number;
  strategy: StrategySpec;
  schedule: number;
  violation: Violation;
}

/** Runs the property; never throws for a violation (see assertInvariantHolds). */
export function checkInvariantHolds(opts: InvariantHoldsOptions): InvariantHoldsResult {
  const ids = resolveInvariantIds(typeof opts.invariant === "string" ? [opts.invariant] : opts.invariant);
  const schedules = opts.schedules ?? 3;
  if (!(Number.isInteger(schedules) && schedules >= 1)) throw new RangeError(`schedules must be a whole number >= 1, found ${schedules}`);
  const find = (raw: Record<string, unknown>, seed: number) => firstViolation(raw, seed, ids, schedules, opts);
  const details = fc.check(fc.property(opts.scenarios, fc.nat({ max: 2 ** 32 - 1 }), (raw, seed) => find(raw, seed) === null), {
    numRuns: opts.numRuns ?? 25,
    ...(opts.seed === undefined ? {} : { seed: opts.seed }),
    ...(opts.path === undefined ? {} : { path: opts.path }),
  });
  if (!details.failed) return { ok: true, runs: details.numRuns, counterexample: null };
  if (details.counterexample === null) throw details.errorInstance ?? new Error("the property failed without a counterexample");
  const [raw, seed] = details.counterexample;
  const f = find(raw, seed);
  if (f === null) throw new Error("the counterexample no longer fails when run again: kubelet-sim is not deterministic (a bug)");
  return { ok: false, runs: details.numRuns, counterexample: counterexampleOf(raw, f, ids, details) };
}

/** Throws (a readable error for vitest or jest) when the invariant is violated in some scenario and schedule. */
export function assertInvariantHolds(opts: InvariantHoldsOptions): void {
  const r = checkInvariantHolds(opts);
  if (r.counterexample !== null) throw new Error(formatCounterexample(r.counterexample));
}

function firstViolation(raw: Record<string, unknown>, seed: number, ids: readonly string[], schedules: number, opts: InvariantHoldsOptions): Finding | null {
  const scenario = scenarioFromObject(withNever(raw, ids));
  let steps = 1;
  for (let j = 0; j < schedules; j++) {
    const strategy: StrategySpec = j === 0 ? { name: "fifo" } : { name: "pct", depth: opts.depth ?? 3, steps };
    const runSeedJ = j === 0 ? seed : runSeed(seed, j);
    const extra = new ExtraMonitors((opts.extraInvariants ?? []).map((i) => i.make(scenario)));
    const r = simulate(scenario, { seed: runSeedJ, strategy, sinks: [extra], keepRecords: false, scenarioFile: "repro.yaml" });
    if (j === 0) steps = Math.max(1, countKind(r.run.choices, "proc"));
    const v = r.checks.violations.find((x) => ids.includes(x.invariant)) ?? extra.violations[0];
    if (v !== undefined) return { seed: runSeedJ, strategy, schedule: j, violation: v };
    if (isFailureVerdict(r.run.verdict)) {
      return { seed: runSeedJ, strategy, schedule: j, violation: { invariant: `verdict:${r.run.verdict}`, t: r.run.endMs, pod: "", message: r.run.diagnosis ?? r.run.verdict } };
    }
  }
  return null;
}

/** The scenario with `never: <id>` for each invariant, so a run of the file reports it. */
function withNever(raw: Record<string, unknown>, ids: readonly string[]): Record<string, unknown> {
  const expect = Array.isArray(raw["expect"]) ? raw["expect"] : [];
  return { ...raw, expect: [...expect, ...ids.map((id) => ({ never: id }))] };
}

function counterexampleOf(raw: Record<string, unknown>, f: Finding, ids: readonly string[], details: fc.RunDetails<[Record<string, unknown>, number]>): InvariantCounterexample {
  const strategy = formatStrategy(f.strategy);
  const scenario = withNever(raw, ids.filter((id) => id === f.violation.invariant));
  return {
    scenario,
    yaml: stringify(scenario, { lineWidth: 0 }),
    seed: f.seed,
    strategy,
    schedule: f.schedule,
    violation: { invariant: f.violation.invariant, t: f.violation.t, pod: f.violation.pod, message: f.violation.message },
    replayKey: `kubelet-sim run repro.yaml --seed ${f.seed} --strategy ${strategy}`,
    fastCheck: { seed: details.seed, path: details.counterexamplePath ?? undefined, numShrinks: details.numShrinks },
  };
}

export function formatCounterexample(c: InvariantCounterexample): string {
  const v = c.violation;
  return [
    `invariant ${v.invariant} violated at ${v.t}ms${v.pod === "" ? "" : ` (${v.pod})`}: ${v.message}`,
    `  run: seed ${c.seed}, strategy ${c.strategy} (schedule ${c.schedule}: ${c.schedule === 0 ? "fifo" : "pct"})`,
    `  replay: save the scenario below as repro.yaml, then: ${c.replayKey}`,
    `  fast-check: { seed: ${c.fastCheck.seed}, path: "${c.fastCheck.path ?? ""}" } (shrunk ${c.fastCheck.numShrinks} times; pass seed and path to reproduce)`,
    "scenario:",
    ...c.yaml.trimEnd().split("\n").map((l) => `  ${l}`),
  ].join("\n");
}
