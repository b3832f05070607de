// The bench's command line: what it accepts, what it refuses (before any measuring starts).
import { describe, expect, it } from "vitest";
import { BenchArgError, DEFAULT_AGAINST_LINES, DEFAULT_REPEAT, PLAIN_LINES, parseBenchArgs, parseForms } from "../../src/bench/args.ts";

describe("parseBenchArgs", () => {
  it.each([
    [[], { against: null, json: false, repeat: DEFAULT_REPEAT, tiny: false, build: true, forms: null, lines: [...PLAIN_LINES] }],
    [["--json", "explore", "kernel"], { json: true, lines: ["kernel", "explore"] }],
    [["hunt-speed", "--forms", "r10,R1"], { lines: ["hunt-speed"], forms: ["r10", "r01"] }],
    [["--against", "7256ad8"], { against: "7256ad8", repeat: DEFAULT_REPEAT, lines: [...DEFAULT_AGAINST_LINES] }],
    [["--against", "x", "explore-jobs2", "explore"], { lines: ["explore", "explore-jobs2"] }],
    [["--against=main", "node-110-pods-1h", "explore", "--repeat", "3"], { against: "main", repeat: 3, lines: ["explore", "node-110-pods-1h"] }],
    [["--against", "HEAD", "--tiny", "--no-build", "--json"], { against: "HEAD", tiny: true, build: false, json: true }],
    [["-h"], { help: true }],
  ])("%j", (argv, expected) => {
    expect(parseBenchArgs(argv)).toMatchObject(expected);
  });

  it.each([
    [["--against"], /^--against needs a value/],
    [["--against", ""], /--against: expected a revision/],
    [["--against", "--json"], /^--against needs a value/],
    [["--repeat", "2"], /--repeat is an option of --against REV/],
    [["--tiny"], /--tiny is an option of --against REV/],
    [["--no-build"], /--no-build is an option of --against REV/],
    [["--against", "HEAD", "--repeat", "0"], /--repeat 0: expected a whole number from 1 to 50/],
    [["--against", "HEAD", "--repeat", "2.5"], /--repeat 2.5: expected a whole number/],
    [["--against", "HEAD", "--repeat", "51"], /--repeat 51/],
    [["nope"], /unknown line "nope": expected one of kernel, channel-ping-pong/],
    [["--against", "HEAD", "select-heavy"], /unknown line "select-heavy" for --against: expected one of kernel, explore, explore-jobs2, node-110-pods-1h, cluster-100x110-1h, cli-startup, hunt-speed, hostile-input$/],
    [["--jobs", "2"], /^unknown option --jobs$/],
    [["--forms", "x"], /--forms: "x" is not a race id/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(BenchArgError);
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });
});

describe("parseForms", () => {
  it.each([
    ["r01", ["r01"]],
    ["R1, r10 ,r25", ["r01", "r10", "r25"]],
  ])("%s", (text, ids) => expect(parseForms(text)).toEqual(ids));

  it.each([",", "r", "r123", "10"])("refuses %j", (text) => expect(() => parseForms(text)).toThrow(BenchArgError));
});
