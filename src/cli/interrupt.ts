// How a run of the command line stops on a signal (docs/cli.md, "Signals"): SIGINT, SIGTERM and
// SIGHUP end it between two slices (session.ts runs it in slices of bounded work, so the handler
// gets to run within a fraction of a second of CPU at any scale), with one line on stderr, and the
// process then dies of the signal, as it would have without a handler: a shell sees 130, 143 or
// 129. The temporary file of --out goes first (atomic.ts has its own handler for that); --record
// is written only after a run, so neither leaves anything behind.
import { writeSync } from "node:fs";
import { formatDuration } from "../sim/index.ts";

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** The line an interrupted run prints on stderr. */
export function interruptedLine(signal: string, virtualMs: number): string {
  return `kubelet-sim: ${signal}: the run stopped at ${formatDuration(virtualMs)} of virtual time, before its end; no output file was written\n`;
}

/**
 * Installs the handlers for the length of a run and returns what removes them. `nowMs` says where
 * the run stands, for the message. The handler removes itself before it re-sends the signal: with
 * no listener left (atomic.ts's removes itself the same way), the signal's default action ends the
 * process at once.
 */
export function stopRunOnSignal(nowMs: () => number): () => void {
  const uninstall = () => {
    for (const s of SIGNALS) process.off(s, onSignal);
  };
  function onSignal(signal: NodeJS.Signals): void {
    uninstall();
    say(interruptedLine(signal, nowMs()));
    process.kill(process.pid, signal);
  }
  for (const s of SIGNALS) process.on(s, onSignal);
  return uninstall;
}

/** Written at once, not queued behind a stream: the process is about to die. A closed terminal (SIGHUP) is no error. */
function say(line: string): void {
  try {
    writeSync(2, line);
  } catch {
    // Nobody to tell.
  }
}
