// Each option of a paused choice, run one step ahead: what its goroutine's step does in words, where
// it stands in the model's TypeScript (a yield of a model function), and the run the learner gets by
// picking it; and the log of the steps taken, in the same words.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { resolveLevel } from "../../src/cli/play_level.ts";
import { fifoUntil, playTo } from "../../src/play/session.ts";
import { previewOptions } from "../../src/play/preview.ts";
import { SiteFinder, type SourceIndex } from "../../src/play/sources.ts";
import { opWatch } from "../../src/sim/ops.ts";

const require = createRequire(import.meta.url);
const { sourceIndexOfSources } = require("../../scripts/play_sources.cjs") as { sourceIndexOfSources: (root: string) => SourceIndex };
const index = sourceIndexOfSources(new URL("../..", import.meta.url).pathname);
const finder = new SiteFinder(index, null);

describe("the options of a choice, previewed", () => {
  const level = resolveLevel("r05");
  const prefix = fifoUntil(level, [], 5000);
  const pause = playTo(level, prefix);
  if (pause.kind !== "pause") throw new Error("expected a pause");
  const previews = previewOptions(level, prefix, pause, finder);

  it("say what each goroutine's step does and lead to the run picking it gives", () => {
    expect(previews).toHaveLength(pause.choice.n);
    for (const p of previews) {
      expect(p.does.length).toBeGreaterThan(10);
      expect(p.outcome).toEqual(playTo(level, p.tape));
      expect(p.outcome.log[pause.choiceIndex]!.who).toBe(p.who);
    }
    expect(opWatch.onOp).toBeNull();
  });

  it("show where each goroutine stands: a yield in the model's own code, or the top of a function it has not run yet", () => {
    const placed = previews.filter((p) => p.where !== null);
    expect(placed.length).toBeGreaterThan(0);
    for (const p of placed) {
      const site = index.sites[p.where!.site]!;
      const fn = index.fns[site.fn]!;
      expect(fn.lines[site.line - fn.line]).toContain("yield");
      expect(p.where!.toLine).toBeGreaterThanOrEqual(p.where!.starting ? site.line : site.line);
      expect(p.where!.chain.at(-1)).toBe(fn.name);
    }
  });

  it("the log says, for every choice so far, who ran and what its step did", () => {
    expect(pause.log).toHaveLength(pause.choiceIndex);
    expect(pause.log.every((s, i) => s.index === i && s.who !== "" && s.words !== "")).toBe(true);
    // The step a preview describes is the log's entry once that option is taken.
    const p = previews[0]!;
    const after = playTo(level, p.tape);
    expect(p.does.endsWith(after.log[pause.choiceIndex]!.words)).toBe(true);
  });
});
