// `kubelet-sim play RACE-OR-FILE`: the level's page, written to a file (atomically: whole or not at
// all) or served on 127.0.0.1. The page carries the simulator itself (src/play/client/, bundled at
// build time), the level's compiled scenario, and every race's level as text for its picker;
// everything it does happens in the browser.
import { writeFileAtomic } from "./atomic.ts";
import { playClientScript } from "./html_client_bundle.ts";
import type { CliIo } from "./io.ts";
import { raceLevelChoices, resolveLevel } from "./play_level.ts";
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
  return { html: renderPlayPage({ level, levels: raceLevelChoices() }, playClientScript()), id: level.id };
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
