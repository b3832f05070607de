// The play page: one self-contained file in which the simulator runs in the browser. The kernel,
// the models and the page's controls are bundled ahead (src/play/client/, by the caller: bundling
// reads files, which this layer must not) and handed in as text, with the source index that lets
// each option show the model's code (scripts/play_sources.cjs); the level travels as JSON in the
// page. Nothing is fetched: the Content-Security-Policy forbids every request.
import { VERSION } from "../version.ts";
import type { PlayPageData } from "./level.ts";
import type { SourceIndex } from "./sources.ts";
import { escapeHtml, pageHead, scriptCode, scriptJson } from "../report/html/inline.ts";
import { PLAY_CSS } from "./page_style.ts";

export const PLAY_DATA_ID = "play-level";
export const PLAY_SOURCES_ID = "play-sources";

const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'";

/** How to read a choice path, shown beside it. */
const PATH_HELP =
  "Each entry is one choice, in order: p = which goroutine runs, s = which ready select case fires, v = a value (where a Go map iteration starts); " +
  "1/3 = the option taken (0 is fifo's) of 3; *5 = the same five times in a row. Export writes this path into the run record.";

const CONTROLS_HELP = [
  "Click an option (or press Enter on it; the arrow keys move between them) to let that goroutine run its next step.",
  "fifo step takes option 0, the one the fifo strategy would; let fifo run answers every remaining choice that way; fifo to t= skips to the first choice at or after a virtual time.",
  "undo goes back one step (the run starts again from the beginning over your choices: determinism makes that exact).",
  "The code pane shows where the focused option's goroutine stands in the model's TypeScript and the lines it is about to run, with the upstream Go file at the kubelet's release tag.",
];

/** Renders the page. Deterministic: the same level, script and index give the same bytes. */
export function renderPlayPage(data: PlayPageData, clientScript: string, sources: SourceIndex | null): string {
  const { level } = data;
  if (clientScript === "") throw new Error("the play page needs its script: the CLI bundles src/play/client/ for it");
  const title = `${level.id}: ${level.title}`;
  return [
    ...pageHead({ csp: CSP, generator: `kubelet-sim ${VERSION}`, title: `Play ${title} (kubelet-sim)`, css: PLAY_CSS }),
    '<a class="skip" href="#options">skip to the choice</a>',
    `<header><div class="top"><h1 id="level-title">Play ${escapeHtml(title)}</h1>`,
    '<label class="picker">level <select id="level-picker"></select></label></div>',
    `<p id="goal" class="goal">${escapeHtml(level.goal)}</p>`,
    `<details id="about"><summary>the level and how to play</summary><p id="brief">${escapeHtml(level.brief)}</p>`,
    `<ul class="help">${CONTROLS_HELP.map((h) => `<li>${escapeHtml(h)}</li>`).join("")}</ul></details>`,
    `<details><summary>hint</summary><p id="hint">${escapeHtml(level.hint)}</p></details>`,
    "<noscript>The simulator runs in this page with JavaScript; turn it on to play.</noscript></header>",
    '<div id="lesson" hidden></div>',
    '<main><section class="play" aria-label="the choice">',
    '<div id="status">loading…</div>',
    '<div id="live" class="sr-only" role="status" aria-live="polite" aria-atomic="true"></div>',
    '<div id="outcome" hidden></div>',
    '<h2 id="choice"></h2><div id="options" role="group" aria-labelledby="choice"></div>',
    '<div id="controls"></div>',
    '<details id="path-box"><summary>your choice path</summary>',
    `<p class="help" id="path-help">${escapeHtml(PATH_HELP)}</p><p id="path"></p></details>`,
    '<div id="timing"><h3>The timing</h3><p class="help" id="timing-note"></p><div id="knobs"></div>',
    '<button id="set-timing">set timing (starts again)</button> <button id="written-timing">written timing</button><div id="timing-error" role="alert"></div></div>',
    '<div id="export"></div></section>',
    '<section class="code" aria-label="the code"><h2>The code</h2><div id="code"><p class="help">Focus an option to see the code its goroutine stands at.</p></div></section>',
    '<section class="log" aria-label="the log"><h2>The log</h2><ol id="log"></ol></section>',
    '<section class="state" aria-label="the shared state"><h2>The shared state</h2><div id="state"></div></section></main>',
    `<script type="application/json" id="${PLAY_DATA_ID}">${scriptJson(data)}</script>`,
    `<script type="application/json" id="${PLAY_SOURCES_ID}">${scriptJson(sources)}</script>`,
    // On a line of its own: the source index's table counts the script's lines from its first.
    `<script>\n${scriptCode(clientScript)}</script>`,
    "</body></html>",
    "",
  ].join("\n");
}
