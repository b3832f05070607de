// The play page: one self-contained file in which the simulator runs in the browser. The kernel,
// the models and the page's controls are bundled ahead (src/play/client/, by the caller: bundling
// reads files, which this layer must not) and handed in as text; the level travels as JSON in the
// page. Nothing is fetched: the Content-Security-Policy forbids every request.
import { VERSION } from "../version.ts";
import type { PlayPageData } from "./level.ts";
import { escapeHtml, pageHead, scriptCode, scriptJson } from "../report/html/inline.ts";

export const PLAY_DATA_ID = "play-level";

const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'";

const CSS = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d2330;background:#fafbfc}
header{padding:10px 16px;background:#1d2330;color:#fff}h1{font-size:18px;margin:0 0 4px}
header p{margin:2px 0;color:#d8dde8}details summary{cursor:pointer;color:#9fc3ff}
main{display:grid;grid-template-columns:minmax(340px,1fr) minmax(340px,1fr);gap:16px;padding:12px 16px}
section h2{font-size:15px;margin:8px 0}#status{font-weight:600;margin:6px 0}
.won{background:#ffe3e0;border:1px solid #d33;padding:8px;border-radius:4px}
.ended{background:#eef3ff;border:1px solid #6b8fd6;padding:8px;border-radius:4px}
#options button{display:block;width:100%;text-align:left;margin:3px 0;padding:6px 8px;border:1px solid #b8c2d6;background:#fff;border-radius:4px;cursor:pointer}
#options button:hover{background:#eef3ff}#options .fifo{border-left:4px solid #6b8fd6}
#controls button{margin:2px 4px 2px 0}.who{font-family:ui-monospace,monospace;font-weight:600}
table{border-collapse:collapse;width:100%;margin-bottom:10px}td{border-bottom:1px solid #e3e7ee;padding:2px 6px;vertical-align:top;font-family:ui-monospace,monospace;font-size:12px}
td:first-child{white-space:nowrap;color:#555}textarea{width:100%;height:140px;font:11px ui-monospace,monospace}
#path{font:11px ui-monospace,monospace;color:#555;word-break:break-all}
#timing{border:1px solid #d8dde8;border-radius:4px;padding:4px 8px;margin:6px 0}#timing h3{font-size:13px;margin:2px 0}
.knob{display:block;margin:3px 0}.knob input{width:7em}.range{color:#555;font-size:12px}#timing-error{color:#b00;white-space:pre-wrap}
header select{max-width:100%}#fifo-to-ms{width:7em}
`;


/** Renders the page. Deterministic: the same level and script give the same bytes. */
export function renderPlayPage(data: PlayPageData, clientScript: string): string {
  const { level } = data;
  if (clientScript === "") throw new Error("the play page needs its script: the CLI bundles src/play/client/ for it");
  const title = `${level.id}: ${level.title}`;
  return [
    ...pageHead({ csp: CSP, generator: `kubelet-sim ${VERSION}`, title: `Play ${title} (kubelet-sim)`, css: CSS }),
    `<header><h1 id="level-title">Play ${escapeHtml(title)}</h1><p id="brief">${escapeHtml(level.brief)}</p>`,
    `<details><summary>hint</summary><p id="hint">${escapeHtml(level.hint)}</p></details>`,
    '<p><label>level <select id="level-picker"></select></label></p>',
    "<noscript>The simulator runs in this page with JavaScript; turn it on to play.</noscript></header>",
    '<main><section><h2>You are the scheduler</h2><div id="status">loading…</div>',
    '<div id="timing"><h3>The timing</h3><div id="knobs"></div><button id="set-timing">set timing (starts again)</button> <button id="written-timing">written timing</button><div id="timing-error"></div></div>',
    '<div id="choice"></div><div id="options"></div>',
    '<div id="controls"></div><div id="path"></div><div id="export"></div></section>',
    '<section><h2>The shared state</h2><div id="state"></div></section></main>',
    `<script type="application/json" id="${PLAY_DATA_ID}">${scriptJson(data)}</script>`,
    `<script>${scriptCode(clientScript)}</script>`,
    "</body></html>",
    "",
  ].join("\n");
}
