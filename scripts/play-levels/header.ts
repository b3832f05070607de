// The comment an order level opens with: where it comes from, what its knobs allow, and how its
// timing differs from the form it was made from (its steps' instants, CRI and apiserver
// latencies). The description under it is the form's, which tells the race's story at the form's
// own timing: the comment says what the level moved, so that a reader of the file does not take
// the form's numbers for the level's.
import { parseDocument } from "yaml";
import { formatDuration, parseDuration } from "../../src/sim/duration.ts";
import { claimSize } from "../../src/play/claim.ts";
import type { RaceEntry } from "../../src/races/catalog.ts";
import type { Level } from "./level.ts";

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

function stepWords(step: Raw): string {
  const [action, arg] = Object.entries(step).find(([k]) => k !== "at") ?? ["step", ""];
  const target = typeof arg === "string" ? arg : isRecord(arg) && typeof arg["pod"] === "string" ? arg["pod"] : "";
  return target === "" ? action : `${action} ${target}`;
}

const instant = (v: unknown): string | null => (typeof v === "string" ? formatDuration(parseDuration(v)) : null);

/** What the level's text times differently from the form's: its timeline's instants and the runtime's latencies. */
export function timingChanges(formText: string, levelText: string): string[] {
  const form = parseDocument(formText).toJS() as Raw;
  const level = parseDocument(levelText).toJS() as Raw;
  const out: string[] = [];
  const [ft, lt] = [form["timeline"], level["timeline"]].map((t) => (Array.isArray(t) ? (t as Raw[]) : []));
  lt!.forEach((step, i) => {
    const was = instant(ft![i]?.["at"]);
    const now = instant(step["at"]);
    if (now !== null && was !== now) out.push(`${stepWords(step)} at ${now} (${was ?? "absent"} there)`);
  });
  const latency = (doc: Raw): Raw => (isRecord(doc["runtime"]) && isRecord(doc["runtime"]["latency"]) ? doc["runtime"]["latency"] : {});
  const [fl, ll] = [latency(form), latency(level)];
  for (const [method, v] of Object.entries(ll)) {
    const now = instant(v);
    const was = instant(fl[method]);
    if (now !== null && was !== now) out.push(`${method} takes ${now} (${was === null ? "a range or the runtime's default" : was} there)`);
  }
  const api = (doc: Raw): string | null => (isRecord(doc["apiserver"]) ? instant(doc["apiserver"]["latency"]) : null);
  if (api(level) !== null && api(level) !== api(form)) out.push(`an apiserver round trip takes ${api(level)} (${api(form) ?? "a range or the default"} there)`);
  return out;
}

export function orderHeader(race: RaceEntry, form: "hunt" | "demo", level: Level, jitterMs: number, formText: string): string {
  const file = form === "hunt" ? `the hunt form ${race.hunt.file}` : `the deterministic form ${race.file}`;
  const size = claimSize(level.knobs);
  const changes = timingChanges(formText, level.text);
  return [
    ` Play mode's level for ${race.id} (kubelet-sim play ${race.id.toLowerCase()}), written by`,
    ` scripts/update-play-levels.ts from ${file} on the buggy side, at a timing`,
    " where fifo keeps the invariant and an interleaving breaks it.",
    jitterMs === 0
      ? " It has no timing knob: with its steps allowed a millisecond later, fifo already breaks the invariant at one of those timings."
      : size === 1
        ? " Its swarm section moves none of its steps (they are all at 0s): it has no timing knob."
        : ` Its swarm section is narrowed to the timings a test runs every one of (${size}), each keeping the invariant under fifo.`,
    ...(changes.length === 0 ? [] : [" The description is the form's; this level's timing differs from it:", ...changes.map((c) => `   ${c}`)]),
  ].join("\n");
}
