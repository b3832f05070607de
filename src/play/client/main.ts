// The play page's script: the simulator itself, run in the browser on the level's scenario, with the
// learner as the scheduler and, where the level has knobs, as the clock. The page keeps a history
// of (timing, choice prefix) pairs; every step and every undo re-runs the level from the start
// over the prefix (src/play/session.ts), which determinism makes exact. Each option is then run one
// step ahead, one per frame (src/play/preview.ts), to say what it does and where its goroutine
// stands; the run after the option picked is the preview's. The UI may read host randomness
// ("random step") and host time (to measure a step); the simulation never does.
import type { Choice } from "../../sim/index.ts";
import { ChoiceLog } from "../../sim/index.ts";
import type { PlayLevel, PlayLevelChoice, PlayPageData } from "../level.ts";
import { PLAY_DATA_ID, PLAY_SOURCES_ID } from "../page.ts";
import { deviations, fifoUntil, playTo, playToEnd, type PlayOutcome } from "../session.ts";
import { previewOption, type OptionPreview } from "../preview.ts";
import { exportFileName, exportRecord } from "../export.ts";
import { timedLevel } from "../compile.ts";
import { changedKnobs, type TimingValues } from "../timing.ts";
import type { SiteFinder, SourceIndex } from "../sources.ts";
import { siteFinder } from "../where.ts";
import { byId, drawOptions, drawState, drawStatus, el, fillOption } from "./view.ts";
import { drawKnobs, drawPicker, readKnobs } from "./panels.ts";
import { drawCode, whereLine } from "./code.ts";
import { drawLog } from "./log.ts";
import { drawOutcome } from "./outcome.ts";
import { drawLesson, type LessonProgress } from "./lesson.ts";
import { readUrl, writeUrl } from "./url.ts";

interface Stand {
  values: TimingValues;
  prefix: Choice[];
}

const data = JSON.parse(byId(PLAY_DATA_ID).textContent ?? "null") as PlayPageData;
const sources = JSON.parse(byId(PLAY_SOURCES_ID).textContent ?? "null") as SourceIndex | null;
const finder: SiteFinder | null = sources === null ? null : siteFinder(sources);
// Where the page's script sits in the document, as the source index reads stack frames (for tests).
document.body.dataset["siteCalibration"] = JSON.stringify(finder === null ? null : (finder as unknown as { bundle: unknown }).bundle);
let base: PlayLevel | PlayLevelChoice = data.level;
/** Every (timing, prefix) the learner has stood on, the current one last: undo pops. */
let history: Stand[] = [{ values: {}, prefix: [] }];
/** The level compiled at each timing tried, by the timing's JSON: a compile is the slow part of a new timing. */
let compiled = new Map<string, ReturnType<typeof timedLevel>>();
/** Runs already made (a preview's is the run after its option), by timing and tape; the oldest go past RUNS_KEPT. */
let runs = new Map<string, PlayOutcome>();
const RUNS_KEPT = 300;
function keepRun(key: string, run: PlayOutcome): void {
  runs.delete(key);
  runs.set(key, run);
  if (runs.size > RUNS_KEPT) runs.delete(runs.keys().next().value!);
}
let outcome: PlayOutcome;
let previews: (OptionPreview | undefined)[] = [];
/** Bumped by every redraw: a preview scheduled for an older screen is dropped. */
let screen = 0;
let focusedOption = 0;
let lastAnnounced = "";
const lesson: LessonProgress = { chose: false, undid: false, won: false };

const stand = (): Stand => history[history.length - 1]!;
const timingKey = (values: TimingValues) => JSON.stringify(values);
const runKey = (values: TimingValues, tape: readonly Choice[]) => `${timingKey(values)}|${ChoiceLog.from(tape).encode()}`;
const timed = (values: TimingValues) => {
  const key = timingKey(values);
  let t = compiled.get(key);
  if (t === undefined) compiled.set(key, (t = timedLevel(base, values)));
  return t;
};
const level = (): PlayLevel => timed(stand().values).level;

function go(next: Stand, focusOptions = false): void {
  history.push(next);
  show(focusOptions);
}

function show(focusOptions = false): void {
  const { values, prefix } = stand();
  const key = runKey(values, prefix);
  // How long a step takes (the level run again from the start): shown to tests, not to the sim.
  const startMs = performance.now(); // host-time-ok: the page's own timing for the browser test; the run never reads it
  outcome = runs.get(key) ?? playTo(level(), prefix);
  keepRun(key, outcome);
  document.body.dataset["runMs"] = (performance.now() - startMs).toFixed(1); // host-time-ok: as above
  const away = deviations(prefix);
  const changes = changedKnobs(base.knobs, values).length;
  drawStatus(outcome, away, changes);
  previews = [];
  focusedOption = 0;
  drawOptions(outcome, previews, pick, where);
  drawLog(outcome.log);
  drawState(outcome.state);
  drawKnobs(base.knobs, values, base.mode);
  byId("path").textContent = ChoiceLog.from(prefix).encode() || "(no choice yet)";
  byId("export").replaceChildren();
  drawCode(sources, null, base.version);
  announce(drawOutcome(base, outcome, values, exportRun));
  lesson.won ||= outcome.broken !== null;
  drawLesson(base.lesson, lesson);
  (byId("undo") as HTMLButtonElement).disabled = history.length <= 1;
  for (const id of ["fifo-step", "random-step", "fifo-run", "fifo-to"]) (byId(id) as HTMLButtonElement).disabled = outcome.kind === "end";
  writeUrl({ level: base.id, values, choices: prefix });
  if (focusOptions) focusFirstOption();
  schedulePreviews(++screen);
}

