// Which monitor calls do something: per monitor and record kind, how many observe calls change the
// monitor's state (its fields, walked deeply and compared before and after the call) or return a
// violation, over runs of the explore bench's scenario or of a race's hunt form (RunContext.runIndex
// over the compiled dist/, as scripts/ab-cpu.ts and scripts/census.ts run them). A developer tool:
// it wraps each invariant's `make` in this process only (the monitors decide as before; nothing it
// counts enters a run), and the checker's own readers (pod progress, Events) are not counted.
// Each advance call (time moved, for the monitors with deadlines) is counted the same way.
// Calls of a kind the monitor does not declare (the full runs' reference dispatch) are counted
// apart: by the monitors' contract they do nothing but learn the time.
//
//   npm run build && node --import tsx scripts/monitor-noops.ts [--explore 200] [--hunt r01,r10,r20] [--hunt-runs 40] [--top 40]
import { parseArgs } from "node:util";
import { join } from "node:path";
import { benchContexts } from "./bench_contexts.ts";

const { values } = parseArgs({
  options: {
    explore: { type: "string", default: "200" },
    hunt: { type: "string", default: "r01,r10,r20" },
    "hunt-runs": { type: "string", default: "40" },
    top: { type: "string", default: "40" },
    fields: { type: "boolean", default: false },
  },
});
const root = join(import.meta.dirname, "..");
const dist = (path: string) => import(join(root, "dist", `${path}.js`));

const { INVARIANTS } = await dist("check/invariants/index");
const { kindsOf } = await dist("check/dispatch");
const contexts = await benchContexts(root);

interface Row {
  calls: number;
  changed: number;
  violations: number;
  /** The record's value of each field the monitor declares, for the calls that did something and those that did not. */
  live: Map<string, number>;
  dead: Map<string, number>;
}
type Rec = Record<string, unknown> & { kind: string; t: number };

let rows = new Map<string, Row>();
let undeclared = 0;
let runs = 0;

/** Objects of the scenario (configuration the monitors keep and never change): not walked. */
const constant = new WeakSet<object>();
function markConstant(o: unknown, seen = new Set<object>()): void {
  if (typeof o !== "object" || o === null || seen.has(o)) return;
  seen.add(o);
  constant.add(o);
  for (const v of o instanceof Map ? [...o.keys(), ...o.values()] : o instanceof Set ? [...o] : Object.values(o)) markConstant(v, seen);
}

/** The state a monitor keeps, as a string: its fields, walked deeply (Maps and Sets in order). */
function snap(o: unknown, seen: Set<object>): string {
  if (typeof o === "function") return "f";
  if (typeof o !== "object" || o === null) return typeof o === "string" ? JSON.stringify(o) : String(o);
  if (constant.has(o)) return "c";
  if (seen.has(o)) return "^";
  seen.add(o);
  if (o instanceof Map) return `M{${[...o].map(([k, v]) => `${snap(k, seen)}:${snap(v, seen)}`).join(",")}}`;
  if (o instanceof Set) return `S{${[...o].map((v) => snap(v, seen)).join(",")}}`;
  if (Array.isArray(o)) return `[${o.map((v) => snap(v, seen)).join(",")}]`;
  return `{${Object.entries(o).map(([k, v]) => `${k}:${snap(v, seen)}`).join(",")}}`;
}

for (const info of INVARIANTS as { id: string; make: (s: object) => Record<string, unknown> }[]) {
  const make = info.make;
  info.make = (scenario: object) => {
    markConstant(scenario);
    const m = make(scenario);
    const kinds = kindsOf(m) as string[] | undefined;
    const reads = (m.reads ?? {}) as Record<string, string[]>;
    const observe = m.observe as (r: Rec) => unknown;
    m.observe = function (rec: Rec) {
      if (kinds !== undefined && !kinds.includes(rec.kind)) {
        undeclared++;
        return observe.call(m, rec);
      }
      const before = snap(m, new Set());
      const v = observe.call(m, rec);
      const changed = snap(m, new Set()) !== before;
      const key = `${rec.kind}\t${info.id}`;
      const row = rows.get(key) ?? { calls: 0, changed: 0, violations: 0, live: new Map(), dead: new Map() };
      rows.set(key, row);
      row.calls++;
      if (changed) row.changed++;
      if (v !== null) row.violations++;
      if (values.fields) {
        const into = changed || v !== null ? row.live : row.dead;
        for (const f of ["component", ...(reads[rec.kind] ?? [])]) {
          const val = rec[f];
          const s = `${f}=${typeof val === "object" ? (Array.isArray(val) ? `[${val.length}]` : typeof val) : String(val).slice(0, 20)}`;
          into.set(s, (into.get(s) ?? 0) + 1);
        }
      }
      return v;
    };
    const advance = m.advance as ((t: number) => unknown) | undefined;
    if (advance !== undefined) {
      m.advance = function (t: number) {
        const before = snap(m, new Set());
        const v = advance.call(m, t);
        const key = `(advance)\t${info.id}`;
        const row = rows.get(key) ?? { calls: 0, changed: 0, violations: 0, live: new Map(), dead: new Map() };
        rows.set(key, row);
        row.calls++;
        if (snap(m, new Set()) !== before) row.changed++;
        if (v !== null) row.violations++;
        return v;
      };
    }
    return m;
  };
}

