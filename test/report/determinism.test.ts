// Renderers are pure: the same records give byte-identical output, whether passed as an array, a
// one-shot iterable, or read back from JSON lines.
import { describe, expect, it } from "vitest";
import { FORMATS, render, type TraceRecord } from "../../src/report/index.ts";
import { lifecycle } from "./fixture.ts";

/** The HTML view needs its page script; any text stands in for it here (the browser tests use the real one). */
const SCRIPT = { clientScript: "/* the page script */" };

function* once(records: readonly TraceRecord[]): Generator<TraceRecord> {
  yield* records;
}

describe("determinism", () => {
  it.each(FORMATS)("%s renders the same bytes twice, from an array or an iterable", (format) => {
    const first = render(format, lifecycle, SCRIPT);
    expect(render(format, lifecycle, SCRIPT)).toBe(first);
    expect(render(format, once(lifecycle), SCRIPT)).toBe(first);
    expect(first.endsWith("\n")).toBe(true);
  });

  it.each(FORMATS)("%s renders a trace read back from JSON lines like the original", (format) => {
    const readBack = render("jsonl", lifecycle).split("\n").slice(0, -1).map((l) => JSON.parse(l) as TraceRecord);
    expect(render(format, readBack, { verbosity: "all", events: true, ...SCRIPT })).toBe(render(format, lifecycle, { verbosity: "all", events: true, ...SCRIPT }));
  });

  it("does not mutate the records it renders", () => {
    const frozen = lifecycle.map((r) => Object.freeze({ ...r }));
    for (const format of FORMATS) expect(() => render(format, frozen, SCRIPT)).not.toThrow();
  });

  it("refuses an unknown format", () => {
    expect(() => render("svg" as never, lifecycle)).toThrow(/unknown format "svg"/);
  });
});
