// replay: feeds back a recorded choice list. A recording that no longer fits the run (the scenario
// or the code changed) stops the run at the first divergence and says where.
import { ReplayDivergence, type ProcList, type ProcRef, type Strategy } from "./strategy.ts";
import type { ChoiceKind, ChoiceLog } from "../choices.ts";

export interface ReplayOptions {
  /**
   * What to do when the recording is used up: "diverge" (a strict replay: the run must not ask for
   * more) or "fifo" (answer 0 from then on: used to try a recorded prefix while shrinking).
   */
  whenExhausted: "diverge" | "fifo";
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

  choose(kind: ChoiceKind, n: number, _procs: ProcList | null): number {
    if (this.pos >= this.tape.length) {
      if (this.opts.whenExhausted === "fifo") return 0;
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
