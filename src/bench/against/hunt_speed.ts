// hunt-speed under `--against`: every hunt form of the new tree explored by each tree's own CLI
// (the same file on both, so the same workload), form by form, both trees back to back (which one
// first alternates from pair to pair), `repeat` times. Two figures per form: the exploration's own
// runs/s (wall time, the figure of issue 21's goal) and the runs per second of the whole command's
// CPU time (which a busy machine disturbs far less); then the slowest form and the geometric mean
// over the forms, by each. A form the old tree cannot explore (a form newer than it) is printed
// without a ratio, with the reason.
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
  const perForm = forms.flatMap((s) => {
    const why = s.failed.new ?? s.failed.old;
    const wall = `${s.form} runs/s`;
    const cpu = `${s.form} runs per CPU second`;
    if (why !== null) return [unmeasured("hunt-speed", wall, "higher", why, s.old, s.new), unmeasured("hunt-speed", cpu, "higher", why, s.oldCpu, s.newCpu)];
    return [compare("hunt-speed", wall, "higher", s.old, s.new), compare("hunt-speed", cpu, "higher", s.oldCpu, s.newCpu)];
  });
  return [...perForm, ...summary(forms.filter((s) => s.failed.old === null && s.failed.new === null), ctx.repeat)];
}

type Rates = "old" | "new" | "oldCpu" | "newCpu";

/** The slowest form and the geometric mean, per pair, by wall and by CPU time, over the forms measured on both trees. */
function summary(forms: readonly FormSamples[], pairs: number): Comparison[] {
  if (forms.length === 0) return [unmeasured("hunt-speed", "slowest form runs/s", "higher", "no form was measured on both trees")];
  const indices = Array.from({ length: pairs }, (_, i) => i);
  const slowestOf = (k: Rates, i: number) => Math.min(...forms.map((f) => f[k][i]!));
  const slowestByMedian = (k: Rates) => forms.reduce((a, b) => (median(b[k]) < median(a[k]) ? b : a)).form;
  const slowest = (k: "old" | "oldCpu", n: "new" | "newCpu") => [indices.map((i) => slowestOf(k, i)), indices.map((i) => slowestOf(n, i))] as const;
  const mean = (k: "old" | "oldCpu", n: "new" | "newCpu") => [indices.map((i) => geomean(forms.map((f) => f[k][i]!))), indices.map((i) => geomean(forms.map((f) => f[n][i]!)))] as const;
  const count = `${forms.length} form${forms.length === 1 ? "" : "s"}`;
  return [
    compare("hunt-speed", "slowest form runs/s", "higher", ...slowest("old", "new"),
      `slowest by median: ${slowestByMedian("old")} on the old tree, ${slowestByMedian("new")} on the new; goal: ≥ ${HUNT_GOAL_RUNS_PER_SEC} runs/s on every form`),
    compare("hunt-speed", "slowest form runs per CPU second", "higher", ...slowest("oldCpu", "newCpu"),
      `slowest by median: ${slowestByMedian("oldCpu")} on the old tree, ${slowestByMedian("newCpu")} on the new`),
    compare("hunt-speed", `geometric mean runs/s (${count})`, "higher", ...mean("old", "new")),
    compare("hunt-speed", "geometric mean runs per CPU second", "higher", ...mean("oldCpu", "newCpu"), "the whole commands' CPU time, start-up and pct's calibration run included"),
  ];
}
