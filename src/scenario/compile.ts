// Compiles a scenario's container behaviour into the simulated runtime's programs (cri/program.ts):
// one program per attempt, the last one repeating, with probe answers filtered per attempt.
// Windows written `since: sigterm` go to the script's `sigtermWindows`, counted from SIGTERM.
import {
  probeScript,
  type ContainerBehaviour as CriBehaviour,
  type ContainerProgram,
  type HookScript,
  type ProbeScript,
  type ProbeType,
  type ProbeWindow,
} from "../cri/index.ts";
import type { ContainerBehaviour, ProbeAnswer, Program } from "./types/behaviour.ts";

const PROBE_TYPES: readonly ProbeType[] = ["liveness", "readiness", "startup"];

const toWindow = (a: ProbeAnswer): ProbeWindow => ({ fromMs: a.fromMs, toMs: a.toMs, answer: a.result });

function probesFor(b: ContainerBehaviour, attempt: number): Partial<Record<ProbeType, ProbeScript>> {
  const out: Partial<Record<ProbeType, ProbeScript>> = {};
  for (const type of PROBE_TYPES) {
    const answers = b.probes[type].filter((a) => a.attempt === null || a.attempt === attempt);
    if (answers.length === 0) continue;
    const start = answers.filter((a) => a.since === "start").map(toWindow);
    const sigterm = answers.filter((a) => a.since === "sigterm").map(toWindow);
    out[type] = { ...probeScript(start), sigtermWindows: sigterm };
  }
  return out;
}

function hooksOf(b: ContainerBehaviour): ContainerProgram["hooks"] {
  const hooks: { postStart?: HookScript; preStop?: HookScript } = {};
  if (b.postStart) hooks.postStart = { durationMs: b.postStart.durationMs, error: b.postStart.error };
  if (b.preStop) hooks.preStop = { durationMs: b.preStop.durationMs, error: b.preStop.error };
  return hooks;
}

function toProgram(p: Program, b: ContainerBehaviour, attempt: number): ContainerProgram {
  return {
    run: p.exitAfterMs === null ? { kind: "forever" } : { kind: "exit", afterMs: p.exitAfterMs, code: p.exitCode },
    startError: p.failStart,
    onSigterm: p.onSigterm.ignore
      ? { kind: "ignore" }
      : { kind: "exit", afterMs: p.onSigterm.exitAfterMs, code: p.onSigterm.exitCode },
    oomAtMs: p.oomAfterMs,
    probes: probesFor(b, attempt),
    hooks: hooksOf(b),
  };
}

/**
 * The runtime's programs for one container. The runtime counts attempts from 0 (CRI
 * ContainerMetadata.attempt); scenarios count them from 1, so programs[i] is scenario attempt i+1.
 * There is one program per attempt that `runs` or an attempt-specific probe answer mentions, plus
 * a last one, the container's own program, which the runtime repeats for every later attempt.
 */
export function compileBehaviour(b: ContainerBehaviour): CriBehaviour {
  const attempts = b.runs.length;
  const probeAttempts = PROBE_TYPES.flatMap((t) => b.probes[t].map((a) => a.attempt ?? 0));
  const explicit = Math.max(attempts, ...probeAttempts);
  const programs: ContainerProgram[] = [];
  for (let attempt = 1; attempt <= explicit; attempt++) {
    programs.push(toProgram(b.runs[attempt - 1] ?? b.then, b, attempt));
  }
  // The repeating program: attempt-specific probe answers no longer apply.
  programs.push(toProgram(b.then, b, Number.POSITIVE_INFINITY));
  return programs;
}
