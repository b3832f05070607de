// A race's level as scripts/update-play-levels.ts builds it: the hunt (or deterministic) form's text
// on the buggy side, its knobs, and runs of it at a timing and a choice prefix (fifo after it).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { sideOverrides, type RaceEntry } from "../../src/races/catalog.ts";
import { loadScenarioText, type LoadResult } from "../../src/scenario/index.ts";
import { loadScenarioTextWithOverrides } from "../../src/scenario/overrides.ts";
import { levelCaveat } from "../../src/play/goals.ts";
import type { Scenario } from "../../src/scenario/resolve.ts";
import { simulate } from "../../src/simulate.ts";
import { ChoiceLog, KernelLog, type CallSpan, type Choice } from "../../src/sim/index.ts";
import { playFile } from "../../src/play/levels.ts";
import { pinTiming, timingKnobs, type TimingKnob, type TimingValues } from "../../src/play/timing.ts";

export const ROOT = join(import.meta.dirname, "..", "..");

export interface Level {
  race: RaceEntry;
  text: string;
  knobs: TimingKnob[];
  loaded: LoadResult;
}

export interface Run {
  broken: boolean;
  diverged: boolean;
  tape: Choice[];
  /** The virtual time of each choice (with `observe`). */
  times: number[];
}

/** The form's text made a level: named, on the buggy side, expecting the race's invariant never to break. */
export function levelText(race: RaceEntry, form: "hunt" | "demo"): string {
  const file = form === "hunt" ? race.hunt.file : race.file;
  const doc = parseDocument(readFileSync(join(ROOT, file), "utf8"));
  const o = sideOverrides(race.buggy);
  doc.set("name", `${race.id.toLowerCase()}-play`);
  if (o.version !== undefined) doc.setIn(["kubelet", "version"], o.version);
  for (const [k, v] of Object.entries(o.variants ?? {})) doc.setIn(["kubelet", "variants", k], v);
  for (const [k, v] of Object.entries(o.featureGates ?? {})) doc.setIn(["kubelet", "featureGates", k], v);
  doc.set("expect", doc.createNode([{ never: race.invariant }], { flow: false }));
  doc.commentBefore = [
    ` Play mode's level for ${race.id} (kubelet-sim play ${race.id.toLowerCase()}), written by`,
    ` scripts/update-play-levels.ts from ${form === "hunt" ? "the hunt form" : "the deterministic form"} ${file}`,
    form === "hunt" ? " on the buggy side. Its swarm ranges are the timings the page lets the learner set." : " on the buggy side: no timing of the hunt form was found that wins.",
  ].join("\n");
  return doc.toString({ lineWidth: 0 });
}

export function makeLevel(race: RaceEntry, text: string): Level {
  const loaded = loadScenarioText(text, playFile(race.id));
  return { race, text, loaded, knobs: timingKnobs(loaded.raw, loaded.scenario) };
}

const compiled = new Map<string, Scenario>();

export function scenarioAt(level: Level, values: TimingValues): Scenario {
  const text = pinTiming(level.text, level.knobs, values);
  let s = compiled.get(text);
  if (s === undefined) {
    if (compiled.size > 2000) compiled.clear();
    compiled.set(text, (s = loadScenarioText(text, playFile(level.race.id)).scenario));
  }
  return s;
}

/** The run at a timing with a choice prefix, fifo after it. */
export function runAt(level: Level, values: TimingValues, tape: readonly Choice[] = [], observe = false): Run {
  const log = observe ? new KernelLog() : undefined;
  const r = simulate(scenarioAt(level, values), { strategy: { name: "replay", tape: ChoiceLog.from(tape), whenExhausted: "fifo" }, sinks: [], keepRecords: false, ...(log === undefined ? {} : { observer: log }) });
  return {
    broken: r.checks.violations.some((v) => v.invariant === level.race.invariant),
    diverged: r.run.verdict === "diverged",
    tape: r.run.choices.toArray(),
    times: log?.choices.map((c) => c.t) ?? [],
  };
}

/** Every instant something happens in the fifo run at a timing (records and choices), and the calls made. */
export function instantsAt(level: Level, values: TimingValues): { instants: number[]; calls: CallSpan[] } {
  const log = new KernelLog();
  const r = simulate(scenarioAt(level, values), { strategy: { name: "fifo" }, observer: log });
  const instants = [...new Set([...log.choices.map((c) => c.t), ...(r.records ?? []).map((x) => x.t)])].sort((a, b) => a - b);
  return { instants, calls: log.calls };
}

/** Each pod as a fifo run of the scenario ends: gone, or its kubectl get columns. */
function podsAtEnd(scenario: Scenario): string[] {
  const last = new Map<string, string>();
  for (const r of simulate(scenario, { strategy: { name: "fifo" } }).records ?? []) {
    if (r.kind === "PodView") last.set(String(r["pod"]), r["deleted"] === true ? "gone" : `${String(r["ready"])} ${String(r["status"])}`);
  }
  return [...last].map(([pod, v]) => `${pod} ${v}`).sort();
}

/**
 * Whether the level's written timing shows no harm of its own: under fifo every pod ends as under
 * the fixed kubelet (a stuck pod the invariant does not name would read as the harm asked for).
 * A race whose page says why its level cannot (src/play/goals.ts) is exempt, as its test is.
 */
export function endsAsFixed(level: Level): boolean {
  if (levelCaveat(level.race.id) !== null) return true;
  const fixed = loadScenarioTextWithOverrides(level.text, playFile(level.race.id), sideOverrides(level.race.fixed)).scenario;
  return podsAtEnd(level.loaded.scenario).join("\n") === podsAtEnd(fixed).join("\n");
}
