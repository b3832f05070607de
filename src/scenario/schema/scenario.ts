// The scenario file's top level: the single source of truth for the scenario language. Types,
// validation, defaults and docs/scenario-reference.md all derive from this schema.
import { z } from "zod";
import { apiserverSchema } from "./apiserver.ts";
import { duration, obj } from "./common.ts";
import { expectationSchema } from "./expect.ts";
import { kubeletSchema } from "./kubelet.ts";
import { nodeSchema } from "./node.ts";
import { controlPlaneSchema, nodesSchema } from "./nodes.ts";
import { podEntrySchema } from "./pods.ts";
import { runtimeSchema } from "./runtime.ts";
import { schedulerSchema } from "./scheduler.ts";
import { strategySchema, swarmSchema } from "./strategy.ts";
import { stepSchema } from "./timeline.ts";
import { MAX_CONTAINERS, MAX_EXPECTATIONS, MAX_PODS, MAX_STEPS, MAX_UNTIL_MS } from "../bounds.ts";

import type { ParsedScenario } from "../types/scenario.ts";

export { MAX_CONTAINERS, MAX_EXPECTATIONS, MAX_PODS, MAX_STEPS, MAX_UNTIL_MS };
export type { ParsedScenario };

/** A list bound whose message names the limit and what it bounds. */
const atMost = (n: number, what: string) => ({
  error: (iss: { input?: unknown }) =>
    `expected at most ${n} ${what} (a bound of the simulator), found ${Array.isArray(iss.input) ? iss.input.length : "more"}`,
});

/** The containers of each pod, counted across the scenario; too many is refused at the pod that crosses the bound. */
function checkContainerCount(pods: ReadonlyArray<{ manifest?: { spec: Record<string, unknown> } | undefined }>, ctx: z.core.$RefinementCtx<unknown>): void {
  let total = 0;
  for (let i = 0; i < pods.length; i++) {
    // A manifestFile not read in (the file was missing) has been reported already.
    const spec = pods[i]!.manifest?.spec ?? {};
    for (const kind of ["initContainers", "containers", "ephemeralContainers"]) {
      const list = spec[kind];
      total += Array.isArray(list) ? list.length : 0;
    }
    if (total > MAX_CONTAINERS) {
      ctx.addIssue({
        code: "custom",
        path: [i, "manifest", "spec", "containers"],
        message: `expected at most ${MAX_CONTAINERS} containers in all the pods of a scenario (a bound of the simulator), found ${total} by this pod`,
      });
      return;
    }
  }
}

export const scenarioSchema = obj({
  name: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, {
      error: "expected a name in kebab-case (lower-case letters, digits and dashes), such as \"crash-loop\"",
    })
    .max(100)
    .describe("The scenario's name, in kebab-case; reports and repro files carry it."),
  description: z
    .string()
    .default("")
    .describe("What the scenario shows, for a newcomer: what happens, and what to look for in the output."),
  refs: z
    .array(z.string().min(1))
    .default([])
    .describe("Links to the upstream issues and pull requests the scenario comes from."),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(1)
    .describe("The run's seed: every random draw and scheduling choice derives from it. --seed overrides it."),
  until: duration("When the run ends, in virtual time; at most 24h.", {
    max: { ms: MAX_UNTIL_MS, what: "the longest run a scenario may ask for" },
  }).prefault("5m"),
  kubelet: kubeletSchema.prefault({}),
  node: nodeSchema.prefault({}),
  nodes: nodesSchema,
  runtime: runtimeSchema.prefault({}),
  apiserver: apiserverSchema.prefault({}),
  pods: z
    .array(podEntrySchema)
    .max(MAX_PODS, atMost(MAX_PODS, "pods"))
    .superRefine(checkContainerCount)
    .default([])
    .describe(`The pods the scenario can create: at most ${MAX_PODS}, with at most ${MAX_CONTAINERS} containers in all.`),
  scheduler: schedulerSchema,
  controlPlane: controlPlaneSchema,
  timeline: z
    .array(stepSchema)
    .max(MAX_STEPS, atMost(MAX_STEPS, "timeline steps"))
    .default([])
    .describe("What happens when. Steps run in time order; steps at the same time run in file order."),
  expect: z
    .array(expectationSchema)
    .max(MAX_EXPECTATIONS, atMost(MAX_EXPECTATIONS, "expectations"))
    .default([])
    .describe("What the run must show. `kubelet-sim run` exits 1 when one fails."),
  strategy: strategySchema.prefault("fifo"),
  swarm: swarmSchema.optional(),
}).describe("A scenario: a kubelet, a runtime, pods, a timeline of events, and expectations.");

/** The top-level fields: a YAML mapping with none of them (and no `kind`) is neither a scenario nor a manifest. */
export const SCENARIO_KEYS: readonly string[] = Object.keys(scenarioSchema.in.shape);
