// JSON lines: exactly each record's canonical line, so a written trace reads back to equal records
// and hashes as the live run did.
import { describe, expect, it } from "vitest";
import { jsonLines, render } from "../../src/report/index.ts";
import { MemorySink, Trace } from "../../src/sim/trace.ts";
import { digestRecords } from "../../src/sim/digest.ts";
import { lifecycle } from "./fixture.ts";

describe("jsonl", () => {
  it("writes JSON.stringify of each record, one per line, in order", () => {
    const out = render("jsonl", lifecycle);
    expect(out).toBe(lifecycle.map((r) => `${JSON.stringify(r)}\n`).join(""));
    expect(out.split("\n").slice(0, -1).map((l) => JSON.parse(l))).toEqual(lifecycle);
    expect(out.startsWith('{"t":0,"seq":0,"component":"sim","kind":"run","scenario":"web-lifecycle"')).toBe(true);
  });

  it("gives the bytes the trace hash digests", () => {
    const sink = new MemorySink();
    const t = new Trace([sink], { hash: true });
    t.emit(0, "apiserver", "Create", { pod: "default/web", actor: "user" });
    t.emit(5, "config", "ADD", { pod: "default/web", uid: "u" });
    const lines = render("jsonl", sink.records).trimEnd().split("\n");
    expect(digestRecords(lines.map((l) => JSON.parse(l)))).toBe(t.digest());
  });

  it("streams lazily and writes nothing for no records", () => {
    const it = jsonLines(lifecycle)[Symbol.iterator]();
    expect(it.next().value).toBe(JSON.stringify(lifecycle[0]));
    expect(render("jsonl", [])).toBe("");
  });
});
