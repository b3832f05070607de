// What each option of a paused choice would do, in words a learner can act on: for a goroutine,
// the resource it resumes from (the channel it received from, the lock it waited for, the call it
// returns from); for a select, the ready case; for a Go map iteration, the key it starts at.
import type { Process, SelectCase, StrategyPause } from "../sim/index.ts";

export interface ChoiceOption {
  index: number;
  /** Who acts: the goroutine for a proc choice, the selecting (or iterating) one otherwise. */
  who: string;
  /** What it does next if chosen. */
  does: string;
}

export function describeOptions(pause: StrategyPause, current: Process | null): ChoiceOption[] {
  if (pause.kind === "proc" && pause.procs !== null) {
    return pause.procs.map((p, index) => ({ index, who: p.name, does: resumes(p.resumeOn) }));
  }
  const who = current?.name ?? "(the kernel)";
  if (pause.kind === "select" && Array.isArray(pause.context)) {
    const ready = (pause.context as readonly SelectCase[]).filter(isReady);
    return ready.map((c, index) => ({ index, who, does: c.dir === "recv" ? `select: receive from ${c.ch!.name}` : `select: send on ${c.ch!.name}` }));
  }
  const keys = Array.isArray(pause.context) ? (pause.context as readonly unknown[]) : null;
  return Array.from({ length: pause.n }, (_, index) => ({
    index,
    who,
    does: keys === null ? `option ${index} of ${pause.n}` : `range over a map starting at ${String(keys[index])}`,
  }));
}

/** A runnable goroutine's pending step, named by the resource it resumes from (see ProcRef.resumeOn). */
function resumes(resource: unknown): string {
  if (resource === null || resource === undefined) return "starts, or wakes from a sleep";
  if (typeof resource === "string") return `returns from ${resource}`;
  const name = (resource as { name?: unknown }).name;
  return typeof name === "string" ? `wakes on ${name}` : "wakes";
}

/** The select's readiness as the kernel counted it, just before it asked (nothing ran since). */
function isReady(c: SelectCase): boolean {
  if (c.ch === null) return false;
  return c.dir === "recv" ? c.ch.canRecv() : c.ch.canSend();
}
