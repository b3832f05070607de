// hunt-speed under `--against`: every hunt form of the new tree explored by each tree's own CLI
// (the same file on both, so the same workload), form by form, both trees back to back (which one
// first alternates from pair to pair), `repeat` times. One
// figure per form (the exploration's own runs/s), then the slowest form, the geometric mean over
// the forms, and the geometric mean of the runs per second of the whole commands' CPU time (which
// a busy machine disturbs least). A form the old tree cannot explore (a form newer than it) is
// printed without a ratio, with the reason.
import { join } from "node:path";
import { exploreRate, formName, huntExploreArgs } from "../hunt.ts";
import { compare, geomean, median, unmeasured, type Comparison } from "./compare.ts";
import { pairOrder, type LineContext, type Side } from "./context.ts";

/** Issue 21's goal for every hunt form. */
export const HUNT_GOAL_RUNS_PER_SEC = 300;

interface FormSamples {
  form: string;
  /** The exploration's own runs/s, per pair. */
  old: number[];
  new: number[];
  /** Runs per second of the whole command's CPU time, per pair. */
  oldCpu: number[];
  newCpu: number[];
  failed: { old: string | null; new: string | null };
}

export async function huntSpeed(ctx: LineContext): Promise<Comparison[]> {
  const runs = ctx.sizes.huntRuns;
  const forms: FormSamples[] = ctx.huntForms.map((file) => ({ form: formName(file), old: [], new: [], oldCpu: [], newCpu: [], failed: { old: null, new: null } }));
  const rates = async (side: Side, file: string) => {
    const r = await side.cli(huntExploreArgs(file, runs, join(ctx.workDir, "hunt-out")));
    return { wall: exploreRate(`the ${side.label} tree's explore ${formName(file)}`, r, runs, true), cpu: runs / (r.cpuMs / 1000) };
  };
  for (let i = 0; i < ctx.repeat; i++) {
    for (const [k, file] of ctx.huntForms.entries()) {
      const s = forms[k]!;
      ctx.progress(`hunt-speed: ${s.form} (${k + 1} of ${forms.length}), pair ${i + 1} of ${ctx.repeat}`);
      for (const side of pairOrder(i, ctx.old, ctx.new)) {
        if (s.failed[side.label] !== null) continue;
        try {
          const r = await rates(side, file);
          s[side.label].push(r.wall);
          s[side.label === "old" ? "oldCpu" : "newCpu"].push(r.cpu);
        } catch (err) {
          s.failed[side.label] = (err as Error).message;
        }
      }
    }
  }
  const figure = (s: FormSamples) => `${s.form} runs/s`;
  const perForm = forms.map((s) => {
    const why = s.failed.new ?? s.failed.old;
    return why === null ? compare("hunt-speed", figure(s), "higher", s.old, s.new) : unmeasured("hunt-speed", figure(s), "higher", why, s.old, s.new);
  });
  return [...perForm, ...summary(forms.filter((s) => s.failed.old === null && s.failed.new === null), ctx.repeat)];
}

/** The slowest form and the geometric mean, per pair, over the forms measured on both trees. */
function summary(forms: readonly FormSamples[], pairs: number): Comparison[] {
  if (forms.length === 0) return [unmeasured("hunt-speed", "slowest form runs/s", "higher", "no form was measured on both trees")];
  const slowestOf = (side: "old" | "new", i: number) => forms.reduce((a, b) => (b[side][i]! < a[side][i]! ? b : a));
  const byMedian = (side: "old" | "new") => forms.reduce((a, b) => (median(b[side]) < median(a[side]) ? b : a));
  const indices = Array.from({ length: pairs }, (_, i) => i);
  const note = `slowest by median: ${byMedian("old").form} on the old tree, ${byMedian("new").form} on the new; goal: ≥ ${HUNT_GOAL_RUNS_PER_SEC} runs/s on every form`;
  return [
    compare("hunt-speed", "slowest form runs/s", "higher", indices.map((i) => slowestOf("old", i).old[i]!), indices.map((i) => slowestOf("new", i).new[i]!), note),
    compare("hunt-speed", `geometric mean runs/s (${forms.length} form${forms.length === 1 ? "" : "s"})`, "higher", indices.map((i) => geomean(forms.map((f) => f.old[i]!))), indices.map((i) => geomean(forms.map((f) => f.new[i]!)))),
    compare("hunt-speed", "geometric mean runs per CPU second", "higher", indices.map((i) => geomean(forms.map((f) => f.oldCpu[i]!))), indices.map((i) => geomean(forms.map((f) => f.newCpu[i]!))), "the whole commands' CPU time, start-up and pct's calibration run included"),
  ];
}
