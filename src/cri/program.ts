// Models what a container's process does once started: the behaviour a scenario scripts for the
// simulated runtime (no upstream file; the runtime executes these in virtual time).
//
// The scenario layer compiles its YAML into these plain values. A container has one program per
// attempt: programs[i] runs when CRI ContainerMetadata.attempt is i (the kubelet's restart count),
// and the last program repeats for later attempts, so [crash, run] means "the first run crashes,
// every later one runs". All times are virtual milliseconds relative to the container's start.

/** How the main process ends on its own. */
export type RunSpec =
  | { kind: "exit"; afterMs: number; code: number }
  | { kind: "forever" };

/** What the process does on SIGTERM (StopContainer's stop signal). */
export type SigtermSpec =
  | { kind: "exit"; afterMs: number; code: number }
  /** Keep running until SIGKILL, which ends it with 137. */
  | { kind: "ignore" };

export type ProbeType = "liveness" | "readiness" | "startup";
export type HookType = "postStart" | "preStop";

/** What one probe run returns: success, failure, or no answer within the probe's timeout. */
export type ProbeAnswer = "success" | "failure" | "timeout";

/** An answer for probes started in [fromMs, toMs) after the container started (toMs null: no end). */
export interface ProbeWindow {
  fromMs: number;
  toMs: number | null;
  answer: ProbeAnswer;
}

export interface ProbeScript {
  windows: readonly ProbeWindow[];
  /**
   * Windows counted from the container's first SIGTERM rather than its start (a server that turns
   * unready while it drains). Once SIGTERM came, they are looked at first.
   */
  sigtermWindows?: readonly ProbeWindow[];
  /** The answer outside every window. */
  otherwise: ProbeAnswer;
  /** How long one answered probe takes (a timeout takes the probe's timeout instead). */
  durationMs: number;
}

export interface HookScript {
  durationMs: number;
  /** The hook fails with this output (exit code 1) when set. */
  error: string | null;
}

export interface ContainerProgram {
  run: RunSpec;
  /** StartContainer fails with this runtime error and leaves the container EXITED (StartError, 128). */
  startError: string | null;
  onSigterm: SigtermSpec;
  /** The process is OOM-killed this long after start: exit 137, reason OOMKilled. */
  oomAtMs: number | null;
  probes: Readonly<Partial<Record<ProbeType, ProbeScript>>>;
  hooks: Readonly<Partial<Record<HookType, HookScript>>>;
}

/** Programs by attempt; the last one repeats. Never empty. */
export type ContainerBehaviour = readonly ContainerProgram[];

/** 128 + SIGKILL(9), what a killed process reports. */
export const EXIT_CODE_SIGKILL = 137;
/** 128 + SIGTERM(15), what a process without a SIGTERM handler reports. */
export const EXIT_CODE_SIGTERM = 143;

/**
 * The program of a container nobody scripted: a server that runs until told to stop and dies of
 * SIGTERM at once (no handler, so 143), answers every probe and runs hooks instantly.
 */
export const DEFAULT_PROGRAM: ContainerProgram = Object.freeze<ContainerProgram>({
  run: { kind: "forever" },
  startError: null,
  onSigterm: { kind: "exit", afterMs: 0, code: EXIT_CODE_SIGTERM },
  oomAtMs: null,
  probes: {},
  hooks: {},
});

export const DEFAULT_PROBE_DURATION_MS = 1;

/** A program from the fields given, the rest from DEFAULT_PROGRAM. */
export function program(fields: Partial<ContainerProgram> = {}): ContainerProgram {
  return { ...DEFAULT_PROGRAM, ...fields };
}

/** The program that runs for a given attempt (0 is the first start). */
export function programForAttempt(behaviour: ContainerBehaviour, attempt: number): ContainerProgram {
  if (behaviour.length === 0) throw new RangeError("a container behaviour needs at least one program");
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`bad attempt ${attempt}`);
  return behaviour[Math.min(attempt, behaviour.length - 1)]!;
}

/** A probe script answering `answer` in [fromMs, toMs) and `otherwise` elsewhere. */
export function probeScript(windows: readonly ProbeWindow[], otherwise: ProbeAnswer = "success", durationMs = DEFAULT_PROBE_DURATION_MS): ProbeScript {
  for (const w of windows) {
    if (w.fromMs < 0 || (w.toMs !== null && w.toMs <= w.fromMs)) {
      throw new RangeError(`probe window [${w.fromMs}, ${w.toMs}) is empty or negative`);
    }
  }
  return { windows, otherwise, durationMs };
}

/**
 * The answer of a probe started sinceStartMs after the container started (and sinceSigtermMs after
 * its first SIGTERM, null if none): a SIGTERM window first, then a start window, the first
 * matching one winning, else `otherwise`.
 */
export function probeAnswerAt(script: ProbeScript | undefined, sinceStartMs: number, sinceSigtermMs: number | null = null): ProbeAnswer {
  if (script === undefined) return "success";
  if (sinceSigtermMs !== null) {
    const w = findWindow(script.sigtermWindows ?? [], sinceSigtermMs);
    if (w !== undefined) return w.answer;
  }
  return findWindow(script.windows, sinceStartMs)?.answer ?? script.otherwise;
}

function findWindow(windows: readonly ProbeWindow[], t: number): ProbeWindow | undefined {
  return windows.find((w) => t >= w.fromMs && (w.toMs === null || t < w.toMs));
}

/** The first time (relative to start) the process ends on its own: run exit or OOM, whichever is first. */
export function naturalEnd(p: ContainerProgram): { afterMs: number; code: number; reason: "OOMKilled" | "" } | null {
  const exitMs = p.run.kind === "exit" ? p.run.afterMs : Number.POSITIVE_INFINITY;
  const oomMs = p.oomAtMs ?? Number.POSITIVE_INFINITY;
  if (exitMs === Number.POSITIVE_INFINITY && oomMs === Number.POSITIVE_INFINITY) return null;
  // An OOM at the same instant as the exit wins: the kernel killed it before it could exit.
  if (oomMs <= exitMs) return { afterMs: oomMs, code: EXIT_CODE_SIGKILL, reason: "OOMKilled" };
  return { afterMs: exitMs, code: (p.run as { code: number }).code, reason: "" };
}

/**
 * Where a pod's containers take their programs from when the pod is a workload's replica: the
 * pods whose programs it runs (its templates), the last adopted first (node/adopted_behaviours.ts).
 */
export interface BehaviourTemplates {
  templatesOf(podKey: string): readonly string[] | undefined;
}
