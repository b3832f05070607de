// A run held at virtual instants for `serve`: the scenario runs to the first instant asked for and
// waits; an advance runs it further. Pausing never changes what the run does (Sim.runUntil), so
// what is served at 30s is the state of the run `kubelet-sim run` prints, at 30s.
import type { Scenario } from "../scenario/resolve.ts";
import { startSimulation, type SimulationHandle } from "../simulate.ts";
import type { StrategySpec } from "../sim/index.ts";

export interface ServeSessionOptions {
  scenario: Scenario;
  /** The scenario's file name, for the trace's run record. */
  scenarioFile: string;
  seed?: number;
  strategy?: StrategySpec;
  untilMs?: number;
  /** The instants to stop at, in order (the first is where serving begins). */
  atMs: readonly number[];
  /** How far an advance without `by` moves once the instants are used up (null: it must say). */
  stepMs: number | null;
}

/** Where an advance lands, or why it cannot move. */
export type AdvanceResult = { ok: true; nowMs: number } | { ok: false; status: 400 | 409; message: string };

export class ServeSession {
  readonly handle: SimulationHandle;
  private readonly pending: number[];
  private readonly stepMs: number | null;
  /** The run's verdict once it ended (the until bound, or a failure); null while it goes on. */
  private ended: string | null = null;
  /** The run went idle: nothing is scheduled any more, so time stands still. */
  private idle = false;

  constructor(opts: ServeSessionOptions) {
    if (opts.atMs.length === 0) throw new RangeError("ServeSession: no instant to run to");
    this.handle = startSimulation(opts.scenario, {
      ...(opts.seed === undefined ? {} : { seed: opts.seed }),
      ...(opts.strategy === undefined ? {} : { strategy: opts.strategy }),
      ...(opts.untilMs === undefined ? {} : { untilMs: opts.untilMs }),
      scenarioFile: opts.scenarioFile,
      sinks: [],
      keepRecords: false,
    });
    this.pending = [...opts.atMs].sort((a, b) => a - b);
    this.stepMs = opts.stepMs;
    this.runTo(this.pending.shift()!);
  }

  get nowMs(): number {
    return this.handle.sim.nowMs;
  }

  /** The verdict of a run that ended (e.g. "until"), or null. */
  get verdict(): string | null {
    return this.ended;
  }

  /** The instants still to come from --at. */
  get nextInstantsMs(): readonly number[] {
    return this.pending;
  }

  /** An advance: by the given time, else to the next --at instant, else by --step. */
  advance(byMs: number | null): AdvanceResult {
    if (this.ended !== null) return { ok: false, status: 409, message: `the run has ended (${this.ended}) at t=${this.nowMs}ms; nothing more happens` };
    let targetMs: number;
    if (byMs !== null) targetMs = this.nowMs + byMs;
    else if (this.pending.length > 0) targetMs = this.pending.shift()!;
    else if (this.stepMs !== null) targetMs = this.nowMs + this.stepMs;
    else return { ok: false, status: 400, message: "no --at instant is left and no --step was given: say how far, e.g. ?by=5s" };
    while (this.pending.length > 0 && this.pending[0]! <= targetMs) this.pending.shift();
    this.runTo(targetMs);
    return { ok: true, nowMs: this.nowMs };
  }

  private runTo(targetMs: number): void {
    const r = this.handle.sim.runUntil(targetMs);
    if (r === "idle") this.idle = true;
    else if (r !== "paused") this.ended = r;
  }

  /** True when nothing was left to schedule at the last advance (the clock then stopped early). */
  get wentIdle(): boolean {
    return this.idle;
  }
}