function report(label: string): void {
  const all = [...rows.entries()].filter(([k]) => !k.startsWith("(advance)"));
  const adv = [...rows.entries()].filter(([k]) => k.startsWith("(advance)"));
  console.log(`\n===== ${label}: advance calls ${(adv.reduce((a, [, r]) => a + r.calls, 0) / runs).toFixed(1)} a run, of which change state or report ${(adv.reduce((a, [, r]) => a + Math.max(r.changed, r.violations), 0) / runs).toFixed(1)}`);
  for (const [k, r] of adv.sort((x, y) => y[1].calls - x[1].calls)) console.log(`  ${(r.calls / runs).toFixed(1).padStart(8)} ${(r.changed / runs).toFixed(2).padStart(8)} ${(r.violations / runs).toFixed(2).padStart(6)}  ${k.replace("\t", "  ")}`);
  const calls = all.reduce((a, [, r]) => a + r.calls, 0);
  const acting = all.reduce((a, [, r]) => a + Math.max(r.changed, r.violations), 0);
  console.log(`\n===== ${label}: ${runs} runs =====`);
  console.log(`declared-kind observe calls ${(calls / runs).toFixed(1)} a run, of which change state or report ${(acting / runs).toFixed(1)} (${((100 * acting) / Math.max(1, calls)).toFixed(0)}%); undeclared-kind calls (full runs) ${(undeclared / runs).toFixed(1)} a run`);
  const byKind = new Map<string, [number, number]>();
  for (const [k, r] of all) {
    const kind = k.split("\t")[0]!;
    const [c, a] = byKind.get(kind) ?? [0, 0];
    byKind.set(kind, [c + r.calls, a + Math.max(r.changed, r.violations)]);
  }
  console.log("by kind: calls a run, acting a run");
  for (const [kind, [c, a]] of [...byKind].sort((x, y) => y[1][0] - x[1][0])) console.log(`  ${(c / runs).toFixed(1).padStart(8)} ${(a / runs).toFixed(1).padStart(8)}  ${kind}`);
  console.log("by kind and monitor: calls a run, changed a run, violations a run");
  for (const [k, r] of all.sort((x, y) => y[1].calls - x[1].calls).slice(0, Number(values.top))) {
    console.log(`  ${(r.calls / runs).toFixed(2).padStart(8)} ${(r.changed / runs).toFixed(2).padStart(8)} ${(r.violations / runs).toFixed(2).padStart(6)}  ${k.replace("\t", "  ")}`);
    if (values.fields) {
      const fmt = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([s, n]) => `${s}:${(n / runs).toFixed(1)}`).join(" ");
      console.log(`      acting: ${fmt(r.live)}\n      no-op:  ${fmt(r.dead)}`);
    }
  }
}

function census(label: string, ctx: { runIndex(i: number): unknown }, n: number, warm: number): void {
  for (let i = 0; i < warm; i++) ctx.runIndex(100_000 + i);
  rows = new Map();
  undeclared = 0;
  runs = 0;
  for (let i = 0; i < n; i++) {
    ctx.runIndex(i);
    runs++;
  }
  report(label);
}

const exploreRuns = Number(values.explore);
if (exploreRuns > 0) {
  census("explore bench scenario (pct, lazy records)", contexts.explore(), exploreRuns, 5);
}
for (const form of values.hunt === "" ? [] : values.hunt.split(",")) {
  census(`hunt ${form}`, contexts.hunt(form), Number(values["hunt-runs"]), 5);
}
