// The race page's "Play it" paragraph (docs/races/rNN.md), written from the level and its notes.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claimSize } from "../../src/play/claim.ts";
import { playFile, type PlayLevelEntry } from "../../src/play/levels.ts";
import { ROOT, type Level } from "./level.ts";

function playParagraph(level: Level, win: PlayLevelEntry): string {
  const file = `\`${playFile(level.race.id)}\``;
  const see = "See [play mode](../teaching.md#play-mode).";
  const choices = `${win.deviations} choice${win.deviations === 1 ? "" : "s"} away from fifo`;
  if (win.mode === "demo") return `The level (${file}) is this race's deterministic form, where fifo breaks the invariant: step through it and watch the shared state go wrong. ${see}`;
  if (win.mode === "order") {
    const steps = level.knobs.filter((k) => k.kind === "step");
    const knobs = steps.length === 0 ? "Its timing is fixed (no knob)" : `Its knobs move ${steps.map((k) => k.label.replace(/ happens at$/, "")).join("; ")} within a few milliseconds, and a test runs every one of those ${claimSize(level.knobs)} timings under fifo`;
    return `The level (${file}) is won by order alone: at its written timing fifo keeps the invariant, and only an interleaving breaks it. ${knobs}. The shortest win found takes ${choices}, and no timing change. ${see}`;
  }
  const knobs = level.knobs.map((k) => k.label.replace(/ (takes|happens at|is)$/, ""));
  const changes = Object.keys(win.knobs).length;
  const timing = changes === 0 ? "at the written timing" : `${win.timing} (${changes} timing change${changes === 1 ? "" : "s"})`;
  return `The level (${file}) is this race's hunt form, timed so that fifo keeps the invariant. You set its timing (${knobs.join("; ")}) and choose who runs. The shortest win found: ${timing}, and ${choices}. ${see}`;
}

export function updateRacePage(level: Level, win: PlayLevelEntry): void {
  const path = join(ROOT, "docs", "races", `${level.race.id.toLowerCase()}.md`);
  const md = readFileSync(path, "utf8");
  const section = md.indexOf("## Play it\n");
  if (section < 0) throw new Error(`${path}: no "## Play it" section`);
  const fenceEnd = md.indexOf("```\n\n", md.indexOf("```", section) + 3) + 5;
  const paraEnd = md.indexOf("\n", fenceEnd);
  writeFileSync(path, `${md.slice(0, fenceEnd)}${playParagraph(level, win)}${md.slice(paraEnd)}`);
}
