// The HTML view of an exploration summary: what each strategy reached, and its coverage over its
// runs as a chart, one line per strategy (`kubelet-sim explore FILE --html view.html`, with
// `--compare pos,random` for the lines of other strategies over the same runs). One self-contained
// file, drawn as static SVG: no script, nothing fetched (a Content-Security-Policy forbids it).
// Pure: summaries in, a string out.
import { VERSION } from "../version.ts";
import { coverageOf, plateauRuns, type CoverageReport } from "../explore/coverage_summary.ts";
import { describeFailure } from "../explore/failure.ts";
import { firstFailing, runsPerSec, type ExploreSummary } from "../explore/summary.ts";
import { escapeHtml, pageHead } from "./html/inline.ts";

const CSP = "default-src 'none'; style-src 'unsafe-inline'";
/** Line colours, one per strategy in the order given (distinct for colour-blind readers: Okabe-Ito). */
const COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"];
const W = 720;
const H = 320;
const PAD = { left: 56, right: 16, top: 16, bottom: 40 };

const CSS = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #222; }
h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
p.sub { color: #555; margin: 0 0 1rem; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ccc; padding: .25rem .6rem; text-align: left; }
th { background: #f4f4f4; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
svg text { font: 12px system-ui, sans-serif; fill: #333; }
.swatch { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; vertical-align: middle; }
.note { color: #8a4b00; }
`;

export interface ExploreViewEntry {
  /** The strategy as explore names it (guided:8, pos, pct:3:100). */
  label: string;
  summary: ExploreSummary;
}

/** The page. Deterministic: the same summaries give the same bytes (wall-clock rates aside, which the summaries carry). */
export function renderExploreHtml(entries: readonly ExploreViewEntry[]): string {
  if (entries.length === 0) throw new RangeError("the exploration view needs at least one exploration");
  const file = entries[0]!.summary.plan.file;
  const covs = entries.map((e) => coverageOf(e.summary.runs, e.summary.plan.coverage));
  const title = `Exploration of ${file}`;
  return [
    ...pageHead({ csp: CSP, generator: `kubelet-sim ${VERSION}`, title: `kubelet-sim: ${title}`, css: CSS }),
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="sub">seed ${entries[0]!.summary.plan.seed}, swarm ${escapeHtml(entries[0]!.summary.plan.swarm)}; coverage counts reads-from pairs on shared state and abstract pod states (docs/exploring.md, "Coverage")</p>`,
    summaryTable(entries, covs),
    chart(entries, covs),
    familyTable(entries, covs),
    "</body></html>",
    "",
  ].join("\n");
}

function summaryTable(entries: readonly ExploreViewEntry[], covs: readonly (CoverageReport | null)[]): string {
  const rows = entries.map((e, i) => {
    const s = e.summary;
    const first = firstFailing(s);
    const c = covs[i];
    const failure = first === null ? "none" : `run ${first.index + 1}: ${escapeHtml(describeFailure(first.failure!))}`;
    const plateau = c?.plateau == null ? "" : ` <span class="note">(stopped growing: none new in the last ${c.plateau} runs)</span>`;
    return `<tr><td><span class="swatch" style="background:${COLOURS[i % COLOURS.length]}"></span>${escapeHtml(e.label)}</td><td class="num">${s.runs.length}</td>` +
      `<td class="num">${runsPerSec(s) ?? "-"}</td><td class="num">${c === null ? "not measured" : c.features}</td><td class="num">${c === null ? "-" : c.lastNewRun}</td><td>${failure}${plateau}</td></tr>`;
  });
  return `<table><thead><tr><th>strategy</th><th>runs</th><th>runs/s</th><th>coverage</th><th>last new at run</th><th>first failure</th></tr></thead><tbody>\n${rows.join("\n")}\n</tbody></table>`;
}

/** Coverage (features) over runs, a step line per strategy. */
function chart(entries: readonly ExploreViewEntry[], covs: readonly (CoverageReport | null)[]): string {
  const maxRuns = Math.max(1, ...entries.map((e) => e.summary.runs.length));
  const maxFeatures = Math.max(1, ...covs.map((c) => c?.features ?? 0));
  const x = (runs: number) => PAD.left + ((W - PAD.left - PAD.right) * runs) / maxRuns;
  const y = (features: number) => H - PAD.bottom - ((H - PAD.top - PAD.bottom) * features) / maxFeatures;
  const lines = covs.map((c, i) => {
    if (c === null) return "";
    const pts: string[] = [`${x(0).toFixed(1)},${y(0).toFixed(1)}`];
    let last = 0;
    for (const [runs, features] of c.curve) {
      pts.push(`${x(runs - 1).toFixed(1)},${y(last).toFixed(1)}`, `${x(runs).toFixed(1)},${y(features).toFixed(1)}`);
      last = features;
    }
    const label = escapeHtml(entries[i]!.label);
    return `<polyline class="coverage" data-strategy="${label}" fill="none" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="2" points="${pts.join(" ")}"><title>${label}: ${c.features} features</title></polyline>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const r = Math.round(maxRuns * f);
    const n = Math.round(maxFeatures * f);
    return `<text x="${x(r).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${r}</text>` +
      `<text x="${PAD.left - 6}" y="${(y(n) + 4).toFixed(1)}" text-anchor="end">${n}</text>`;
  });
  const axes = `<line x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}" stroke="#999"/>` +
    `<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${H - PAD.bottom}" stroke="#999"/>` +
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 6}" text-anchor="middle">runs</text>` +
    `<text x="14" y="${(PAD.top + H - PAD.bottom) / 2}" text-anchor="middle" transform="rotate(-90 14 ${(PAD.top + H - PAD.bottom) / 2})">coverage (features)</text>`;
  const threshold = `<p class="sub">A line that stays flat for ${plateauRuns(maxRuns)} runs (min(1,000, half the runs), at least 100) has stopped growing.</p>`;
  return `<svg id="coverage-chart" role="img" aria-label="coverage over runs, per strategy" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${axes}${ticks.join("")}${lines.join("")}</svg>\n${threshold}`;
}

function familyTable(entries: readonly ExploreViewEntry[], covs: readonly (CoverageReport | null)[]): string {
  const families = [...new Set(covs.flatMap((c) => Object.keys(c?.byFamily ?? {})))].sort();
  if (families.length === 0) return "";
  const head = `<tr><th>strategy</th>${families.map((f) => `<th>${escapeHtml(f)}</th>`).join("")}</tr>`;
  const rows = entries.map((e, i) => `<tr><td>${escapeHtml(e.label)}</td>${families.map((f) => `<td class="num">${covs[i]?.byFamily[f] ?? 0}</td>`).join("")}</tr>`);
  return `<table><caption>features by family: api (API objects), slot (pod worker slots), pleg (the PLEG's cache), status (the status cache), state and edge (pod states and their changes), world and call (where steps and runtime calls landed)</caption><thead>${head}</thead><tbody>${rows.join("")}</tbody></table>`;
}
