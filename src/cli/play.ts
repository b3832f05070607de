// `kubelet-sim play RACE-OR-FILE`: the level's page, written to a file (atomically: whole or not at
// all) or served on 127.0.0.1. The page carries the simulator itself (src/play/client/, bundled at
// build time), the level's compiled scenario, and every race's level as text for its picker;
// everything it does happens in the browser.
import { writeFileAtomic } from "./atomic.ts";
import { playClientScript, playSourceIndex } from "./html_client_bundle.ts";
import type { CliIo } from "./io.ts";
import { levelNotes, raceLevelChoices, raceLevelIds, resolveLevel } from "./play_level.ts";
import { listen, type Listening } from "./serve_http.ts";
import { renderPlayPage } from "../play/page.ts";
import { text } from "../server/response.ts";

export interface PlayRequest {
  level: string;
  /** Where to write the page; null: <id>-play.html here. */
  out: string | null;
  /** Serve on 127.0.0.1 at this port (0: any free one) instead of writing a file. */
  servePort: number | null;
}

/** The page of the level the user named (a UserError, exit 2, for an unknown race or a bad file). */
export function playPage(levelArg: string): { html: string; id: string } {
  const level = resolveLevel(levelArg);
  // Every race is a level of the page's picker, whichever it opens on.
  return { html: renderPlayPage({ level, levels: raceLevelChoices() }, playClientScript(), playSourceIndex()), id: level.id };
}

export function writePlayPage(req: PlayRequest, io: CliIo): number {
  const { html, id } = playPage(req.level);
  const out = req.out ?? `${id.toLowerCase().replace(/[^a-z0-9-]+/g, "-")}-play.html`;
  writeFileAtomic(out, html);
  io.stdout.write(`wrote ${out} (${Buffer.byteLength(html, "utf8")} bytes): open it in a browser; it needs no network\n`);
  return 0;
}

/** Serves the page at / until stopped; other paths are 404. */
export async function servePlayPage(req: PlayRequest, io: CliIo): Promise<Listening> {
  const { html } = playPage(req.level);
  const page = { status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "X-Content-Type-Options": "nosniff" }, body: html };
  const listening = await listen((r) => (r.path === "/" ? page : text(404, "not found: the play page is at /\n")), req.servePort ?? 0);
  io.stdout.write(`serving the play page of ${req.level} on ${listening.url}/ (Ctrl-C stops)\n`);
  return listening;
}

/** One level's line of `play --levels`: its race, and what its stored shortest win changes. */
export interface LevelLine {
  race: string;
  mode: string;
  /** The knobs the win sets (the seed included). */
  timingChanges: number;
  /** Its choices away from fifo. */
  deviations: number;
  choices: number;
  file: string;
}

export function levelLines(): LevelLine[] {
  return raceLevelIds().map((race) => {
    const n = levelNotes(race);
    return { race, mode: n.mode, timingChanges: Object.keys(n.knobs).length, deviations: n.deviations, choices: n.choices, file: `scenarios/races/play/${race.toLowerCase()}-play.yaml` };
  });
}

/** `play --levels`: one line per level, JSON with --json. */
export function listLevels(json: boolean, io: CliIo): number {
  const lines = levelLines();
  if (json) {
    for (const l of lines) io.stdout.write(`${JSON.stringify(l)}\n`);
    return 0;
  }
  io.stdout.write("race  mode     timing changes  choices away from fifo  file\n");
  for (const l of lines) io.stdout.write(`${l.race.padEnd(5)} ${l.mode.padEnd(8)} ${String(l.timingChanges).padStart(14)}  ${String(l.deviations).padStart(22)}  ${l.file}\n`);
  const order = lines.filter((l) => l.mode === "order").length;
  io.stdout.write(`${lines.length} levels; ${order} won by order alone (no timing change), ${lines.length - order} by timing or as written\n`);
  return 0;
}
