// Each option of a paused choice, run one step ahead: what its goroutine will do (the step's words,
// steps.ts) and where in the model's code it stands (where.ts). The run after an option is the run
// the learner gets by picking it, so the page keeps each preview's outcome and shows it at once
// when that option is clicked. The page previews one option at a time, between frames.
import type { Choice } from "../sim/index.ts";
import type { PlayLevel } from "./level.ts";
import { playTo, type PlayOutcome, type PlayPause } from "./session.ts";
import type { SiteFinder } from "./sources.ts";
import { StackWatch, whereOf, type Where } from "./where.ts";

export interface OptionPreview {
  index: number;
  who: string;
  /** How it wakes and what its step does, in words (the log pane says the step the same way once it is taken). */
  does: string;
  /** Where its goroutine stands in the model; null without a source index or when no model frame was seen. */
  where: Where | null;
  /** The tape with this option taken, and the run it leads to. */
  tape: Choice[];
  outcome: PlayOutcome;
}

/** One option, run one step ahead. */
export function previewOption(level: PlayLevel, prefix: readonly Choice[], pause: PlayPause, index: number, finder: SiteFinder | null): OptionPreview {
  const o = pause.options[index]!;
  const tape = [...prefix, { kind: pause.choice.kind, n: pause.choice.n, index }];
  const procId = pause.optionProcs[index] ?? null;
  const watch = finder === null || procId === null ? null : new StackWatch(procId, pause.choiceIndex);
  const outcome = playTo(level, tape, watch);
  const step = outcome.log[pause.choiceIndex];
  return {
    index,
    who: step?.who ?? o.who,
    does: step === undefined ? o.does : `${o.does}; ${step.words}`,
    where: watch === null || finder === null ? null : whereOf(finder, watch),
    tape,
    outcome,
  };
}

export function previewOptions(level: PlayLevel, prefix: readonly Choice[], pause: PlayPause, finder: SiteFinder | null): OptionPreview[] {
  return pause.options.map((o) => previewOption(level, prefix, pause, o.index, finder));
}
