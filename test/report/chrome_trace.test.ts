// The Trace Event Format export: it parses, every slice nests within its thread, hand-offs are
// flow pairs, tracks are named per goroutine; and the checker it is held to catches what it must.
import { describe, expect, it } from "vitest";
import { renderChromeTrace } from "../../src/report/index.ts";
import { RACES, raceRun } from "./timeline_fixture.ts";
import { checkTraceEventFormat, type TefEvent } from "./trace_event_format.ts";

describe.each(RACES.map((r) => [r.id, r] as const))("the chrome-trace export of %s (buggy)", (_id, race) => {
  const run = raceRun(race);
  const text = renderChromeTrace(run);
  const events = (JSON.parse(text) as { traceEvents: TefEvent[] }).traceEvents;

  it("is sound Trace Event Format: fields per phase, named tracks, nesting, flow pairs", () => {
    expect(checkTraceEventFormat(text)).toEqual([]);
  });

  it("names a thread for every goroutine and draws its spans, records and hand-offs", () => {
    const threads = events.filter((e) => e.ph === "M" && e.name === "thread_name").map((e) => String(e.args!.name));
    for (const p of run.kernel.procs) expect(threads.some((t) => t.startsWith(`${p.name} (goroutine ${p.id}`)), p.name).toBe(true);
    expect(events.filter((e) => e.ph === "X").length).toBeGreaterThan(0);
    expect(events.filter((e) => e.ph === "i" && e.s === "t").length).toBeGreaterThanOrEqual(run.records.length - 2);
    expect(events.filter((e) => e.ph === "s").length).toBe(run.kernel.handoffs.length);
    expect(events.some((e) => e.ph === "i" && e.s === "g" && e.name === `VIOLATED ${race.invariant}`)).toBe(true);
  });

  it("is deterministic", () => {
    expect(renderChromeTrace(run)).toBe(text);
  });
});

describe("the Trace Event Format checker", () => {
  const meta: TefEvent[] = [
    { ph: "M", name: "process_name", pid: 1, args: { name: "p" } },
    { ph: "M", name: "thread_name", pid: 1, tid: 1, args: { name: "t" } },
  ];
  const doc = (events: TefEvent[]) => JSON.stringify({ traceEvents: [...meta, ...events] });

  it.each([
    { why: "crossing slices on one thread", events: [{ ph: "X", name: "a", pid: 1, tid: 1, ts: 0, dur: 10 }, { ph: "X", name: "b", pid: 1, tid: 1, ts: 5, dur: 10 }], want: /crosses/ },
    { why: "a flow without its finish", events: [{ ph: "s", name: "c", pid: 1, tid: 1, ts: 0, id: 7 }], want: /flow 7/ },
    { why: "an unnamed thread", events: [{ ph: "i", s: "t", name: "x", pid: 1, tid: 2, ts: 0 }], want: /no thread_name/ },
    { why: "a slice without a duration", events: [{ ph: "X", name: "a", pid: 1, tid: 1, ts: 0 }], want: /dur/ },
  ] as { why: string; events: TefEvent[]; want: RegExp }[])("catches $why", ({ events, want }) => {
    expect(checkTraceEventFormat(doc(events)).join("\n")).toMatch(want);
  });

  it("accepts nested and back-to-back slices", () => {
    const events: TefEvent[] = [
      { ph: "X", name: "a", pid: 1, tid: 1, ts: 0, dur: 10 },
      { ph: "X", name: "b", pid: 1, tid: 1, ts: 0, dur: 4 },
      { ph: "X", name: "c", pid: 1, tid: 1, ts: 10, dur: 0 },
      { ph: "X", name: "d", pid: 1, tid: 1, ts: 10, dur: 5 },
    ];
    expect(checkTraceEventFormat(doc(events))).toEqual([]);
  });
});
