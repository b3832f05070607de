// random: every choice uniform over its options, drawn from the run seed's "sched" stream.
// For a select this is exactly Go's rule (a uniformly random ready case).
import type { ProcList, ProcRef, Strategy } from "./strategy.ts";
import type { ChoiceKind } from "../choices.ts";
import type { Rng } from "../rng.ts";

export class RandomStrategy implements Strategy {
  readonly name = "random";
  constructor(private readonly rng: Rng) {}
  choose(_kind: ChoiceKind, n: number, _procs: ProcList | null): number {
    return this.rng.below(n);
  }
  onSpawn(_proc: ProcRef): void {}
}
