// The timeline model behind the HTML view and the Trace Event export: spans laid out so that each
// track nests, lanes per goroutine, pods' bands, and violations linked to the records they name.
// The run-based checks go over every race of the catalog, whatever races it holds.
import { describe, expect, it } from "vitest";
import { buildTimeline } from "../../src/report/index.ts";
import { layoutSpans, type Span } from "../../src/report/timeline/spans.ts";
import { RACES, raceRun } from "./timeline_fixture.ts";

type Draft = Parameters<typeof layoutSpans>[0][number];
const d = (startMs: number, endMs: number, name: string, lane = 0): Draft => ({ lane, startMs, endMs, name, source: "record", seq: -1, beginSeq: -1, open: false });
const placed = (spans: Span[]) => Object.fromEntries(spans.map((s) => [s.name, [s.track, s.depth]]));

describe("layoutSpans", () => {
  it.each([
    { why: "nested spans share a track, one deeper", spans: [d(0, 10, "a"), d(2, 5, "b")], want: { a: [0, 0], b: [0, 1] } },
    { why: "spans one after the other stay on top", spans: [d(0, 10, "a"), d(10, 20, "b")], want: { a: [0, 0], b: [0, 0] } },
    { why: "equal spans nest", spans: [d(0, 10, "a"), d(0, 10, "b")], want: { a: [0, 0], b: [0, 1] } },
    { why: "a span crossing another's end goes to a second track", spans: [d(0, 10, "a"), d(5, 15, "b")], want: { a: [0, 0], b: [1, 0] } },
    { why: "the longer of two spans starting together is the parent", spans: [d(0, 5, "short"), d(0, 10, "long")], want: { long: [0, 0], short: [0, 1] } },
    { why: "a third crossing span finds the first track free again", spans: [d(0, 10, "a"), d(5, 15, "b"), d(12, 20, "c")], want: { a: [0, 0], b: [1, 0], c: [0, 0] } },
    { why: "lanes are laid out apart", spans: [d(0, 10, "a", 0), d(5, 15, "b", 1)], want: { a: [0, 0], b: [0, 0] } },
  ])("$why", ({ spans, want }) => {
    expect(placed(layoutSpans(spans))).toEqual(want);
  });
});

/** Whether the message names a linked record: its instant (or its call's start), or an id it carries. */
function named(message: string, rec: Record<string, unknown> & { t: number }, violationMs: number): boolean {
  const instants = [...message.matchAll(/(\d+)ms/g)].map((m) => Number(m[1]));
  const took = typeof rec.tookMs === "number" ? rec.tookMs : typeof rec.durationMs === "number" ? rec.durationMs : 0;
  const starts = [rec.t, rec.t - took, typeof rec.sinceMs === "number" ? rec.sinceMs : rec.t];
  if (starts.some((t) => instants.includes(t)) || rec.t === violationMs) return true;
  return ["newId", "uid", "id", "containerID"].some((f) => typeof rec[f] === "string" && message.includes(rec[f] as string));
}

describe.each(RACES.map((r) => [r.id, r] as const))("the timeline of %s (buggy)", (_id, race) => {
  const run = raceRun(race);
  const model = buildTimeline(run);

  it("has one lane per goroutine, and a lane for every record but the kernel's own", () => {
    expect(model.lanes.filter((l) => l.proc !== null).map((l) => l.proc).sort((a, b) => a! - b!)).toEqual(run.kernel.procs.map((p) => p.id));
    const marked = new Set(model.marks.map((m) => m.seq));
    for (const rec of run.records) expect(marked.has(rec.seq) || rec.component === "sim").toBe(true);
  });

  it("lays out spans so that every track of every lane nests", () => {
    const byTrack = new Map<string, Span[]>();
    for (const s of model.spans) byTrack.set(`${s.lane}:${s.track}`, [...(byTrack.get(`${s.lane}:${s.track}`) ?? []), s]);
    const crossings: string[] = [];
    for (const spans of byTrack.values()) {
      const sorted = [...spans].sort((a, b) => a.startMs - b.startMs || b.endMs - a.endMs);
      const open: Span[] = [];
      for (const s of sorted) {
        while (open.length > 0 && open[open.length - 1]!.endMs <= s.startMs) open.pop();
        const top = open[open.length - 1];
        if (top !== undefined && s.endMs > top.endMs) crossings.push(`${s.name} [${s.startMs},${s.endMs}] crosses ${top.name} [${top.startMs},${top.endMs}]`);
        open.push(s);
      }
    }
    expect(crossings).toEqual([]);
    expect(model.spans.every((s) => s.endMs > s.startMs)).toBe(true);
  });

  it(`marks the ${race.invariant} violation and links the records its message names`, () => {
    const v = model.violations.find((x) => x.invariant === race.invariant);
    expect(v, "the violation").toBeDefined();
    expect(v!.links.length).toBeGreaterThan(0);
    for (const seq of v!.links) {
      const rec = run.records.find((r) => r.seq === seq)!;
      expect(named(v!.message, rec, v!.t), `${rec.kind} at ${rec.t} named by "${v!.message}"`).toBe(true);
    }
    // The narrowed view: the lanes of the linked records and of the checker, a handful of actors.
    const laneOf = (seq: number) => model.marks.find((m) => m.seq === seq)!.lane;
    expect(v!.lanes).toEqual([...new Set([...v!.links, v!.seq].map(laneOf))].sort((a, b) => a - b));
    expect(v!.lanes.length).toBeLessThanOrEqual(5);
  });

  it(`shows ${race.pod} as kubectl get did, one segment after another`, () => {
    const band = model.pods.find((b) => b.pod === race.pod);
    expect(band).toBeDefined();
    for (let i = 1; i < band!.segments.length; i++) expect(band!.segments[i]!.startMs).toBeGreaterThanOrEqual(band!.segments[i - 1]!.endMs);
    expect(band!.segments.every((s) => /^\S+ \d+\/\d+$/.test(s.state))).toBe(true);
  });

  it("draws hand-offs between lanes forward in time, and every choice point of the run", () => {
    for (const a of model.arrows) {
      expect(model.lanes[a.from]).toBeDefined();
      expect(model.lanes[a.to]).toBeDefined();
      expect(a.toMs).toBeGreaterThanOrEqual(a.fromMs);
    }
    expect(model.arrows.length).toBeGreaterThan(0);
    expect(model.choices.length).toBe(run.kernel.choices.length);
  });
});

describe("the timeline without the kernel's view", () => {
  it("falls back to a lane per component, spans from the records' durations", () => {
    const run = raceRun(RACES[0]!);
    const model = buildTimeline({ records: run.records });
    expect(model.byGoroutine).toBe(false);
    expect(new Set(model.lanes.map((l) => l.name))).toEqual(new Set(run.records.filter((r) => r.component !== "sim").map((r) => r.component)));
    expect(model.spans.some((s) => s.name === "PullImage")).toBe(true);
    expect(model.arrows).toEqual([]);
  });
});
