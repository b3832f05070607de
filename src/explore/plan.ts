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
import { compileRawOrThrow, readRawScenario, withInvariantExpectations, type RawScenario } from "./raw.ts";
import { applyKubeletOverrides, hasOverrides, loadScenarioWithOverrides, overrideFlags, type KubeletOverrides } from "../scenario/overrides.ts";

export interface PlanRequest {
  /** A scenario file, or a raw scenario object with the name its replay keys should show. */
  source: { file: string } | { raw: RawScenario; label: string };
  strategy: "random" | "pct" | "pos";
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
  const augmented = withInvariantExpectations(raw, scenario, invariants);
  const strategy: ExploreStrategy =
    req.strategy === "random" || req.strategy === "pos"
      ? { name: req.strategy }
      : { name: "pct", depth: req.depth ?? DEFAULT_PCT_DEPTH, steps: req.steps ?? calibratePctSteps(scenario) };
  return {
    file, raw: augmented, strategy, seed: req.seed ?? scenario.seed, invariants, swarm: scenario.swarm !== undefined,
    overrideFlags: overrideFlags(req.kubelet),
  };
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
  const r = simulate(scenario, { strategy: { name: "fifo" }, sinks: [], keepRecords: false });
  return Math.max(1, countKind(r.run.choices, "proc"));
}

export function countKind(log: ChoiceLog, kind: "proc" | "select" | "value"): number {
  let n = 0;
  for (let i = 0; i < log.length; i++) if (log.get(i).kind === kind) n++;
  return n;
}
