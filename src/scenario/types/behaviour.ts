// What each container does, as the parsed scenario carries it (schema/behaviour.ts parses it):
// a program per attempt, probe answers over time, and hook handlers, every default resolved.

/** A process killed by SIGTERM without a handler exits 128+15. */
export const SIGTERM_EXIT_CODE = 143;
/** A process killed by SIGKILL (or the OOM killer) exits 128+9. */
export const SIGKILL_EXIT_CODE = 137;

/** What the process does on SIGTERM. */
export interface SigtermBehaviour {
  ignore: boolean;
  exitAfterMs: number;
  exitCode: number;
}

/** One attempt's program, with every default resolved. */
export interface Program {
  exitAfterMs: number | null;
  exitCode: number;
  oomAfterMs: number | null;
  failStart: string | null;
  onSigterm: SigtermBehaviour;
}

/** How a probe answers in a window of time. */
export interface ProbeAnswer {
  fromMs: number;
  toMs: number | null;
  since: "start" | "sigterm";
  attempt: number | null;
  result: "success" | "failure" | "timeout";
}

export interface ProbeAnswers {
  liveness: ProbeAnswer[];
  readiness: ProbeAnswer[];
  startup: ProbeAnswer[];
}

/** A lifecycle hook's handler: how long it runs, and the error it fails with (null: it succeeds). */
export interface HookBehaviour {
  durationMs: number;
  error: string | null;
}

export interface ContainerBehaviour {
  /** Programs for attempts 1, 2, ... */
  runs: Program[];
  /** The program of every later attempt. */
  then: Program;
  probes: ProbeAnswers;
  postStart: HookBehaviour | null;
  preStop: HookBehaviour | null;
}

export const DEFAULT_ON_SIGTERM: SigtermBehaviour = { ignore: false, exitAfterMs: 0, exitCode: SIGTERM_EXIT_CODE };

/** The program attempt `n` (1-based) runs. */
export function programForAttempt(b: ContainerBehaviour, attempt: number): Program {
  return b.runs[attempt - 1] ?? b.then;
}

/** The behaviour of a container the scenario says nothing about. */
export function defaultBehaviour(kind: "init" | "sidecar" | "regular"): ContainerBehaviour {
  const program: Program = {
    // An init container that ran forever would block the pod, so by default it exits 0 after a second.
    exitAfterMs: kind === "init" ? 1000 : null,
    exitCode: 0,
    oomAfterMs: null,
    failStart: null,
    onSigterm: DEFAULT_ON_SIGTERM,
  };
  return { runs: [], then: program, probes: { liveness: [], readiness: [], startup: [] }, postStart: null, preStop: null };
}
