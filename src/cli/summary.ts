// What `run` prints after the outputs: one PASS/FAIL line per expectation, the invariant
// violations, and the verdict line; and, when the run itself went wrong, the diagnosis.
import { formatDuration, isFailureVerdict } from "../sim/index.ts";
import { formatClock } from "../report/index.ts";
import type { SimulationResult } from "../simulate.ts";
import type { Palette } from "./colour.ts";

/** The expectations, the violations and the verdict, as lines ending in a newline. */
export function renderSummary(result: SimulationResult, p: Palette): string {
  const { expectations, failed, violations } = result.checks;
  const lines: string[] = [];
  const clocks = expectations.map((e) => (e.atMs === null ? "-" : formatClock(e.atMs)));
  const width = Math.max(0, ...clocks.map((c) => c.length));
  if (expectations.length === 0) lines.push("expectations: none (the scenario states none)");
  else lines.push(`expectations (${expectations.length - failed.length} of ${expectations.length} held):`);
  expectations.forEach((e, i) => {
    const mark = e.ok ? p.green("PASS") : p.red("FAIL");
    lines.push(`  ${mark}  ${clocks[i]!.padStart(width)}  ${e.text}`);
    if (e.observed !== null) lines.push(`        ${" ".repeat(width)}  ${p.dim(`seen at ${formatDuration(e.observed.atMs)}:`)} ${e.observed.text}`);
  });
  if (violations.length > 0) lines.push("invariant violations:");
  for (const v of violations) {
    lines.push(`  ${p.red("VIOLATED")}  ${formatClock(v.t)}  ${v.invariant}: ${v.pod}: ${v.message}`);
  }
  lines.push(verdictLine(result, p));
  return `${lines.join("\n")}\n`;
}

function verdictLine(result: SimulationResult, p: Palette): string {
  const { run, checks } = result;
  const how = `the run ended at ${formatClock(run.endMs)} (${run.verdict}) after ${run.events} events; trace ${run.traceHash}`;
  if (isFailureVerdict(run.verdict)) return `verdict: ${p.red(p.bold("ERROR"))}  ${how}; the diagnosis is on stderr`;
  if (!result.ok) {
    const n = checks.failed.length;
    return `verdict: ${p.red(p.bold("FAIL"))}  ${n} of ${checks.expectations.length} expectation${checks.expectations.length === 1 ? "" : "s"} failed; ${how}`;
  }
  return `verdict: ${p.green(p.bold("PASS"))}  every expectation held; ${how}`;
}

/** For a run that deadlocked, livelocked, panicked, hit a bound or diverged: what and where. */
export function renderDiagnosis(result: SimulationResult, replayKey: string, p: Palette): string {
  const { run } = result;
  const why = run.verdict === "diverged" ? "the recorded choices no longer fit this run" : "a bug in kubelet-sim or its models";
  const lines = [
    `kubelet-sim: ${p.red(`the run ended with verdict ${run.verdict}`)} at ${formatClock(run.endMs)}, ${why}:`,
    // The kernel ends its diagnosis with its own replay key; ours (below) also carries --until.
    ...(run.diagnosis ?? "(no diagnosis)")
      .split("\n")
      .filter((l) => !l.startsWith("replay: "))
      .map((l) => `  ${l}`),
    `replay: ${replayKey}`,
  ];
  return `${lines.join("\n")}\n`;
}
