// Drawing the play page: the status line, the paused choice and its options, the shared state. Plain
// DOM, no framework; every element a test or a learner acts on has a stable id or data attribute.
import type { PlayOutcome } from "../session.ts";
import type { StateSection } from "../state.ts";
import type { OptionPreview } from "../preview.ts";

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

export function byId(id: string): HTMLElement {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`the play page has no #${id}`);
  return e;
}

/** "9.010s" */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(3)}s`;
}

/** What it took so far: the timings changed and the choices away from fifo. */
export function awayWords(deviations: number, timingChanges: number): string {
  const timing = timingChanges === 0 ? "" : `${timingChanges} timing change${timingChanges === 1 ? "" : "s"} and `;
  return `${timing}${deviations} choice${deviations === 1 ? "" : "s"} deviated from fifo`;
}

/** The status line: won (the invariant broke), ended, or waiting for a choice. */
export function drawStatus(outcome: PlayOutcome, deviations: number, timingChanges: number): void {
  const status = byId("status");
  status.dataset["state"] = outcome.broken !== null ? "broken" : outcome.kind;
  status.dataset["traceHash"] = outcome.kind === "end" ? outcome.traceHash : "";
  const away = awayWords(deviations, timingChanges);
  if (outcome.broken !== null) status.textContent = `You won with ${away}.`;
  else if (outcome.kind === "end") status.textContent = `The run ended (${outcome.verdict} at t=${outcome.endMs}ms, trace ${outcome.traceHash}); ${away}.`;
  else status.textContent = `t=${outcome.nowMs}ms: your choice #${outcome.choiceIndex}, ${away} so far.`;
}

const QUESTION = { proc: "Which goroutine runs next?", select: "Which ready select case fires?", value: "Where does Go's map iteration start?" } as const;

/**
 * The options of a paused choice, as buttons (index 0 is fifo's answer), each with what its step
 * does and where its goroutine stands once its preview is in. `previews[i]` may be missing yet.
 */
export function drawOptions(outcome: PlayOutcome, previews: readonly (OptionPreview | undefined)[], pick: (index: number) => void, where: (p: OptionPreview) => HTMLElement | null): void {
  const choice = byId("choice");
  const options = byId("options");
  options.replaceChildren();
  choice.dataset["choiceIndex"] = outcome.kind === "end" ? "" : String(outcome.choiceIndex);
  if (outcome.kind === "end") {
    choice.textContent = `End of the run: ${outcome.verdict} at t=${seconds(outcome.endMs)}, ${outcome.events} kernel events, trace ${outcome.traceHash}`;
    return;
  }
  choice.textContent = `t=${seconds(outcome.nowMs)} · ${QUESTION[outcome.choice.kind]} (${outcome.choice.n} options)`;
  for (const o of outcome.options) {
    const box = el("div", undefined, { class: o.index === 0 ? "option fifo" : "option", "data-option": String(o.index) });
    const b = el("button", undefined, { "data-index": String(o.index) });
    b.addEventListener("click", () => pick(o.index));
    box.append(b);
    options.append(box);
    fillOption(box, o.who, o.does, previews[o.index], where);
  }
}

/** Fills one option's button (and its "where" line) from the basic words or from its preview. */
export function fillOption(box: HTMLElement, who: string, basic: string, preview: OptionPreview | undefined, where: (p: OptionPreview) => HTMLElement | null): void {
  const b = box.querySelector("button")!;
  const index = Number(b.dataset["index"]);
  const does = preview?.does ?? basic;
  b.replaceChildren(el("span", preview?.who ?? who, { class: "who" }), document.createTextNode(` ${does}`), ...(index === 0 ? [el("span", " (fifo's pick)", { class: "help" })] : []), ...(preview === undefined ? [el("span", " …", { class: "pending" })] : []));
  b.setAttribute("aria-label", `option ${index}${index === 0 ? ", fifo's pick" : ""}: ${preview?.who ?? who} ${does}`);
  box.querySelector(".where")?.remove();
  const line = preview === undefined ? null : where(preview);
  if (line !== null) box.append(line);
  box.dataset["previewed"] = preview === undefined ? "" : "yes";
}

/** The shared state as tables, one per section. */
export function drawState(sections: readonly StateSection[]): void {
  const out = byId("state");
  out.replaceChildren(
    ...sections.flatMap((s) => {
      const table = el("table", undefined, { "data-section": s.title });
      if (s.rows.length === 0) table.append(el("caption", "none", { class: "help" }));
      for (const [k, v] of s.rows) {
        const tr = el("tr");
        tr.append(el("td", k), el("td", v));
        table.append(tr);
      }
      return [el("h3", s.title), table];
    }),
  );
}
