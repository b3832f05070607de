// The scenario file's top level: the single source of truth for the scenario language. Types,
// validation, defaults and docs/scenario-reference.md all derive from this schema.
import { z } from "zod";
import { apiserverSchema } from "./apiserver.ts";
import { duration, obj } from "./common.ts";
import { expectationSchema } from "./expect.ts";
import { kubeletSchema } from "./kubelet.ts";
import { podEntrySchema } from "./pods.ts";
import { runtimeSchema } from "./runtime.ts";
import { strategySchema, swarmSchema } from "./strategy.ts";
import { stepSchema } from "./timeline.ts";

/** Upper bounds on list lengths, so a hostile file cannot ask for unbounded work. */
export const MAX_PODS = 200;
export const MAX_STEPS = 10_000;
export const MAX_EXPECTATIONS = 1_000;

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
  until: duration("When the run ends, in virtual time.").prefault("5m"),
  kubelet: kubeletSchema.prefault({}),
  runtime: runtimeSchema.prefault({}),
  apiserver: apiserverSchema.prefault({}),
  pods: z.array(podEntrySchema).max(MAX_PODS).default([]).describe("The pods the scenario can create."),
  timeline: z
    .array(stepSchema)
    .max(MAX_STEPS)
    .default([])
    .describe("What happens when. Steps run in time order; steps at the same time run in file order."),
  expect: z
    .array(expectationSchema)
    .max(MAX_EXPECTATIONS)
    .default([])
    .describe("What the run must show. `kubelet-sim run` exits 1 when one fails."),
  strategy: strategySchema.prefault("fifo"),
  swarm: swarmSchema.optional(),
}).describe("A scenario: a kubelet, a runtime, pods, a timeline of events, and expectations.");

/** The top-level fields: a YAML mapping with none of them (and no `kind`) is neither a scenario nor a manifest. */
export const SCENARIO_KEYS: readonly string[] = Object.keys(scenarioSchema.in.shape);

/** The scenario as the schema alone parses it, before pods are defaulted and cross-checked. */
export type ParsedScenario = z.output<typeof scenarioSchema>;
