// `npm run bench -- --against REV`: builds REV in a temporary worktree, then runs each line on the
// old tree and on this one alternately and prints, per figure, both values and the ratio new/old,
// with both commits and the host (docs/BENCHMARKS.md says how to read it). The worktree, the
// measuring processes and the temporary files are removed at the end, also on Ctrl-C.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { BenchArgs } from "../args.ts";
import { huntForms } from "../hunt.ts";
import { unmeasured, type Comparison } from "./compare.ts";
import { DEFAULT_SIZES, Side, TINY_SIZES, type LineContext } from "./context.ts";
import { comparisonJson, comparisonText, footerText, headerText, hostJson, type RunInfo } from "./format.ts";
import { LINES } from "./lines.ts";
import { killChildren } from "./proc.ts";
import { TempTree, commitInfo, npm } from "./worktree.ts";

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

const ROOT = join(import.meta.dirname, "..", "..", "..");
const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** The whole command; resolves to the exit code (0, or 1 when a line could not be measured). */
export async function runAgainst(args: BenchArgs & { against: string }, io: Io): Promise<number> {
  const startMs = performance.now();
  const progress = (text: string) => io.err(`bench: ${text}\n`);
  const oldInfo = await commitInfo(ROOT, args.against, false);
  const newInfo = await commitInfo(ROOT, "HEAD", true);
  const forms = args.lines.includes("hunt-speed") ? huntForms(ROOT, args.forms ?? (args.tiny ? ["r01"] : null)) : [];
  const workDir = mkdtempSync(join(tmpdir(), "kubelet-sim-against-work-"));
  let tree: TempTree | null = null;
  const sides: Side[] = [];
  const cleanUp = () => {
    killChildren();
    tree?.remove();
    rmSync(workDir, { recursive: true, force: true });
  };
  const onSignal = (signal: keyof typeof SIGNALS) => {
    io.err(`\nbench: ${signal}: stopping, removing the temporary worktree\n`);
    cleanUp();
    process.exit(SIGNALS[signal]);
  };
  for (const s of Object.keys(SIGNALS) as (keyof typeof SIGNALS)[]) process.on(s, onSignal);
  try {
    progress(`checking out ${oldInfo.commit.slice(0, 10)} in a temporary worktree`);
    tree = await TempTree.add(ROOT, oldInfo.commit);
    progress(`${tree.root}: dependencies by ${await tree.install()}; npm run build`);
    await npm(["run", "build"], tree.root);
    if (args.build) {
      progress("npm run build in this tree");
      await npm(["run", "build"], ROOT);
    }
    const buildSeconds = (performance.now() - startMs) / 1000;
    const oldSide = new Side("old", tree.root);
    const newSide = new Side("new", ROOT);
    sides.push(oldSide, newSide);
    const info: RunInfo = {
      old: oldInfo, new: newInfo, repeat: args.repeat, seconds: null, buildSeconds,
      host: { cpu: cpus()[0]?.model.trim() ?? "unknown", cores: cpus().length, node: process.version, loadAverageStart: loadavg(), loadAverageEnd: null },
    };
    if (!args.json) io.out(`${headerText(info)}\n`);
    const ctx: LineContext = { old: oldSide, new: newSide, repeat: args.repeat, sizes: args.tiny ? TINY_SIZES : DEFAULT_SIZES, huntForms: forms, workDir, progress };
    let failed = false;
    for (const name of args.lines as (keyof typeof LINES)[]) {
      let rows: Comparison[];
      try {
        rows = await LINES[name](ctx);
      } catch (err) {
        failed = true;
        rows = [unmeasured(name, "(the whole line)", "higher", `failed: ${(err as Error).message}`)];
      }
      for (const c of rows) io.out(`${args.json ? comparisonJson(c, info) : comparisonText(c)}\n`);
    }
    info.host.loadAverageEnd = loadavg();
    info.seconds = (performance.now() - startMs) / 1000;
    io.out(`${args.json ? hostJson(info) : footerText(info)}\n`);
    return failed ? 1 : 0;
  } finally {
    for (const s of sides) await s.stop();
    cleanUp();
    for (const s of Object.keys(SIGNALS) as (keyof typeof SIGNALS)[]) process.off(s, onSignal);
  }
}
