// The play page's script: the simulator itself, run in the browser on the level's scenario, with the
// learner as the scheduler and, where the level has knobs, as the clock. The page keeps a history
// of (timing, choice prefix) pairs; every step and every undo re-runs the level from the start
// over the prefix (src/play/session.ts), which determinism makes exact. A new timing compiles the
// level's text again (src/play/compile.ts). The UI may read host randomness ("random step"); the
// simulation never does.
import type { Choice } from "../../sim/index.ts";
import { ChoiceLog } from "../../sim/index.ts";
import type { PlayLevel, PlayLevelChoice, PlayPageData } from "../level.ts";
import { PLAY_DATA_ID } from "../page.ts";
import { deviations, fifoUntil, playTo, playToEnd, type PlayOutcome } from "../session.ts";
import { exportFileName, exportRecord } from "../export.ts";
import { timedLevel } from "../compile.ts";
import { changedKnobs, type TimingValues } from "../timing.ts";
import { byId, drawOptions, drawState, drawStatus, el } from "./view.ts";
import { drawKnobs, drawPicker, readKnobs } from "./panels.ts";

interface Stand {
  values: TimingValues;
  prefix: Choice[];
}

const data = JSON.parse(byId(PLAY_DATA_ID).textContent ?? "null") as PlayPageData;
let base: PlayLevel | PlayLevelChoice = data.level;
/** Every (timing, prefix) the learner has stood on, the current one last: undo pops. */
let history: Stand[] = [{ values: {}, prefix: [] }];
/** The level compiled at each timing tried, by the timing's JSON: a compile is the slow part of a new timing. */
let compiled = new Map<string, ReturnType<typeof timedLevel>>();
let outcome: PlayOutcome;

const stand = (): Stand => history[history.length - 1]!;
const timed = (values: TimingValues) => {
  const key = JSON.stringify(values);
  let t = compiled.get(key);
  if (t === undefined) compiled.set(key, (t = timedLevel(base, values)));
  return t;
};
const level = (): PlayLevel => timed(stand().values).level;

function go(next: Stand): void {
  history.push(next);
  show();
}

function show(): void {
  const { values, prefix } = stand();
  // How long a step takes (the level run again from the start): shown to tests, not to the sim.
  const startMs = performance.now(); // host-time-ok: the page's own timing for the browser test; the run never reads it
  outcome = playTo(level(), prefix);
  document.body.dataset["runMs"] = (performance.now() - startMs).toFixed(1); // host-time-ok: as above
  drawStatus(outcome, deviations(prefix), changedKnobs(base.knobs, values).length);
  drawOptions(outcome, pick);
  drawState(outcome.state);
  drawKnobs(base.knobs, values);
  byId("path").textContent = `your choices: ${ChoiceLog.from(prefix).encode() || "(none yet)"}`;
  byId("export").replaceChildren();
  (byId("undo") as HTMLButtonElement).disabled = history.length <= 1;
  for (const id of ["fifo-step", "random-step", "fifo-run", "fifo-to"]) (byId(id) as HTMLButtonElement).disabled = outcome.kind === "end";
}

function pick(index: number): void {
  if (outcome.kind !== "pause") return;
  go({ values: stand().values, prefix: [...stand().prefix, { kind: outcome.choice.kind, n: outcome.choice.n, index }] });
}

/** A new timing starts the run again: the old choices belong to another run. */
function setTiming(values: TimingValues): void {
  const problem = byId("timing-error");
  try {
    timed(values);
  } catch (err) {
    problem.textContent = (err as Error).message;
    return;
  }
  problem.textContent = "";
  go({ values, prefix: [] });
}

function fifoTo(): void {
  const ms = Number((byId("fifo-to-ms") as HTMLInputElement).value);
  if (!Number.isFinite(ms) || ms < 0) return;
  go({ values: stand().values, prefix: fifoUntil(level(), stand().prefix, ms) });
}

function exportRun(): void {
  const { text } = timed(stand().values);
  const end = outcome.kind === "end" ? outcome : playToEnd(level(), stand().prefix);
  const record = exportRecord(level(), end, text);
  const name = exportFileName(level());
  const link = el("a", `save ${name}`, { download: name, href: URL.createObjectURL(new Blob([record], { type: "application/json" })) });
  const area = el("textarea", undefined, { id: "export-text", readonly: "" });
  area.value = record;
  const where = text === null ? ` (from the folder the scenario ${level().scenarioFile} is relative to)` : " (the record carries the scenario at your timing)";
  byId("export").replaceChildren(link, el("p", `Then: kubelet-sim replay ${name}${where} reproduces this run, trace ${end.traceHash}.`), area);
}

function pickLevel(id: string): void {
  const next = id === data.level.id ? data.level : data.levels.find((l) => l.id === id);
  if (next === undefined) return;
  base = next;
  compiled = new Map();
  history = [{ values: {}, prefix: [] }];
  byId("level-title").textContent = `Play ${next.id}: ${next.title}`;
  byId("brief").textContent = next.brief;
  byId("hint").textContent = next.hint;
  show();
}

function controls(): void {
  const buttons: [string, string, () => void][] = [
    ["fifo-step", "fifo step", () => pick(0)],
    // The learner's own draw, recorded as a choice like a click: the run itself takes no host chance.
    ["random-step", "random step", () => outcome.kind === "pause" && pick(Math.floor(Math.random() * outcome.choice.n))], // host-time-ok
    ["fifo-run", "let fifo run", () => go({ values: stand().values, prefix: playToEnd(level(), stand().prefix).tape })],
    ["undo", "undo", () => history.length > 1 && (history.pop(), show())],
    ["restart", "restart", () => go({ values: stand().values, prefix: [] })],
    ["export-button", "export", exportRun],
  ];
  const made = buttons.map(([id, label, act]) => {
    const b = el("button", label, { id });
    b.addEventListener("click", act);
    return b;
  });
  const to = el("button", "fifo to t=", { id: "fifo-to", title: "answer fifo's way up to the first choice at or after this virtual time" });
  to.addEventListener("click", fifoTo);
  byId("controls").replaceChildren(...made, el("span", " "), to, el("input", undefined, { id: "fifo-to-ms", type: "number", min: "0", step: "100", value: "1000", size: "7" }), el("span", " ms"));
  byId("set-timing").addEventListener("click", () => setTiming(readKnobs(base.knobs)));
  byId("written-timing").addEventListener("click", () => setTiming({}));
}

drawPicker(data, pickLevel);
controls();
show();
performance.mark("kubelet-sim:first-choice");
