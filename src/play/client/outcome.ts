// The run's outcome as a state of its own: a success panel when the level's invariant broke (what
// broke, the choices and timings it took, export, and why the race breaks the kubelet), a plain
// panel when the run ended and the invariant held; nothing while a choice waits. The live region
// says the same in one sentence, once, when the outcome changes.
import type { PlayLevel, PlayLevelChoice } from "../level.ts";
import type { PlayOutcome } from "../session.ts";
import type { PlayStep } from "../steps.ts";
import type { TimingKnob, TimingValues } from "../timing.ts";
import { awayWords, byId, el, seconds } from "./view.ts";

/** The deviating steps of a run: the choices the learner took away from fifo. */
export function deviatingSteps(log: readonly PlayStep[]): PlayStep[] {
  return log.filter((s) => s.picked !== 0);
}

function timingWords(knobs: readonly TimingKnob[], values: TimingValues): string[] {
  return knobs.filter((k) => values[k.id] !== undefined && values[k.id] !== k.writtenMs).map((k) => `${k.label} ${values[k.id]}${k.kind === "seed" ? "" : " ms"}`);
}

/** Draws the outcome panel; returns the sentence for the live region ("" while a choice waits). */
export function drawOutcome(level: PlayLevel | PlayLevelChoice, outcome: PlayOutcome, values: TimingValues, onExport: () => void): string {
  const box = byId("outcome");
  const steps = deviatingSteps(outcome.log);
  const timings = timingWords(level.knobs, values);
  if (outcome.broken === null && outcome.kind !== "end") {
    box.hidden = true;
    box.className = "";
    box.replaceChildren();
    return "";
  }
  box.hidden = false;
  if (outcome.broken === null) {
    box.className = "ended";
    const end = outcome.kind === "end" ? `at t=${seconds(outcome.endMs)} (${outcome.verdict})` : "";
    const what = level.invariant === null ? "every invariant held" : `${level.invariant} held`;
    box.replaceChildren(
      el("h3", `The run ended ${end}: ${what}`),
      el("p", `${awayWords(steps.length, timings.length)}. Undo, or restart, and try another order${level.mode === "order" ? "" : " or timing"}.`),
      ...(level.caveat === null ? [] : [el("p", level.caveat, { class: "help" })]),
    );
    return `The run ended and ${what}.`;
  }
  const v = outcome.broken;
  box.className = "won";
  const list = el("ul");
  for (const s of steps) list.append(el("li", `t=${seconds(s.t)} · choice #${s.index}: ${s.who} (option ${s.picked} of ${s.n}) ${s.words}`));
  const exportButton = el("button", "export this run", { id: "win-export" });
  exportButton.addEventListener("click", onExport);
  box.replaceChildren(
    el("h3", `You won: ${v.invariant} broke at t=${seconds(v.t)}`),
    el("p", `${v.pod}: ${v.message}`),
    el("p", `It took ${awayWords(steps.length, timings.length)}${timings.length === 0 ? ", at the written timing" : ""}:`),
    ...(steps.length === 0 ? [] : [list]),
    ...(timings.length === 0 ? [] : [el("p", `Timing: ${timings.join("; ")}.`)]),
    exportButton,
    ...whyParagraph(level),
  );
  return `You won: ${v.invariant} broke at t=${seconds(v.t)} with ${awayWords(steps.length, timings.length)}.`;
}

function whyParagraph(level: PlayLevel | PlayLevelChoice): HTMLElement[] {
  if (level.why === null) return [];
  const box = el("div", undefined, { class: "why", id: "why" });
  box.append(el("h4", "Why this breaks the kubelet"), el("p", level.why));
  if (level.racePage !== null) {
    const p = el("p");
    const link = level.racePage.href === null ? el("code", level.racePage.path) : el("a", level.racePage.path, { href: level.racePage.href, target: "_blank", rel: "noopener" });
    p.append(document.createTextNode("The race's whole story: "), link, document.createTextNode(" in kubelet-sim's docs."));
    box.append(p);
  }
  return [box];
}
