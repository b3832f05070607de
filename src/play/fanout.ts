// Several kernel observers as one: play mode watches a run for its step log, its choice count and,
// for a preview, one goroutine's stacks. Each part implements only the hooks it needs.
import type { KernelObserver } from "../sim/index.ts";

const HOOKS = ["spawn", "exit", "record", "timed", "blocked", "handoff", "choice", "end"] as const;

export function fanout(parts: readonly Partial<KernelObserver>[]): KernelObserver {
  const out: Record<string, (...args: never[]) => void> = {};
  for (const hook of HOOKS) {
    const fns = parts.flatMap((p) => (p[hook] === undefined ? [] : [(p[hook] as (...a: unknown[]) => void).bind(p)]));
    out[hook] = (...args: unknown[]) => {
      for (const fn of fns) fn(...args);
    };
  }
  return out as unknown as KernelObserver;
}
