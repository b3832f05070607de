// Shrinking a failing run, bounded in runs and wall time: first its schedule (fewer deviations
// from fifo: the shortest recorded prefix that still fails, replayed with fifo after it, then
// delta debugging over the deviations left), then its scenario (pods, containers, steps, faults,
// expectations, an earlier end, shorter latencies), then the schedule once more. A candidate is
// kept only when it fails the same way (failure.ts) at a comparable point (shrink_cause.ts: an
// `eventually` or `at` expectation must fail after the same steps on its pod, seeing the same
// state); every kept candidate carries the exact tape of the run that showed it, so the result
// replays byte for byte. The log's last line says what the repro keeps failing with.
import { ChoiceLog, type Choice } from "../sim/index.ts";
import type { Scenario } from "../scenario/index.ts";
import type { RunContext } from "./context.ts";
import { Budget, NO_CLOCK, type Clock } from "./budget.ts";
import { ddmin } from "./ddmin.ts";
import { sameFailure, type Failure } from "./failure.ts";
import { causeOf, describeKept, sameCause, type Cause } from "./shrink_cause.ts";
import { compileRaw, type RawScenario } from "./raw.ts";
import {
  dropContainerCandidates, dropPodCandidates, endEarlierCandidate, latencyCandidates, listOf, withList, type RawCandidate,
} from "./shrink_scenario.ts";

/** A failing run: its scenario (both forms), seed, full choice tape and failure. */
export interface Found {
  raw: RawScenario;
  scenario: Scenario;
  seed: number;
  choices: Choice[];
  failure: Failure;
}

export interface ShrinkOptions {
  maxRuns?: number;
  maxMs?: number;
  clock?: Clock;
}

export interface ShrinkResult {
  final: Found;
  /** What each kept step did, in order ("schedule: 31 → 2 deviations", "dropped pod db"). */
  log: string[];
  runs: number;
  ms: number;
  /** True when the budget ran out before the search ended. */
  exhausted: boolean;
}

export const DEFAULT_SHRINK_RUNS = 500;
export const DEFAULT_SHRINK_MS = 60_000;

export function deviationCount(choices: readonly Choice[]): number {
  return choices.reduce((n, c) => n + (c.index === 0 ? 0 : 1), 0);
}

function deviationPositions(choices: readonly Choice[]): number[] {
  const out: number[] = [];
  choices.forEach((c, i) => c.index !== 0 && out.push(i));
  return out;
}

export class Shrinker {
  readonly budget: Budget;
  readonly log: string[] = [];
  /** What the failure must keep besides its name (set from the run it starts from). */
  private cause: Cause | null = null;

  constructor(
    private readonly ctx: RunContext,
    private readonly target: Failure,
    opts: ShrinkOptions = {},
  ) {
    this.budget = new Budget(opts.maxRuns ?? DEFAULT_SHRINK_RUNS, opts.maxMs ?? DEFAULT_SHRINK_MS, opts.clock ?? NO_CLOCK);
  }

  run(start: Found): ShrinkResult {
    this.cause = causeOf(start.raw, start.failure);
    let cur = this.shrinkSchedule(start);
    cur = this.shrinkScenario(cur);
    cur = this.shrinkSchedule(cur);
    this.log.push(describeKept(cur.failure, this.cause));
    return { final: cur, log: this.log, runs: this.budget.runs, ms: this.budget.elapsedMs, exhausted: this.budget.exhausted };
  }

  /** The same failure, at a comparable point (see shrink_cause.ts). */
  private keeps(raw: RawScenario, f: Failure | null): f is Failure {
    return sameFailure(f, this.target) && sameCause(this.cause, causeOf(raw, f!));
  }

  /**
   * Replays `tape` (fifo once it is used up) on a scenario. A tape that no longer fits (the
   * scenario or an earlier choice changed what the run asks) is cut where it stopped fitting and
   * replayed once more. Null unless the run fails the same way.
   */
  tryTape(raw: RawScenario, scenario: Scenario, seed: number, tape: readonly Choice[]): Found | null {
    if (!this.budget.spend()) return null;
    let r = this.replay(scenario, seed, tape);
    if (r.result.run.verdict === "diverged") {
      if (!this.budget.spend()) return null;
      r = this.replay(scenario, seed, r.result.run.choices.toArray());
      if (r.result.run.verdict === "diverged") return null;
    }
    if (!this.keeps(raw, r.failure)) return null;
    return { raw, scenario, seed, choices: r.result.run.choices.toArray(), failure: r.failure };
  }

  private replay(scenario: Scenario, seed: number, tape: readonly Choice[]) {
    return this.ctx.run(scenario, seed, { strategy: { name: "replay", tape: ChoiceLog.from(tape), whenExhausted: "fifo" } });
  }

