// The first level's lesson: three steps that teach the controls on the tutorial race's level (see
// src/play/levels.ts TUTORIAL_RACE): choose, undo, and win by choosing the goroutines its shortest
// win takes, named by replaying that win to each of its choices away from fifo.
import { ChoiceLog } from "../sim/index.ts";
import type { PlayLevel } from "../play/level.ts";
import type { PlayLevelEntry } from "../play/levels.ts";
import { fifoUntil, playTo } from "../play/session.ts";

export function lessonSteps(level: PlayLevel, notes: PlayLevelEntry): string[] {
  const tape = ChoiceLog.decode(notes.win).toArray();
  const devs = tape.flatMap((c, i) => (c.index === 0 ? [] : [i]));
  const first = playTo(level, tape.slice(0, devs[0] ?? 0));
  const firstMs = first.kind === "pause" ? first.nowMs : 0;
  // "fifo to t=" stops at the first choice at that instant; the deviation may come a few choices later.
  let at = fifoUntil(level, [], firstMs).length;
  const picks: string[] = [];
  for (const i of devs) {
    const pause = playTo(level, tape.slice(0, i));
    if (pause.kind !== "pause") break;
    const before = i - at;
    picks.push(`${before > 0 ? `press fifo step ${before === 1 ? "once" : `${before} times`}, then ` : ""}choose ${pause.options[tape[i]!.index]?.who ?? "?"} (option ${tape[i]!.index})`);
    at = i + 1;
  }
  return [
    "Read the options: each is a goroutine that can run now, what its next step does, and where it stands in the model's code (focus one to see its lines in the code pane). Click fifo step, or the first option.",
    "Click undo: the run goes back one choice, to exactly the state it showed before (every step runs the level again from the start over your choices).",
    `Type ${firstMs} in "fifo to t=" and click it; ${picks.join("; ")}; then click "let fifo run": the invariant breaks and you win.`,
  ];
}
