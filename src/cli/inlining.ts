// Smaller TurboFan inlining limits for `kubelet-sim explore` (docs/BENCHMARKS-history.md, "Less machine
// code (inline)"; docs/cli.md). V8's defaults (Node 20, V8 11.3:
// a callee of up to 460 bytes of bytecode, 920 in all for one function) inline deeply, which
// multiplies the machine code a run goes through; on this simulator the host's instruction cache,
// branch predictors and TLBs are a first-order cost, and optimizing compiles are charged to the
// process's CPU as well. A quarter of each limit made the explore bench and the hunt forms cheaper
// by CPU (figures in BENCHMARKS), with the same runs: inlining changes how a step is compiled,
// never what it does (the same trace hash, the same runsDigest). Only `explore`: a cluster's
// steady minutes cost more CPU with the smaller limits (its hot code gains from deep inlining),
// and the node line's steady minutes gained nothing, so `run`, `replay`, `diff` and `serve` keep
// V8's defaults.
//
// V8 reads these flags each time it optimizes a function, so `v8.setFlagsFromString` before the
// first optimization is enough: no second process (unlike the semi-space, young.ts). A `node`
// started again for a big run (a cluster's: big_run.ts) is given V8's own limits, so it keeps them;
// the flags are the process's, so `--jobs N` workers share them. Only the command: a program that
// imports the package keeps its own V8 flags. The user's own choice wins: any inlining flag in
// NODE_OPTIONS or on node's command line, and nothing is set.
import { setFlagsFromString } from "node:v8";

/** The flags set: a quarter of V8's --max-inlined-bytecode-size (460) and -cumulative (920). */
export const LESS_INLINING = ["--max-inlined-bytecode-size=115", "--max-inlined-bytecode-size-cumulative=230"] as const;

/**
 * V8's own limits, spelled out: what a big exploration's second process is started with (big_run.ts),
 * so that it keeps them (a user's choice, as far as lessInlining can tell).
 */
export const DEFAULT_INLINING = ["--max-inlined-bytecode-size=460", "--max-inlined-bytecode-size-cumulative=920"] as const;

/** The commands given the flags: an exploration's many short runs (the others run long or end before V8 optimizes much). */
export const SIMULATING_COMMANDS: ReadonlySet<string> = new Set(["explore"]);

/** An inlining flag chosen already by the user (NODE_OPTIONS, node's flags): V8's own spellings, - or _. */
export function inliningChosen(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env["NODE_OPTIONS"] ?? ""): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => /^--(no[-_])?(turbo[-_]inlining|max[-_]inlined[-_]bytecode[-_]size)/.test(a));
}

/** The flags `command` is run with, or null: not a simulating command, or the user chose. */
export function inliningFlagsFor(command: string | undefined, execArgv?: readonly string[], nodeOptions?: string): string | null {
  if (command === undefined || !SIMULATING_COMMANDS.has(command) || inliningChosen(execArgv, nodeOptions)) return null;
  return LESS_INLINING.join(" ");
}

/** Sets them for this process (`set`: V8's, or a test's stand-in); says which were set. */
export function lessInlining(command: string | undefined, set: (flags: string) => void = setFlagsFromString): string | null {
  const flags = inliningFlagsFor(command);
  if (flags !== null) set(flags);
  return flags;
}