  /** The run's own strategy and seed on a changed scenario (when the old tape no longer leads to the bug). */
  private tryFresh(raw: RawScenario, scenario: Scenario, seed: number): Found | null {
    if (!this.budget.spend()) return null;
    const r = this.ctx.run(scenario, seed);
    if (!this.keeps(raw, r.failure)) return null;
    return { raw, scenario, seed, choices: r.result.run.choices.toArray(), failure: r.failure };
  }

  // ---- the schedule ------------------------------------------------------------------------

  shrinkSchedule(start: Found): Found {
    const before = deviationCount(start.choices);
    let cur = this.shortestPrefix(start);
    const stop = () => this.budget.exhausted;
    ddmin(deviationPositions(cur.choices), (keep) => {
      const kept = new Set(keep);
      const tape = cur.choices.map((c, i) => (c.index !== 0 && !kept.has(i) ? { ...c, index: 0 } : c));
      const found = this.tryTape(cur.raw, cur.scenario, cur.seed, tape);
      if (found === null) return null;
      cur = found;
      return deviationPositions(found.choices);
    }, stop);
    const after = deviationCount(cur.choices);
    if (after < before) this.log.push(`schedule: ${before} → ${after} deviations from fifo`);
    return cur;
  }

  /** The fewest leading deviations (the rest replaced by fifo) that still fail, by bisection. */
  private shortestPrefix(start: Found): Found {
    const devs = deviationPositions(start.choices);
    let lo = 0;
    let hi = devs.length;
    let best = start;
    while (lo < hi && !this.budget.exhausted) {
      const mid = (lo + hi) >> 1;
      const tape = mid === 0 ? [] : start.choices.slice(0, devs[mid - 1]! + 1);
      const found = this.tryTape(start.raw, start.scenario, start.seed, tape);
      if (found !== null) {
        hi = mid;
        best = found;
      } else lo = mid + 1;
    }
    return best;
  }

  // ---- the scenario ------------------------------------------------------------------------

  shrinkScenario(start: Found): Found {
    let cur = start;
    for (let pass = 0; pass < 8 && !this.budget.exhausted; pass++) {
      const before = cur;
      cur = this.shrinkList(cur, "expect", "expectation");
      cur = this.greedy(cur, (r) => dropPodCandidates(r));
      cur = this.shrinkList(cur, "timeline", "timeline step");
      cur = this.greedy(cur, (r) => dropContainerCandidates(r));
      cur = this.shrinkList(cur, "runtime.faults", "fault");
      cur = this.greedy(cur, (r, s) => {
        const c = endEarlierCandidate(r, s.untilMs, cur.failure.atMs);
        return c === null ? [] : [c];
      });
      cur = this.greedy(cur, (r) => latencyCandidates(r));
      if (cur === before) break;
    }
    return cur;
  }

  /** Tries a candidate: validate, then replay the current tape, then the run's own strategy. */
  private tryCandidate(cur: Found, c: RawCandidate): Found | null {
    const scenario = compileRaw(c.raw, this.ctx.plan.file);
    if (scenario === null) return null;
    return this.tryTape(c.raw, scenario, cur.seed, cur.choices) ?? this.tryFresh(c.raw, scenario, cur.seed);
  }

  /** Takes the first candidate that still fails, again and again, until none does. */
  private greedy(start: Found, candidates: (raw: RawScenario, scenario: Scenario) => RawCandidate[]): Found {
    let cur = start;
    for (let progress = true; progress && !this.budget.exhausted; ) {
      progress = false;
      for (const c of candidates(cur.raw, cur.scenario)) {
        if (this.budget.exhausted) break;
        const found = this.tryCandidate(cur, c);
        if (found === null) continue;
        this.log.push(c.what);
        cur = found;
        progress = true;
        break;
      }
    }
    return cur;
  }

  /** Delta debugging over one list of the scenario (steps, faults, expectations). */
  private shrinkList(start: Found, key: "timeline" | "expect" | "runtime.faults", noun: string): Found {
    const items = listOf(start.raw, key);
    if (items.length === 0) return start;
    let cur = start;
    ddmin(items.map((_, i) => i), (keep) => {
      const raw = withList(start.raw, key, keep.map((i) => items[i]));
      const found = this.tryCandidate(cur, { raw, what: "" });
      if (found === null) return null;
      cur = found;
      return keep;
    }, () => this.budget.exhausted);
    const dropped = items.length - listOf(cur.raw, key).length;
    if (dropped > 0) this.log.push(`dropped ${dropped} of ${items.length} ${noun}${items.length === 1 ? "" : "s"}`);
    return cur;
  }
}

/** Shrinks a failing run within the budget. */
export function shrinkFailure(ctx: RunContext, start: Found, opts: ShrinkOptions = {}): ShrinkResult {
  return new Shrinker(ctx, start.failure, opts).run(start);
}
