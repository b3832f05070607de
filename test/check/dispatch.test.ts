// The checker's dispatch (src/check/dispatch.ts): each monitor is shown exactly the record kinds it
// declares, a monitor that watches the clock learns the time at the others, and a read of a field
// a monitor did not declare is caught: in a table here, and for every registered invariant over
// every bundled scenario (strict reads).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MonitorDispatch, type UndeclaredRead } from "../../src/check/dispatch.ts";
import { Checker } from "../../src/check/checker.ts";
import { INVARIANTS } from "../../src/check/invariants.ts";
import type { InvariantMonitor, RecordReads, Violation } from "../../src/check/invariants/common.ts";
import { makePlan } from "../../src/explore/plan.ts";
import { runSeed } from "../../src/explore/seeds.ts";
import { compileRawOrThrow } from "../../src/explore/raw.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { simulate } from "../../src/simulate.ts";
import type { TraceRecord } from "../../src/sim/index.ts";
import { bundledScenarios, ROOT } from "../cli/golden_table.ts";

/** A monitor that notes what it is shown: "A@0" for an observed record, "~5" for the time alone. */
class Probe implements InvariantMonitor {
  readonly seen: string[] = [];
  constructor(
    readonly id: string,
    decl: { reads?: RecordReads; kinds?: readonly string[]; advance?: boolean },
  ) {
    if (decl.reads !== undefined) Object.assign(this, { reads: decl.reads });
    if (decl.kinds !== undefined) Object.assign(this, { kinds: decl.kinds });
    if (decl.advance === true) Object.assign(this, { advance: (t: number) => (this.seen.push(`~${t}`), null) });
  }
  observe(rec: TraceRecord): Violation | null {
    this.seen.push(`${rec.kind}@${rec.t}`);
    return null;
  }
}

const rec = (t: number, kind: string, fields: Record<string, unknown> = {}): TraceRecord => ({ t, seq: 0, component: "c", kind, ...fields });
/** A at 0, B at 0, C at 5, D (nobody's) at 5 and 7, A at 7. */
const RECORDS = [rec(0, "A"), rec(0, "B"), rec(5, "C"), rec(5, "D"), rec(7, "D"), rec(7, "A")];

describe("the checker's dispatch", () => {
  it.each<[string, ConstructorParameters<typeof Probe>[1], string[]]>([
    ["reads declares A", { reads: { A: ["x"] } }, ["A@0", "A@7"]],
    ["reads declares A and C", { reads: { A: [], C: [] } }, ["A@0", "C@5", "A@7"]],
    ["the older kinds form", { kinds: ["B"] }, ["B@0"]],
    ["nothing declared: every record", {}, ["A@0", "B@0", "C@5", "D@5", "D@7", "A@7"]],
    ["an empty declaration: no record", { reads: {} }, []],
    // Told the time once per instant at the kinds it does not read, and observes its own.
    ["a clock watcher reading C", { reads: { C: [] }, advance: true }, ["~0", "C@5", "~5", "~7"]],
  ])("%s", (_name, decl, seen) => {
    const p = new Probe("p", decl);
    const d = new MonitorDispatch([p], {});
    for (const r of RECORDS) d.deliver(r, () => {});
    expect(p.seen).toEqual(seen);
  });

  it("builds only the kinds someone reads, and every kind when one monitor reads everything", () => {
    expect([...new MonitorDispatch([new Probe("a", { reads: { A: [] } }), new Probe("b", { kinds: ["B"] })]).kinds!].sort()).toEqual(["A", "B"]);
    expect(new MonitorDispatch([new Probe("a", { reads: { A: [] } }), new Probe("all", {})]).kinds).toBeUndefined();
  });

  it("shows every monitor every record in the reference mode", () => {
    const p = new Probe("p", { reads: { A: [] }, advance: true });
    const d = new MonitorDispatch([p], { everything: true });
    for (const r of RECORDS) d.deliver(r, () => {});
    expect(p.seen).toEqual(RECORDS.map((r) => `${r.kind}@${r.t}`));
  });

  it("asks a clock watcher again at the same instant only after it found something", () => {
    let due = 2;
    const calls: number[] = [];
    const m: InvariantMonitor = {
      id: "deadlines",
      reads: {},
      observe: () => null,
      advance: (t) => (calls.push(t), due-- > 0 ? { invariant: "deadlines", t, pod: "p", message: `due ${due}` } : null),
    };
    const found: string[] = [];
    const d = new MonitorDispatch([m]);
    for (let i = 0; i < 4; i++) d.advance(3, (v) => found.push(v.message));
    d.deliver(rec(3, "A"), (v) => found.push(v.message));
    expect(found).toEqual(["due 1", "due 0"]);
    expect(calls).toEqual([3, 3, 3]);
  });

  it("tells a clock watcher the time only while it holds deadlines, unless in the reference mode", () => {
    const deadlines = { size: 0 };
    const calls: string[] = [];
    const m: InvariantMonitor = {
      id: "deadlines",
      reads: { A: [] },
      deadlines,
      observe: (r) => (calls.push(`${r.kind}@${r.t}`), null),
      advance: (t) => (calls.push(`~${t}`), null),
    };
    const d = new MonitorDispatch([m]);
    d.deliver(rec(1, "B"), () => {});
    d.advance(2, () => {});
    deadlines.size = 1;
    d.deliver(rec(3, "B"), () => {});
    d.advance(4, () => {});
    d.deliver(rec(5, "A"), () => {});
    deadlines.size = 0;
    d.advance(6, () => {});
    expect(calls).toEqual(["~3", "~4", "A@5"]);
    calls.length = 0;
    const ref = new MonitorDispatch([m], { everything: true });
    ref.deliver(rec(7, "B"), () => {});
    ref.advance(8, () => {});
    expect(calls).toEqual(["B@7", "~8"]);
  });

  it("catches a read of an undeclared field, and an enumeration of all of them", () => {
    const reads: UndeclaredRead[] = [];
    const m: InvariantMonitor = {
      id: "nosy",
      reads: { A: ["x"] },
      observe: (r) => {
        void [r.t, r.component, r.kind, r.x, r.y];
        if ("z" in r) return null;
        void { ...r };
        return null;
      },
    };
    const d = new MonitorDispatch([m], { onUndeclaredRead: (r) => reads.push(r) });
    d.deliver(rec(0, "A", { x: 1, y: 2 }), () => {});
    expect([...new Set(reads.map((r) => `${r.reader} ${r.kind}.${r.field}`))]).toEqual(["nosy A.y", "nosy A.z", "nosy A.(every field)"]);
  });
});

