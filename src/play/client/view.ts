// Drawing the play page: the paused choice and its options, the shared state, the verdict. Plain
// DOM, no framework; every element a test or a learner acts on has a stable id or data attribute.
import type { Violation } from "../../check/invariants/common.ts";
import type { PlayOutcome } from "../session.ts";
import type { StateSection } from "../state.ts";

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

/** The status line: won (the invariant broke), ended, or waiting for a choice. */
export function drawStatus(outcome: PlayOutcome, deviations: number, timingChanges = 0): void {
  const status = byId("status");
  status.className = outcome.broken !== null ? "won" : outcome.kind === "end" ? "ended" : "";
  status.dataset["state"] = outcome.broken !== null ? "broken" : outcome.kind;
  status.dataset["traceHash"] = outcome.kind === "end" ? outcome.traceHash : "";
  const timing = timingChanges === 0 ? "" : `${timingChanges} timing change${timingChanges === 1 ? "" : "s"} and `;
  const away = `${timing}${deviations} choice${deviations === 1 ? "" : "s"} deviated from fifo`;
  if (outcome.broken !== null) {
    status.textContent = `Invariant broken: ${describe(outcome.broken)} You won with ${away}.`;
  } else if (outcome.kind === "end") {
    status.textContent = `The run ended (${outcome.verdict} at t=${outcome.endMs}ms, trace ${outcome.traceHash}) and the invariant held; ${away}. Undo and try another order or timing.`;
  } else {
    status.textContent = `t=${outcome.nowMs}ms: your choice #${outcome.choiceIndex}, ${away} so far.`;
  }
}

function describe(v: Violation): string {
  return `${v.invariant} at t=${v.t}ms (${v.pod}): ${v.message}`;
}

/** The options of a paused choice, as buttons; index 0 is fifo's answer. */
export function drawOptions(outcome: PlayOutcome, pick: (index: number) => void): void {
  const choice = byId("choice");
  const options = byId("options");
  options.replaceChildren();
  choice.dataset["choiceIndex"] = outcome.kind === "end" ? "" : String(outcome.choiceIndex);
  if (outcome.kind === "end") {
    choice.textContent = `end of the run: verdict ${outcome.verdict}, ${outcome.events} kernel events, trace hash ${outcome.traceHash}`;
    return;
  }
  const what = outcome.choice.kind === "proc" ? "Which goroutine runs next?" : outcome.choice.kind === "select" ? "Which ready select case fires?" : "Which order does Go's map iteration take?";
  choice.textContent = `${what} (${outcome.choice.n} options)`;
  for (const o of outcome.options) {
    const b = el("button", undefined, { "data-index": String(o.index), class: o.index === 0 ? "fifo" : "" });
    b.append(el("span", o.who, { class: "who" }), document.createTextNode(` ${o.does}${o.index === 0 ? " (fifo's pick)" : ""}`));
    b.addEventListener("click", () => pick(o.index));
    options.append(b);
  }
}

/** The shared state as tables, one per section. */
export function drawState(sections: readonly StateSection[]): void {
  const out = byId("state");
  out.replaceChildren(
    ...sections.flatMap((s) => {
      const table = el("table", undefined, { "data-section": s.title });
      for (const [k, v] of s.rows) {
        const tr = el("tr");
        tr.append(el("td", k), el("td", v));
        table.append(tr);
      }
      return [el("h3", s.title), table];
    }),
  );
}
