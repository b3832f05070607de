// How --against prints: the header (both commits, the host), a row per figure, the footer, JSON.
import { describe, expect, it } from "vitest";
import { compare, unmeasured } from "../../src/bench/against/compare.ts";
import { comparisonJson, comparisonText, footerText, formatFigure, formatRatio, headerText, hostJson, shortSubject, type RunInfo } from "../../src/bench/against/format.ts";

const OLD = "7256ad8549aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const NEW = "1234567890bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const info: RunInfo = {
  old: { rev: "7256ad8", commit: OLD, subject: "review: a subject", dirty: false },
  new: { rev: "HEAD", commit: NEW, subject: "bench: another", dirty: true },
  host: { cpu: "AMD EPYC", cores: 2, node: "v20.20.2", loadAverageStart: [1.5, 2, 3.25], loadAverageEnd: [4, 5, 6] },
  repeat: 2,
  seconds: 754.4,
  buildSeconds: 61,
};

describe("figures", () => {
  it.each([
    [2_511_255.4, "2,511,255"],
    [834.4, "834"],
    [100, "100"],
    [39.64, "39.6"],
    [0.514, "0.51"],
    [null, "n/a"],
  ])("%s → %s", (x, text) => expect(formatFigure(x)).toBe(text));

  it.each([
    [1.004, "1.00×"],
    [4.126, "4.13×"],
    [0.1, "0.10×"],
    [0.004126, "0.0041×"],
    [0.0912, "0.091×"],
    [null, "n/a"],
  ])("ratio %s → %s", (x, text) => expect(formatRatio(x)).toBe(text));

  it("cuts a long subject to one line", () => {
    expect(shortSubject("a".repeat(72))).toBe("a".repeat(72));
    expect(shortSubject("a".repeat(100))).toBe(`${"a".repeat(71)}…`);
  });
});

describe("text", () => {
  it("names both commits, the host and the load at start", () => {
    expect(headerText(info).split("\n")).toEqual([
      "bench --against: 2 pairs per figure, the old tree and the new one measured alternately",
      "old  7256ad8549  review: a subject",
      "new  1234567890 (HEAD) + uncommitted changes  bench: another",
      "host AMD EPYC, 2 cores, Node v20.20.2; load average 1.50 2.00 3.25 (1, 5, 15 min) at start",
      "",
      expect.stringMatching(/^line +figure +old +new +new\/old  pairs' range$/),
    ]);
  });

  it("prints both values, the ratio and the pairs' range; a time says lower is better; a note goes below", () => {
    const rate = comparisonText(compare("explore", "runs/s --jobs 1", "higher", [100, 120], [110, 126]));
    expect(rate).toMatch(/^explore +runs\/s --jobs 1 +110 +118 +1\.08×  1\.05×–1\.10× over 2$/);
    const time = comparisonText(compare("cli-startup", "--version ms", "lower", [80], [40], "bare node -e 0: 60.0 ms"));
    expect(time.split("\n")).toEqual([
      expect.stringMatching(/^cli-startup +--version ms \(lower is better\) +80.0 +40.0 +0\.50×  \(1 pair\)$/),
      `${" ".repeat(19)}bare node -e 0: 60.0 ms`,
    ]);
    const none = comparisonText(unmeasured("hunt-speed", "r26-hunt runs/s", "higher", "the old tree exited 2", [], [40]));
    expect(none.split("\n")).toEqual([expect.stringMatching(/^hunt-speed +r26-hunt runs\/s +n\/a +40.0 +n\/a$/), `${" ".repeat(19)}the old tree exited 2`]);
  });

  it("ends with the load at the end and the time taken", () => {
    expect(footerText(info)).toBe("\nload average 4.00 5.00 6.00 at end; took 12 min 34 s (1 min 1 s of it building)");
  });
});

describe("JSON", () => {
  it("one object per figure with the ratio and both commits", () => {
    const c = compare("kernel", "events/s", "higher", [2], [3]);
    expect(JSON.parse(comparisonJson(c, info))).toEqual({ ...c, oldCommit: OLD, newCommit: NEW });
  });

  it("a last object named host", () => {
    expect(JSON.parse(hostJson(info))).toEqual({
      name: "host", cpu: "AMD EPYC", cores: 2, node: "v20.20.2", loadAverageStart: [1.5, 2, 3.25], loadAverageEnd: [4, 5, 6],
      old: info.old, new: info.new, repeat: 2, seconds: 754.4, buildSeconds: 61,
    });
  });
});