describe("every registered invariant declares what it reads", () => {
  it("as reads (kinds and fields), not the older kinds form", () => {
    const { scenario } = loadScenarioFile(join(ROOT, "scenarios/default.yaml"));
    const monitors = INVARIANTS.map((i) => i.make(scenario));
    expect(monitors.filter((m) => m.reads === undefined || m.kinds !== undefined).map((m) => m.id)).toEqual([]);
  });

  // The dispatch table is kept across runs while the declarations are the same objects: a monitor
  // that built its `reads` per instance made every run of an exploration compile the table again.
  it("in one object shared by every monitor it makes, so the dispatch table is compiled once", () => {
    const { scenario } = loadScenarioFile(join(ROOT, "scenarios/default.yaml"));
    const fresh = INVARIANTS.filter((i) => i.make(scenario).reads !== i.make(scenario).reads).map((i) => i.id);
    expect(fresh).toEqual([]);
  });

  // Every bundled scenario (the races under their buggy and their fixed kubelet), a fifo run and a
  // pct run, every record built: a strict checker with every invariant reports no undeclared read.
  const files = bundledScenarios();
  const cases = [...files.map((f) => [f, undefined] as const), ...files.filter((f) => f.startsWith("scenarios/races/")).map((f) => [f, "1.30"] as const)];
  it.each(cases)("in %s (kubelet %s), no monitor reads a field it did not declare", (file, version) => {
    const plan = makePlan({ source: { file: join(ROOT, file) }, strategy: "pct", seed: 3, ...(version === undefined ? {} : { kubelet: { version } }) });
    const scenario = compileRawOrThrow(plan.raw, plan.file);
    const undeclared = new Set<string>();
    if (plan.strategy.name === "guided") throw new Error("the plan asked for pct");
    for (const strategy of [{ name: "fifo" } as const, plan.strategy]) {
      const strict = new Checker(scenario, INVARIANTS.map((i) => i.id), { byKind: true, onUndeclaredRead: (r) => undeclared.add(`${r.reader} read ${r.kind}.${r.field}`) });
      simulate(scenario, { seed: runSeed(plan.seed, 0), strategy, sinks: [strict], keepRecords: false, hash: true });
    }
    expect([...undeclared].sort()).toEqual([]);
  });
});
