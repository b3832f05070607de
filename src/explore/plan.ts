// Building an exploration's plan: the scenario with its invariants as expectations, the strategy
// with pct's step count calibrated, the seed. Calibration: pct's k (the number of scheduling steps
// its d-1 change points are drawn among) is the number of `proc` choices a fifo run of the
// scenario makes, measured once, so every run (in any thread or shard) uses the same k.
import { simulate } from "../simulate.ts";
import { DEFAULT_PCT_DEPTH } from "../sim/strategy/index.ts";
import type { ChoiceLog } from "../sim/index.ts";
import { resolveInvariantIds, ALL_INVARIANTS } from "../check/invariants/index.ts";
import { makeMonitors } from "../check/invariants.ts";
import type { Scenario } from "../scenario/index.ts";
import type { ExplorePlan, ExploreStrategy } from "./context.ts";
import { compileRawOrThrow, isRecord, rawList, readRawScenario, withInvariantExpectations, type RawScenario } from "./raw.ts";
import { DEFAULT_ISLANDS, MAX_ISLANDS } from "./guided.ts";
import type { SwarmMode } from "./swarm.ts";
import { applyKubeletOverrides, hasOverrides, loadScenarioWithOverrides, overrideFlags, type KubeletOverrides } from "../scenario/overrides.ts";

export interface PlanRequest {
  /** A scenario file, or a raw scenario object with the name its replay keys should show. */
  source: { file: string } | { raw: RawScenario; label: string };
  strategy: "random" | "pct" | "pos" | "guided";
  /** guided's islands (default 8): each its own corpus; threads and shards take whole islands. */
  islands?: number;
  /**
   * "auto": the generic swarm (swarm_auto.ts), over the file's own `swarm` ranges if it has any;
   * "none": no knobs at all. Default: the file's `swarm` (ranges, or `auto`), if any.
   */
  swarm?: "auto" | "none";
  /** Measure coverage under random, pct and pos too (guided always does). */
  coverage?: boolean;
  /** Told what the user should know about the plan (the CLI prints it on stderr). */
  onNote?: (text: string) => void;
  depth?: number;
  /** pct's k; calibrated from a fifo run when omitted. */
  steps?: number;
  /** The exploration seed; the scenario's own seed when omitted. */
  seed?: number;
  /** Invariant ids, or "all" (the default). */
  invariants?: readonly string[];
  /** --kubelet-version and --variant: explore the scenario under another kubelet (repro files carry it). */
  kubelet?: KubeletOverrides;
}

export function makePlan(req: PlanRequest): ExplorePlan {
  const { raw, scenario, file } = loadSource(req.source, req.kubelet);
  const invariants = resolveInvariantIds(req.invariants ?? [ALL_INVARIANTS]);
  makeMonitors(invariants, scenario); // an unknown id fails here, before any run
  const swarm = swarmMode(scenario, req, file);
  const kept = swarm === "auto" ? untimedOnly(raw, scenario, file, req.onNote) : { raw, scenario };
  const augmented = withInvariantExpectations(swarm === "declared" ? kept.raw : withoutSwarm(kept.raw), kept.scenario, invariants);
  const strategy: ExploreStrategy =
    req.strategy === "random" || req.strategy === "pos"
      ? { name: req.strategy }
      : req.strategy === "guided"
        ? { name: "guided", islands: checkIslands(req.islands ?? DEFAULT_ISLANDS) }
        : { name: "pct", depth: req.depth ?? DEFAULT_PCT_DEPTH, steps: req.steps ?? calibratePctSteps(scenario) };
  return {
    file, raw: augmented, strategy, seed: req.seed ?? scenario.seed, invariants, swarm, coverage: strategy.name === "guided" || req.coverage === true,
    overrideFlags: overrideFlags(req.kubelet),
  };
}

/** The file's `swarm` wins unless told otherwise; `--swarm auto` over a file's own ranges says so. */
function swarmMode(scenario: Scenario, req: PlanRequest, file: string): SwarmMode {
  if (req.swarm === "none") return "none";
  if (req.swarm === "auto") {
    if (scenario.swarm !== undefined && !scenario.swarm.auto) req.onNote?.(`${file}: its swarm ranges are left out: --swarm auto draws the generic knobs instead`);
    return "auto";
  }
  return scenario.swarm === undefined ? "none" : scenario.swarm.auto ? "auto" : "declared";
}

/**
 * Under the generic swarm, the file's `eventually` and `at` expectations are left out: they were
 * written for the file's timings, which every run now moves (a pod Running by 8s need not be,
 * with a pull 30 times slower). `never` expectations hold at any timing and stay, as does every
 * invariant.
 */
function untimedOnly(raw: RawScenario, scenario: Scenario, file: string, onNote: PlanRequest["onNote"]): { raw: RawScenario; scenario: Scenario } {
  const expect = rawList(raw, "expect");
  const keep = expect.filter((e) => isRecord(e) && e["never"] !== undefined);
  if (keep.length === expect.length) return { raw, scenario };
  onNote?.(`${file}: ${expect.length - keep.length} of its expectations (eventually, at) are left out: the generic swarm moves the timings they were written for; its never: expectations and every invariant are checked`);
  return { raw: { ...raw, expect: keep }, scenario: { ...scenario, expect: scenario.expect.filter((e) => e.kind === "never") } };
}

function withoutSwarm(raw: RawScenario): RawScenario {
  if (!("swarm" in raw)) return raw;
  const out = { ...raw };
  delete out["swarm"];
  return out;
}

function checkIslands(n: number): number {
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_ISLANDS)) throw new RangeError(`bad --islands ${n}: expected a whole number from 1 to ${MAX_ISLANDS}`);
  return n;
}

function loadSource(source: PlanRequest["source"], kubelet: KubeletOverrides | undefined): { raw: RawScenario; scenario: Scenario; file: string } {
  if ("file" in source) {
    if (!hasOverrides(kubelet)) return { ...readRawScenario(source.file), file: source.file };
    // Validated against the file, so a problem the flags cause is located there; read with the
    // flags, since --node decides which pods of a manifest dump the raw scenario holds.
    const { scenario, raw } = loadScenarioWithOverrides(source.file, kubelet);
    return { raw: applyKubeletOverrides(raw, kubelet), scenario, file: source.file };
  }
  const raw = hasOverrides(kubelet) ? applyKubeletOverrides(source.raw, kubelet) : source.raw;
  return { raw, scenario: compileRawOrThrow(raw, source.label), file: source.label };
}

/** pct's k for a scenario: the proc choices of one fifo run (at least 1). */
export function calibratePctSteps(scenario: Scenario): number {
  // Only the records the checks read are built (lazy records: the same run, its choices the same).
  const r = simulate(scenario, { strategy: { name: "fifo" }, sinks: [], keepRecords: false, hash: false });
  return Math.max(1, countKind(r.run.choices, "proc"));
}

export function countKind(log: ChoiceLog, kind: "proc" | "select" | "value"): number {
  let n = 0;
  for (let i = 0; i < log.length; i++) if (log.get(i).kind === kind) n++;
  return n;
}
