// How a run explores interleavings (the scheduler's strategy), and the ranges swarm exploration
// may draw a run's latencies and faults from.
import { z } from "zod";
import { DEFAULT_PCT_DEPTH, DEFAULT_PCT_STEPS } from "../../sim/strategy/index.ts";
import { duration, durationRange, obj } from "./common.ts";
import { CRI_METHODS, faultSchema } from "./runtime.ts";
import type { ScenarioStrategy, SwarmConfig } from "../types/strategy.ts";

export type { ScenarioStrategy, SwarmConfig };

/** "pct:3:1000" → { name: "pct", depth: 3, steps: 1000 }; anything else is left for the object schema to judge. */
function fromString(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const [name, depth, steps] = value.split(":");
  const num = (s: string | undefined) => (s === undefined ? undefined : /^\d+$/.test(s) ? Number(s) : s);
  return { name, depth: num(depth), steps: num(steps) };
}

const strategyObject = obj({
  name: z
    .enum(["fifo", "random", "pct", "pos"])
    .describe("fifo: one fixed order; random: seeded uniform choices; pct: probabilistic concurrency testing; pos: partial order sampling."),
  depth: z.number().int().min(1).max(100).optional().describe(`pct only: the bug depth d (default ${DEFAULT_PCT_DEPTH}).`),
  steps: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`pct only: the estimated number of scheduling steps k (default ${DEFAULT_PCT_STEPS}).`),
})
  .superRefine((s, ctx) => {
    if (s.name === "pct") return;
    for (const key of ["depth", "steps"] as const) {
      if (s[key] !== undefined) ctx.addIssue({ code: "custom", path: [key], message: `expected ${key} only with pct, found it with ${s.name}` });
    }
  })
  .transform((s): ScenarioStrategy =>
    s.name === "pct" ? { name: "pct", depth: s.depth ?? DEFAULT_PCT_DEPTH, steps: s.steps ?? DEFAULT_PCT_STEPS } : { name: s.name },
  );

export const strategySchema = z
  .preprocess(fromString, strategyObject)
  .meta({
    description: "The scheduling strategy; the command line's --strategy overrides it.",
    shorthand: 'a string: "fifo", "random", "pct", "pct:DEPTH", "pct:DEPTH:STEPS" or "pos"',
  });

const swarmFault = obj({
  percent: z.number().int().min(1).max(100).describe("The chance, in percent, that a run has this fault."),
  fault: faultSchema.describe("The fault, as under runtime.faults."),
});

const swarmObject = obj({
  auto: z
    .boolean()
    .default(false)
    .describe("Derive every knob from the scenario, with no ranges written here: as `explore --swarm auto` (docs/exploring.md, \"The generic swarm\")."),
  latency: z
    .partialRecord(z.enum(CRI_METHODS), durationRange("The bounds a run's latency for this method is drawn from."))
    .default({})
    .describe("Per CRI method: each run draws its own latency range within these bounds, replacing runtime.latency."),
  faults: z.array(swarmFault).default([]).describe("Faults each run may switch on, each with its own chance."),
  jitter: duration("Each timeline step is delayed by a draw from 0 to this.").prefault("0s"),
  apiserverLatency: durationRange("The bounds a run's apiserver round trip is drawn from, replacing apiserver.latency.").optional(),
}).superRefine((s, ctx) => {
  if (!s.auto) return;
  const ranges = Object.keys(s.latency).length > 0 || s.faults.length > 0 || s.jitterMs > 0 || s.apiserverLatency !== undefined;
  if (ranges) ctx.addIssue({ code: "custom", path: ["auto"], message: "expected either auto or ranges of the file's own (latency, faults, jitter, apiserverLatency), found both" });
});

export const swarmSchema = z
  .preprocess((v) => (v === "auto" ? { auto: true } : v), swarmObject)
  .meta({
    description: "Ranges that exploration (`kubelet-sim explore`) draws each run's knobs from, as in swarm testing.",
    shorthand: "the string `auto` means `{ auto: true }`",
  });
