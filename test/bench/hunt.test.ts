// hunt-speed's pieces: which forms, the command each runs, and reading its rate from the JSON line.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BenchArgError } from "../../src/bench/args.ts";
import { exploreRate, formName, huntExploreArgs, huntForms, slowest } from "../../src/bench/hunt.ts";
import { RACES } from "../../src/races/catalog.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe("huntForms", () => {
  it("is every race's hunt form, in the order of the race ids", () => {
    expect(huntForms(ROOT, null).map(formName)).toEqual(RACES.map((r) => `${r.id.toLowerCase()}-hunt`).sort());
  });
  it("or the forms of the races named", () => {
    expect(huntForms(ROOT, ["r10", "r01"])).toEqual([join(ROOT, "scenarios/races/hunt/r10-hunt.yaml"), join(ROOT, "scenarios/races/hunt/r01-hunt.yaml")]);
  });
  it("refuses a race with no hunt form", () => {
    expect(() => huntForms(ROOT, ["r99"])).toThrow(BenchArgError);
    expect(() => huntForms(ROOT, ["r99"])).toThrow("--forms r99: there is no hunt form scenarios/races/hunt/r99-hunt.yaml");
  });
});

describe("the command", () => {
  it("explores a fixed number of runs, whatever it finds, without shrinking, as one JSON line", () => {
    expect(huntExploreArgs("/x/r10-hunt.yaml", 100, "/tmp/out")).toEqual(["explore", "/x/r10-hunt.yaml", "--runs", "100", "--keep-going", "--no-shrink", "--json", "--out", "/tmp/out"]);
  });
});

describe("exploreRate", () => {
  const line = (o: object) => `${JSON.stringify({ runs: 100, violations: 3, runsPerSec: 41.5, ...o })}\n`;
  it.each([
    [{ code: 0, stdout: line({ violations: 0 }), stderr: "" }, false, 41.5],
    [{ code: 1, stdout: line({}), stderr: "" }, true, 41.5],
    [{ code: 1, stdout: `progress\n${line({ runsPerSec: 7 })}`, stderr: "" }, true, 7],
  ])("reads the rate of %j", (r, violationsExpected, rate) => {
    expect(exploreRate("explore x", r, 100, violationsExpected)).toBe(rate);
  });

  it.each([
    [{ code: 1, stdout: line({}), stderr: "" }, false, /^explore x exited 1/],
    [{ code: 2, stdout: "", stderr: "x.yaml:3:1: bad\n" }, true, /^explore x exited 2: x.yaml:3:1: bad$/],
    [{ code: null, stdout: "", stderr: "" }, true, /^explore x exited null/],
    [{ code: 0, stdout: "not json", stderr: "" }, true, /printed no JSON line: not json/],
    [{ code: 0, stdout: line({ runs: 99 }), stderr: "" }, true, /ran 99 runs, expected 100/],
    [{ code: 0, stdout: line({ runsPerSec: null }), stderr: "" }, true, /gave no rate/],
  ])("refuses %j", (r, violationsExpected, message) => {
    expect(() => exploreRate("explore x", r, 100, violationsExpected)).toThrow(message);
  });
});

describe("slowest", () => {
  it("names the slowest form (the first of equals)", () => {
    expect(slowest(new Map([["r01-hunt", 40], ["r10-hunt", 17], ["r20-hunt", 17]]))).toEqual({ form: "r10-hunt", runsPerSec: 17 });
  });
  it("refuses no forms", () => expect(() => slowest(new Map())).toThrow("no form measured"));
});
