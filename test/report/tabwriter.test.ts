// The tabwriter model against text/tabwriter's behaviour: column blocks, the unpadded last cell,
// minwidth, and liggitt/tabwriter's RememberWidths across flushes.
import { describe, expect, it } from "vitest";
import { TabWriter, alignOnce } from "../../src/report/tabwriter.ts";

const once = { minwidth: 0, padding: 2, rememberWidths: false };

describe("tabwriter", () => {
  it("pads every tab-terminated cell to its column's widest plus padding, never the last cell", () => {
    expect(alignOnce([["a", "b", "c"], ["aaa", "bbbb", "c"]], once)).toBe("a    b     c\naaa  bbbb  c\n");
  });

  it("ends a column block at a line without a cell in that column", () => {
    // Go: "x\tyyyyyy\n" then "zz\n" then "x\ty\n": the lone line splits the column into two blocks.
    expect(alignOnce([["x", "yyyyyy"], ["zz"], ["xxxx", "y"]], once)).toBe("x  yyyyyy\nzz\nxxxx  y\n");
    expect(alignOnce([["k:", "v"], ["key:", "v"], ["Events:"], ["  T", "R"]], once)).toBe("k:    v\nkey:  v\nEvents:\n  T  R\n");
  });

  it("nests columns: a wider second column only spans the lines that have it", () => {
    expect(alignOnce([["a", "b", "c"], ["a", "bbbbb"], ["a", "b", "c"]], once)).toBe("a  b  c\na  bbbbb\na  b  c\n");
  });

  it("applies minwidth and counts runes, not UTF-16 units", () => {
    expect(alignOnce([["é", "x"], ["ab", "y"]], { minwidth: 6, padding: 3, rememberWidths: false })).toBe("é     x\nab    y\n");
  });

  it("remembers column widths across flushes when asked, and only grows them", () => {
    const w = new TabWriter({ minwidth: 6, padding: 3, rememberWidths: true });
    w.line(["NAME", "STATUS", "AGE"]);
    w.line(["web", "Pending", "0s"]);
    w.flush();
    w.line(["web", "ContainerCreating", "1s"]);
    w.flush();
    w.line(["web", "Running", "2s"]);
    w.flush();
    expect(w.text()).toBe([
      "NAME   STATUS    AGE",
      "web    Pending   0s",
      "web    ContainerCreating   1s",
      "web    Running             2s",
      "",
    ].join("\n"));
  });

  it("forgets widths between flushes without RememberWidths", () => {
    const w = new TabWriter({ minwidth: 0, padding: 1, rememberWidths: false });
    w.line(["long-name", "x"]);
    w.flush();
    w.line(["a", "y"]);
    w.flush();
    expect(w.text()).toBe("long-name x\na y\n");
  });
});
