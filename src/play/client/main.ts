// The play page's script: the simulator itself, run in the browser on the level's scenario, with the
// learner as the scheduler. The page keeps a history of choice prefixes; every step and every undo
// re-runs the level from the start over the prefix (src/play/session.ts), which determinism makes
// exact. The UI may read host randomness ("random step"); the simulation never does.
import type { Choice } from "../../sim/index.ts";
import { ChoiceLog } from "../../sim/index.ts";
import type { PlayLevel } from "../level.ts";
import { PLAY_DATA_ID } from "../page.ts";
import { deviations, playTo, playToEnd, type PlayOutcome } from "../session.ts";
import { exportFileName, exportRecord } from "../export.ts";
import { byId, drawOptions, drawState, drawStatus, el } from "./view.ts";

const level = JSON.parse(byId(PLAY_DATA_ID).textContent ?? "null") as PlayLevel;
/** Every prefix the learner has stood on, the current one last: undo pops. */
const history: Choice[][] = [[]];
let outcome: PlayOutcome = playTo(level, []);

const current = (): Choice[] => history[history.length - 1]!;

function go(prefix: Choice[]): void {
  history.push(prefix);
  show();
}

function show(): void {
  // How long a step takes (the level run again from the start): shown to tests, not to the sim.
  const startMs = performance.now(); // host-time-ok: the page's own timing for the browser test; the run never reads it
  outcome = playTo(level, current());
  document.body.dataset["runMs"] = (performance.now() - startMs).toFixed(1); // host-time-ok: as above
  drawStatus(outcome, deviations(current()));
  drawOptions(outcome, pick);
  drawState(outcome.state);
  byId("path").textContent = `your choices: ${ChoiceLog.from(current()).encode() || "(none yet)"}`;
  byId("export").replaceChildren();
  (byId("undo") as HTMLButtonElement).disabled = history.length <= 1;
  for (const id of ["fifo-step", "random-step", "fifo-run"]) (byId(id) as HTMLButtonElement).disabled = outcome.kind === "end";
}

function pick(index: number): void {
  if (outcome.kind !== "pause") return;
  go([...current(), { kind: outcome.choice.kind, n: outcome.choice.n, index }]);
}

function exportRun(): void {
  const end = outcome.kind === "end" ? outcome : playToEnd(level, current());
  const text = exportRecord(level, end);
  const name = exportFileName(level);
  const link = el("a", `save ${name}`, { download: name, href: URL.createObjectURL(new Blob([text], { type: "application/json" })) });
  const area = el("textarea", undefined, { id: "export-text", readonly: "" });
  area.value = text;
  const how = el("p", `Then: kubelet-sim replay ${name} (from the folder the scenario ${level.scenarioFile} is relative to) reproduces this run, trace ${end.traceHash}.`);
  byId("export").replaceChildren(link, how, area);
}

function controls(): void {
  const buttons: [string, string, () => void][] = [
    ["fifo-step", "fifo step", () => pick(0)],
    // The learner's own draw, recorded as a choice like a click: the run itself takes no host chance.
    ["random-step", "random step", () => outcome.kind === "pause" && pick(Math.floor(Math.random() * outcome.choice.n))], // host-time-ok
    ["fifo-run", "let fifo run", () => go(playToEnd(level, current()).tape)],
    ["undo", "undo", () => history.length > 1 && (history.pop(), show())],
    ["restart", "restart", () => go([])],
    ["export-button", "export", exportRun],
  ];
  byId("controls").replaceChildren(
    ...buttons.map(([id, label, act]) => {
      const b = el("button", label, { id });
      b.addEventListener("click", act);
      return b;
    }),
  );
}

controls();
show();
performance.mark("kubelet-sim:first-choice");
