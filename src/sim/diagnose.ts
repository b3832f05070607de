// Diagnoses for runs that went wrong, worded like Go's runtime where Go has words for it.
import type { Process } from "./process.ts";

/** Like Go's "fatal error: all goroutines are asleep - deadlock!", listing who waits on what. */
export function diagnoseStuck(stuck: readonly Process[], nowMs: number, replayKey: string): string {
  const lines = stuck
    .slice()
    .sort((a, b) => a.id - b.id)
    .map((p) => `  ${p.name} [${p.describeState()}]`);
  return [`all processes are asleep - deadlock! (t=${nowMs}ms)`, ...lines, `replay: ${replayKey}`].join("\n");
}

export function describePanic(p: Process, nowMs: number, err: unknown, replayKey: string): string {
  const msg = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const stack = err instanceof Error && err.stack !== undefined ? `\n${indentStack(err.stack)}` : "";
  return `panic in process ${p.name} at t=${nowMs}ms: ${msg}${stack}\nreplay: ${replayKey}`;
}

function indentStack(stack: string): string {
  return stack
    .split("\n")
    .slice(1, 8)
    .map((l) => `    ${l.trim()}`)
    .join("\n");
}
