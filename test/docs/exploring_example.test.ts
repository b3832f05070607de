// docs/exploring.md opens with a console session: explore a race, then replay the repro it wrote.
// This runs the session's commands, read out of the page, and compares what they print with what
// the page shows. Wall-clock figures (how long it took, runs per second) may differ; "…" in the page
// stands for text left out (a whole line of it: lines left out).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { argv, docCommands } from "./doc_commands.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const PAGE = join(ROOT, "docs", "exploring.md");
const work = mkdtempSync(join(tmpdir(), "kubelet-sim-exploring-doc-"));
symlinkSync(join(ROOT, "scenarios"), join(work, "scenarios"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Wall-clock parts of explore's summary, which no run repeats. */
function timeless(line: string): string {
  return line.replace(/ in [\d.]+m?s \([\d.]+ runs\/s\)/, " in T").replace(/ \([\d.]+m?s\)(, budget used up)?:/, " (T)$1:");
}

/** Whether a shown line (with "…" for text left out) matches a printed one. */
function matches(shown: string, printed: string): boolean {
  const parts = timeless(shown).split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`).test(timeless(printed));
}

describe("docs/exploring.md's console session", () => {
  const session = docCommands(PAGE).filter((c) => c.block && c.shown.length > 0).slice(0, 2);

  it("is an explore and the replay of the repro it wrote", () => {
    expect(session.map((c) => argv(c.command)[1])).toEqual(["explore", "replay"]);
  });

  it("prints what the page shows, in order", () => {
    for (const c of session) {
      const r = spawnSync(process.execPath, [join(ROOT, "bin", "kubelet-sim.mjs"), ...argv(c.command).slice(1)], { cwd: work, encoding: "utf8" });
      expect(r.status, c.command).toBe(1);
      const printed = r.stdout.trimEnd().split("\n");
      let at = 0;
      for (const shown of c.shown) {
        if (shown.trim() === "…") continue;
        const i = printed.findIndex((p, k) => k >= at && matches(shown, p));
        expect(i, `${c.command}: the page shows\n${shown}\nwhich is not printed after line ${at}:\n${printed.join("\n")}`).toBeGreaterThanOrEqual(at);
        at = i + 1;
      }
    }
  });
});
