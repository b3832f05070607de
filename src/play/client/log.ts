// The log pane: every choice of the run so far and what the step after it did, in the words the
// options use, the learner's own choices away from fifo marked. Newest last, scrolled into view.
import type { PlayStep } from "../steps.ts";
import { byId, el, seconds } from "./view.ts";

export function drawLog(log: readonly PlayStep[]): void {
  const list = byId("log");
  list.replaceChildren(
    ...log.map((s) => {
      const item = el("li", undefined, { class: s.picked === 0 ? "" : "mine", value: String(s.index), "data-choice": String(s.index) });
      const pick = s.n > 1 && s.picked !== 0 ? ` (option ${s.picked} of ${s.n})` : "";
      item.append(el("span", `t=${seconds(s.t)} `, { class: "t" }), el("span", s.who, { class: "who" }), document.createTextNode(`${pick}: ${s.words}`));
      return item;
    }),
  );
  if (log.length === 0) list.append(el("li", "No choice made yet.", { class: "help" }));
  list.scrollTop = list.scrollHeight;
}
