// replay: feeds back a recorded choice list. A recording that no longer fits the run (the scenario
// or the code changed) stops the run at the first divergence and says where.
import { ReplayDivergence, StrategyPause, type ProcList, type ProcRef, type Strategy } from "./strategy.ts";
import type { ChoiceKind, ChoiceLog } from "../choices.ts";

export interface ReplayOptions {
  /**
   * What to do when the recording is used up: "diverge" (a strict replay: the run must not ask for
   * more), "fifo" (answer 0 from then on: used to try a recorded prefix while shrinking) or "pause"
   * (throw a StrategyPause at the first choice past the recording: play mode asks the learner).
   */
  whenExhausted: "diverge" | "fifo" | "pause";
}

export class ReplayStrategy implements Strategy {
  readonly name = "replay";
  private pos = 0;

  constructor(
    private readonly tape: ChoiceLog,
    private readonly opts: ReplayOptions = { whenExhausted: "diverge" },
  ) {}

  /** How many recorded choices were consumed so far. */
  get consumed(): number {
    return this.pos;
  }

  choose(kind: ChoiceKind, n: number, procs: ProcList | null): number {
    if (this.pos >= this.tape.length) {
      if (this.opts.whenExhausted === "fifo") return 0;
      if (this.opts.whenExhausted === "pause") throw new StrategyPause(kind, n, this.pos, listProcs(procs));
      throw new ReplayDivergence(
        `replay diverged at choice #${this.pos}: the recording has ${this.tape.length} choices, ` +
          `but the run asks for another (${kind} among ${n})`,
        this.pos,
      );
    }
    const rec = this.tape.get(this.pos);
    if (rec.kind !== kind || rec.n !== n) {
      throw new ReplayDivergence(
        `replay diverged at choice #${this.pos}: recorded a ${rec.kind} choice among ${rec.n}, ` +
          `the run now asks for a ${kind} choice among ${n}`,
        this.pos,
      );
    }
    this.pos++;
    return rec.index;
  }

  onSpawn(_proc: ProcRef): void {}
}

function listProcs(procs: ProcList | null): ProcRef[] | null {
  if (procs === null) return null;
  const out: ProcRef[] = [];
  for (let i = 0; i < procs.length; i++) out.push(procs.at(i));
  return out;
}
