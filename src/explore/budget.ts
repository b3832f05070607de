// A bound on the runs and the wall time a search may spend (TigerBeetle: a bound on every loop).
// The clock is injected: the CLI passes the host's, tests can pass none (time never runs out).
export type Clock = () => number;

export const NO_CLOCK: Clock = () => 0;

export class Budget {
  runs = 0;
  private readonly startMs: number;

  constructor(
    readonly maxRuns: number,
    readonly maxMs: number,
    private readonly clock: Clock = NO_CLOCK,
  ) {
    if (!(maxRuns >= 0 && maxMs >= 0)) throw new RangeError(`bad budget: ${maxRuns} runs, ${maxMs} ms`);
    this.startMs = clock();
  }

  get elapsedMs(): number {
    return this.clock() - this.startMs;
  }

  get exhausted(): boolean {
    return this.runs >= this.maxRuns || this.elapsedMs >= this.maxMs;
  }

  /** Takes one run from the budget; false (and nothing taken) when it is used up. */
  spend(): boolean {
    if (this.exhausted) return false;
    this.runs++;
    return true;
  }
}