/** Keyboard focus stays in the option list after a choice (on the end's status when the run ended). */
function focusFirstOption(): void {
  const first = document.querySelector<HTMLButtonElement>("#options button");
  if (first !== null) first.focus();
  else byId("status").focus();
}

function announce(sentence: string): void {
  if (sentence === lastAnnounced) return;
  lastAnnounced = sentence;
  byId("live").textContent = sentence;
}

const where = (p: OptionPreview) => (sources === null ? null : whereLine(sources, p, base.version));

/** Previews the options one per task, so the page stays responsive; the focused one first. */
function schedulePreviews(mine: number): void {
  if (outcome.kind !== "pause") return;
  const pause = outcome;
  const { values, prefix } = stand();
  const next = () => {
    if (mine !== screen) return;
    const order = [focusedOption, ...pause.options.map((o) => o.index).filter((i) => i !== focusedOption)];
    const i = order.find((k) => previews[k] === undefined);
    if (i === undefined) {
      document.body.dataset["previewed"] = String(mine);
      return;
    }
    const p = previewOption(level(), prefix, pause, i, finder);
    previews[i] = p;
    keepRun(runKey(values, p.tape), p.outcome);
    const box = document.querySelector<HTMLElement>(`#options [data-option="${i}"]`);
    if (box !== null) fillOption(box, pause.options[i]!.who, pause.options[i]!.does, p, where);
    if (i === focusedOption) drawCode(sources, p, base.version);
    setTimeout(next, 0); // host-time-ok: yields to the browser between previews (page responsiveness); no simulation reads it
  };
  document.body.dataset["previewed"] = "";
  setTimeout(next, 0); // host-time-ok: as above, the page's own scheduling of preview work
}

function focusOption(index: number): void {
  focusedOption = index;
  drawCode(sources, previews[index] ?? null, base.version);
}

function pick(index: number): void {
  if (outcome.kind !== "pause") return;
  lesson.chose = true;
  go({ values: stand().values, prefix: [...stand().prefix, { kind: outcome.choice.kind, n: outcome.choice.n, index }] }, true);
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
  go({ values: stand().values, prefix: fifoUntil(level(), stand().prefix, ms) }, true);
}

function exportRun(): void {
  const { text } = timed(stand().values);
  const end = outcome.kind === "end" ? outcome : playToEnd(level(), stand().prefix);
  const record = exportRecord(level(), end, text);
  const name = exportFileName(level());
  const link = el("a", `save ${name}`, { download: name, href: URL.createObjectURL(new Blob([record], { type: "application/json" })) });
  const area = el("textarea", undefined, { id: "export-text", readonly: "", "aria-label": "the exported run record" });
  area.value = record;
  const whereFrom = text === null ? ` (from the folder the scenario ${level().scenarioFile} is relative to)` : " (the record carries the scenario at your timing)";
  byId("export").replaceChildren(link, el("p", `Then: kubelet-sim replay ${name}${whereFrom} reproduces this run, trace ${end.traceHash}.`), area);
}

function pickLevel(id: string, start: Stand = { values: {}, prefix: [] }): void {
  const next = id === data.level.id ? data.level : data.levels.find((l) => l.id === id);
  if (next === undefined) return;
  base = next;
  compiled = new Map();
  runs = new Map();
  history = [start];
  (byId("level-picker") as HTMLSelectElement).value = next.id;
  byId("level-title").textContent = `Play ${next.id}: ${next.title}`;
  byId("goal").textContent = next.goal;
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
    ["undo", "undo", () => history.length > 1 && (history.pop(), (lesson.undid = lesson.chose), show(true))],
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
  const input = el("input", undefined, { id: "fifo-to-ms", type: "number", min: "0", step: "100", value: "1000", "aria-label": "fifo to this virtual time, in milliseconds" });
  byId("controls").replaceChildren(...made, to, input, el("span", "ms"));
  byId("set-timing").addEventListener("click", () => setTiming(readKnobs(base.knobs)));
  byId("written-timing").addEventListener("click", () => setTiming({}));
  byId("status").tabIndex = -1;
  const options = byId("options");
  options.addEventListener("focusin", (e) => focusOption(Number((e.target as HTMLElement).dataset["index"] ?? 0)));
  options.addEventListener("mouseover", (e) => {
    const b = (e.target as HTMLElement).closest<HTMLElement>("button[data-index]");
    if (b !== null && Number(b.dataset["index"]) !== focusedOption) focusOption(Number(b.dataset["index"]));
  });
  options.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const all = [...options.querySelectorAll<HTMLButtonElement>("button[data-index]")];
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    all[(at + (e.key === "ArrowDown" ? 1 : all.length - 1)) % all.length]?.focus();
    e.preventDefault();
  });
}

drawPicker(data, (id) => pickLevel(id));
controls();
const fromUrl = readUrl(location.hash);
if (fromUrl.level !== null && fromUrl.level !== "" && (fromUrl.level === data.level.id || data.levels.some((l) => l.id === fromUrl.level))) {
  pickLevel(fromUrl.level, startFromUrl(fromUrl.level, fromUrl.values, fromUrl.choices));
} else show();
performance.mark("kubelet-sim:first-choice");

/** The URL's timing and choices, when they still compile and fit the level; else its start. */
function startFromUrl(id: string, values: TimingValues, choices: Choice[]): Stand {
  base = id === data.level.id ? data.level : data.levels.find((l) => l.id === id)!;
  try {
    timed(values);
  } catch {
    return { values: {}, prefix: [] };
  }
  const end = playTo(timed(values).level, choices);
  return end.kind === "end" && end.verdict === "diverged" ? { values, prefix: [] } : { values, prefix: choices };
}
