// fifo: no randomness at all. The running process keeps running until it blocks, woken processes
// run in the order they were woken, and a select takes its first ready case.
import type { ProcList, ProcRef, Strategy } from "./strategy.ts";
import type { ChoiceKind } from "../choices.ts";

export class FifoStrategy implements Strategy {
  readonly name = "fifo";
  choose(_kind: ChoiceKind, _n: number, _procs: ProcList | null): number {
    return 0;
  }
  onSpawn(_proc: ProcRef): void {}
}
