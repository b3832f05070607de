// The first level's lesson: three steps that teach the controls (choose, undo, win), each ticked off
// when the learner has done it. Other levels have none.
import { byId, el } from "./view.ts";

export interface LessonProgress {
  chose: boolean;
  undid: boolean;
  won: boolean;
}

export function drawLesson(steps: readonly string[] | null, progress: LessonProgress): void {
  const box = byId("lesson");
  box.hidden = steps === null;
  if (steps === null) return;
  const done = [progress.chose, progress.undid, progress.won];
  const now = done.indexOf(false);
  const list = el("ol");
  steps.forEach((s, i) => list.append(el("li", s, { class: done[i] ? "done" : i === now ? "now" : "" })));
  box.replaceChildren(el("strong", now < 0 ? "You have learnt the controls: pick another level." : `Learn the controls, step ${now + 1} of ${steps.length}:`), list);
  box.dataset["step"] = String(now < 0 ? steps.length : now);
}
