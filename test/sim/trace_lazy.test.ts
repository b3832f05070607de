// Lazy records (src/sim/trace.ts): kinds no sink reads are not built unless the trace is hashed;
// sinks that watch time are told the time of each record they did not read.
import { describe, expect, it } from "vitest";
import { Trace, type TraceRecord, type TraceSink } from "../../src/sim/trace.ts";

class Reader implements TraceSink {
  readonly wantsLines = false;
  readonly seen: string[] = [];
  readonly advanced: number[] = [];
  constructor(readonly kinds?: ReadonlySet<string>) {}
  write(rec: TraceRecord): void {
    this.seen.push(`${rec.t}:${rec.kind}`);
  }
  advance(t: number): void {
    this.advanced.push(t);
  }
}

function feed(t: Trace): void {
  t.emit(0, "c", "A");
  t.emit(0, "c", "B");
  t.emit(5, "c", "B");
  t.emit(5, "c", "B");
  t.emit(7, "c", "A");
  if (t.wants("B", 9)) t.emit(9, "c", "B");
}

describe("lazy records", () => {
  it("builds only the kinds the sinks read, and tells time-watching sinks the time of every dropped one", () => {
    const r = new Reader(new Set(["A"]));
    const t = new Trace([r], { hash: false });
    feed(t);
    expect(r.seen).toEqual(["0:A", "7:A"]);
    expect(r.advanced).toEqual([0, 5, 5, 9]);
    expect(t.wants("A", 10)).toBe(true);
    expect(t.recordCount).toBe(2);
  });

  it("builds every record when the trace is hashed or a sink reads every kind", () => {
    for (const t of [new Trace([new Reader(new Set(["A"]))], { hash: true }), new Trace([new Reader(new Set(["A"])), new Reader()], { hash: false })]) {
      feed(t);
      expect(t.recordCount).toBe(6);
      expect(t.wants("Z", 10)).toBe(true);
    }
  });
});
