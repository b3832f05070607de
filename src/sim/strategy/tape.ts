// tape: follows a recorded tape as far as the run asks the same questions, then hands every later
// choice to another strategy. The guided strategy (src/explore/guided.ts) runs its mutants so: a
// parent run's tape with one choice flipped, or spliced with another's, or replayed under moved
// knobs, then a fresh schedule from where the tape ends or stops fitting. Unlike replay, a choice
// that no longer fits (another kind, another number of options) is no error: the tape is left
// there, and the rest of the run is the other strategy's.
import type { ProcList, ProcRef, Strategy } from "./strategy.ts";
import type { ChoiceKind, ChoiceLog } from "../choices.ts";

export class TapeStrategy implements Strategy {
  readonly name: string;
  private pos = 0;
  private following = true;

  constructor(
    private readonly tape: ChoiceLog,
    private readonly then: Strategy,
  ) {
    this.name = `tape+${then.name}`;
  }

  /** How many choices were taken from the tape. */
  get followed(): number {
    return this.pos;
  }

  choose(kind: ChoiceKind, n: number, procs: ProcList | null): number {
    if (this.following && this.pos < this.tape.length) {
      const rec = this.tape.get(this.pos);
      if (rec.kind === kind && rec.n === n) {
        this.pos++;
        return rec.index;
      }
      this.following = false;
    }
    return this.then.choose(kind, n, procs);
  }

  onSpawn(proc: ProcRef): void {
    this.then.onSpawn(proc);
  }
}
