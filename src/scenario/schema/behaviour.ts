// What each container does when the simulated runtime runs it: its program (per attempt), how it
// answers probes over time, and how long its lifecycle hooks take.
import { z } from "zod";
import { duration, obj } from "./common.ts";
import { formatDuration } from "../../sim/duration.ts";
import {
  DEFAULT_ON_SIGTERM,
  defaultBehaviour,
  programForAttempt,
  SIGKILL_EXIT_CODE,
  SIGTERM_EXIT_CODE,
  type ContainerBehaviour,
  type Program,
  type ProbeAnswer,
  type SigtermBehaviour,
} from "../types/behaviour.ts";

export { defaultBehaviour, programForAttempt, SIGKILL_EXIT_CODE, SIGTERM_EXIT_CODE, type ContainerBehaviour, type Program, type ProbeAnswer, type SigtermBehaviour };

const exitCode = (what: string) => z.number().int().min(0).max(255).describe(what);

const onSigterm = obj({
  ignore: z
    .boolean()
    .default(false)
    .describe("Ignore SIGTERM: the container runs on until the grace period ends and SIGKILL stops it (exit 137)."),
  exitAfter: duration("Exit this long after SIGTERM arrives (default 0s: at once).").optional(),
  exitCode: exitCode("The exit code after SIGTERM (default 143, death by SIGTERM; 0 for a clean shutdown).").optional(),
})
  .superRefine((s, ctx) => {
    if (!s.ignore) return;
    const given = { exitAfter: s.exitAfterMs, exitCode: s.exitCode };
    for (const [key, value] of Object.entries(given)) {
      if (value !== undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `expected no ${key} with ignore: true, which never exits on SIGTERM` });
      }
    }
  })
  .transform((s) => ({ ignore: s.ignore, exitAfterMs: s.exitAfterMs ?? 0, exitCode: s.exitCode ?? SIGTERM_EXIT_CODE }))
  .describe("What the process does on SIGTERM. Default: exit at once with 143.");


const programShape = {
  exitAfter: duration("Exit this long after the container starts. When omitted the container runs until stopped.").optional(),
  exitCode: exitCode("The exit code at `exitAfter` (default 0).").optional(),
  oomAfter: duration("The OOM killer kills the container this long after it starts: exit 137, reason OOMKilled.").optional(),
  failStart: z
    .string()
    .min(1)
    .optional()
    .describe("StartContainer fails with this message (like a missing binary): the container never runs, exit 128."),
  onSigterm: onSigterm.optional(),
};

type ProgramIn = z.output<ReturnType<typeof obj<typeof programShape>>>;

function checkProgram(p: ProgramIn, ctx: z.core.$RefinementCtx<unknown>): void {
  if (p.failStart !== undefined) {
    for (const key of ["exitAfter", "oomAfter", "exitCode"] as const) {
      const value = key === "exitCode" ? p.exitCode : p[`${key}Ms`];
      if (value !== undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `expected no ${key} with failStart, since the container never runs` });
      }
    }
  }
  if (p.exitCode !== undefined && p.exitAfterMs === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["exitCode"],
      message: "expected exitAfter with exitCode; without exitAfter the container runs until stopped and exitCode never applies",
    });
  }
}

function toProgram(p: ProgramIn, inherited: SigtermBehaviour): Program {
  return {
    exitAfterMs: p.exitAfterMs ?? null,
    exitCode: p.exitCode ?? 0,
    oomAfterMs: p.oomAfterMs ?? null,
    failStart: p.failStart ?? null,
    onSigterm: p.onSigterm ?? inherited,
  };
}

const run = obj(programShape)
  .superRefine(checkProgram)
  .describe("One attempt's program: the same fields as the container's own; onSigterm is inherited when omitted.");

const probeAnswer = obj({
  from: duration("Start of the window (default 0s).").optional(),
  to: duration("End of the window (exclusive); no end when omitted.").optional(),
  since: z
    .enum(["start", "sigterm"])
    .default("start")
    .describe("What from/to count from: the container's start, or the SIGTERM it received (no match before it)."),
  attempt: z.number().int().min(1).optional().describe("Only for this attempt of the container (1 = first start); every attempt when omitted."),
  result: z
    .enum(["success", "failure", "timeout"])
    .describe("The probe's answer in the window; timeout means no answer within timeoutSeconds."),
})
  .superRefine((a, ctx) => {
    if (a.toMs !== undefined && a.toMs <= (a.fromMs ?? 0)) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `expected a window end after from (${formatDuration(a.fromMs ?? 0)}), found ${formatDuration(a.toMs)}`,
      });
    }
  })
  .transform((a) => ({ fromMs: a.fromMs ?? 0, toMs: a.toMs ?? null, since: a.since, attempt: a.attempt ?? null, result: a.result }));

const answers = (kind: string) =>
  z
    .array(probeAnswer)
    .default([])
    .describe(`Answers of the ${kind} probe: the first window that matches decides; success when none does.`);

const hook = obj({
  duration: duration("How long the handler runs.").prefault("0s"),
  fail: z.string().min(1).optional().describe("The handler fails with this message after `duration`."),
}).transform((h) => ({ durationMs: h.durationMs, error: h.fail ?? null }));

export const containerBehaviourSchema = obj({
  ...programShape,
  runs: z
    .array(run)
    .max(1000)
    .default([])
    .describe("Programs for attempts 1, 2, ... in order; later attempts run the container's own program."),
  probes: obj({
    liveness: answers("liveness"),
    readiness: answers("readiness"),
    startup: answers("startup"),
  })
    .prefault({})
    .describe("How the container answers its probes over time. Every probe succeeds when not listed."),
  postStart: hook.optional().describe("The postStart hook's handler (the manifest must declare lifecycle.postStart)."),
  preStop: hook.optional().describe("The preStop hook's handler (the manifest must declare lifecycle.preStop)."),
})
  .superRefine(checkProgram)
  .transform((b) => {
    const onSigtermDefault = b.onSigterm ?? DEFAULT_ON_SIGTERM;
    return {
      runs: b.runs.map((r) => toProgram(r, onSigtermDefault)),
      then: toProgram(b, onSigtermDefault),
      probes: b.probes,
      postStart: b.postStart ?? null,
      preStop: b.preStop ?? null,
    };
  })
  .describe(
    "A container's program for every attempt (exitAfter, exitCode, oomAfter, failStart, onSigterm), optional " +
      "per-attempt `runs`, probe answers and hook handlers.",
  );
