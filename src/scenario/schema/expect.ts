// Expectations: what must (or must never) be seen during the run, checked by check/.
import { z } from "zod";
import { podPhaseSchema } from "../../k8s/pod_schema.ts";
import { containerName, countRange, duration, obj, podRef, stringOrObject } from "./common.ts";
import { describeValue } from "../found.ts";

import { POD_CONDITION_TYPES, type Condition, type Expectation } from "../types/expect.ts";

export { POD_CONDITION_TYPES, type Condition, type Expectation };

/** "True" | "False" | "Unknown"; YAML's true/false are accepted, since `Ready: True` reads as a boolean. */
const conditionStatus = z
  .unknown()
  .transform((v, ctx): "True" | "False" | "Unknown" => {
    if (v === true || v === "True") return "True";
    if (v === false || v === "False") return "False";
    if (v === "Unknown") return "Unknown";
    ctx.addIssue({ code: "custom", message: `expected "True", "False" or "Unknown", found ${describeValue(v)}` });
    return z.NEVER;
  })
  .meta({ typeName: '"True" | "False" | "Unknown"', description: "The condition's status." });

const containerCheck = obj({
  name: containerName("The container (regular, init or sidecar)."),
  state: z.enum(["waiting", "running", "terminated"]).optional().describe("Its current state."),
  reason: z
    .string()
    .min(1)
    .optional()
    .describe("The reason of its current state: CrashLoopBackOff, ImagePullBackOff, ErrImagePull, Completed, Error, OOMKilled..."),
  exitCode: z.number().int().min(0).max(255).optional().describe("The exit code of its current (terminated) state."),
  restartCount: countRange("Its restartCount.").optional(),
  ready: z.boolean().optional().describe("Its `ready` flag."),
  started: z.boolean().optional().describe("Its `started` flag."),
}).describe("Checks on one container's status.");

const eventCheck = obj({
  reason: z.string().min(1).describe("The event's reason: Scheduled, Pulling, Pulled, Created, Started, Killing, BackOff, Unhealthy..."),
  message: z.string().optional().describe("A substring the event's message must contain."),
  type: z.enum(["Normal", "Warning"]).optional().describe("The event's type."),
  count: countRange("How many such events (default: at least one).").optional(),
}).describe("An event recorded for the pod, as `kubectl describe pod` lists them.");

const INVARIANT_ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export const conditionSchema = stringOrObject(
  "invariant",
  obj({
    invariant: z
      .string()
      .regex(INVARIANT_ID, { error: "expected an invariant id in kebab-case, such as \"start-after-termination-requested\"" })
      .optional()
      .describe("A named invariant violation (see docs/invariants.md), instead of a pod check."),
    pod: podRef("The pod checked.").optional(),
    phase: podPhaseSchema.optional().describe("status.phase."),
    gone: z.boolean().optional().describe("The pod object no longer exists in the apiserver (true) or does (false)."),
    conditions: z
      .partialRecord(z.enum(POD_CONDITION_TYPES), conditionStatus)
      .optional()
      .describe("status.conditions by type, e.g. `{ Ready: \"True\" }`."),
    container: containerCheck.optional(),
    event: eventCheck.optional(),
  }).superRefine((c, ctx) => {
    const checks = (["phase", "gone", "conditions", "container", "event"] as const).filter((k) => c[k] !== undefined);
    if (c.invariant !== undefined) {
      for (const k of [...(c.pod !== undefined ? ["pod"] : []), ...checks]) {
        ctx.addIssue({ code: "custom", path: [k], message: `expected no ${k} with invariant, which is checked over the whole run` });
      }
      return;
    }
    if (c.pod === undefined) {
      ctx.addIssue({ code: "custom", message: "expected a pod (or an invariant), found neither" });
    } else if (checks.length === 0) {
      ctx.addIssue({ code: "custom", message: "expected something to check: phase, gone, conditions, container or event" });
    }
  }),
  "What is checked: pod fields, or a named invariant violation.",
);

export const expectationSchema = obj({
  eventually: conditionSchema.optional().describe("Holds at some instant of the run (by `by`, if given)."),
  by: duration("The deadline of `eventually`; the end of the run when omitted.").optional(),
  never: conditionSchema.optional().describe("Holds at no instant of the run."),
  at: duration("The instant at which `that` must hold.").optional(),
  that: conditionSchema.optional().describe("What must hold at `at`."),
})
  .superRefine((e, ctx) => {
    const given = { eventually: e.eventually, never: e.never, at: e.atMs };
    const kinds = Object.entries(given).filter(([, v]) => v !== undefined).map(([k]) => k);
    if (kinds.length !== 1) {
      const found = kinds.length === 0 ? "none" : kinds.join(" and ");
      ctx.addIssue({ code: "custom", message: `expected exactly one of eventually, never or at, found ${found}` });
    }
    if (e.atMs !== undefined && e.that === undefined) {
      ctx.addIssue({ code: "custom", message: "expected `that` with `at`: what must hold at that time" });
    }
    if (e.that !== undefined && e.atMs === undefined) {
      ctx.addIssue({ code: "custom", path: ["that"], message: "expected `at` with `that`" });
    }
    if (e.byMs !== undefined && e.eventually === undefined) {
      ctx.addIssue({ code: "custom", path: ["by"], message: "expected `by` only with `eventually`" });
    }
  })
  .transform((e): Expectation => {
    if (e.eventually !== undefined) return { kind: "eventually", condition: e.eventually, byMs: e.byMs ?? null };
    if (e.never !== undefined) return { kind: "never", condition: e.never };
    return { kind: "at", atMs: e.atMs!, condition: e.that! };
  })
  .describe("One expectation: `eventually`, `never`, or `at` + `that`.");
