// The HTML view of one run, or of two side by side: one self-contained file. The page's script is
// bundled ahead (src/report/html_client/, by the caller: bundling reads files, which this layer
// must not) and handed in as text; the runs' timelines travel as JSON in the page. Nothing is
// fetched: a Content-Security-Policy forbids every request, so a page that tried would fail loudly.
import { VERSION } from "../../version.ts";
import { firstDifference } from "../diff.ts";
import { buildTimeline } from "../timeline/model.ts";
import type { RunView } from "../timeline/kernel_view.ts";
import { PAGE_DATA_ID, type PageData } from "./page_data.ts";
import { PAGE_CSS } from "./style.ts";
import { escapeHtml, pageHead, scriptCode, scriptJson } from "./inline.ts";

export interface HtmlOptions {
  /** The page's script, bundled (see src/cli/html_client_bundle.ts). */
  clientScript?: string;
  /** Goroutines the narrowed view keeps besides those the violation names (a race's catalog actors). */
  narrowActors?: readonly string[];
}

const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

/** The page data of one run, or of two runs compared. */
export function pageData(views: readonly RunView[], narrowActors: readonly string[] = []): PageData {
  if (views.length < 1 || views.length > 2) throw new RangeError(`the HTML view shows one run or two, not ${views.length}`);
  const runs = views.map((v) => buildTimeline(v));
  const isDiff = views.length === 2;
  const diff = isDiff ? firstDifference(views[0]!.records, views[1]!.records, [runs[0]!.label, runs[1]!.label]) : null;
  return { generator: `kubelet-sim ${VERSION}`, runs, diff, isDiff, narrowActors: [...narrowActors] };
}

/** Renders the page. Deterministic: the same runs and script give the same bytes. */
export function renderHtml(views: readonly RunView[], opts: HtmlOptions): string {
  if (opts.clientScript === undefined || opts.clientScript === "") {
    throw new Error("the HTML format needs the page's script: pass clientScript (the CLI bundles src/report/html_client/ for it)");
  }
  const data = pageData(views, opts.narrowActors);
  const heading = data.isDiff ? `${data.runs[0]!.label} vs ${data.runs[1]!.label}: ${data.runs[0]!.title}` : data.runs[0]!.title;
  return [
    ...pageHead({ csp: CSP, generator: data.generator, title: `kubelet-sim: ${heading}`, css: PAGE_CSS }),
    `<header id="header"><h1>${escapeHtml(heading)}</h1><noscript>This view draws the run with JavaScript; turn it on to see it.</noscript></header>`,
    '<main><div id="chart-wrap"><div id="axis"></div><div id="chart"></div></div><aside id="details"></aside></main>',
    `<script type="application/json" id="${PAGE_DATA_ID}">${scriptJson(data)}</script>`,
    `<script>${scriptCode(opts.clientScript)}</script>`,
    "</body></html>",
    "",
  ].join("\n");
}
