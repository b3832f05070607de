// The part of the view that does not move with time: lane backgrounds (greyed before a goroutine
// started and after it ended), the label column, and the time axis.
import { escapeText, formatClock, tickText } from "./format.ts";
import { ROW, type Layout } from "./layout.ts";
import type { RunIndex } from "./data.ts";

/** The label column's width: narrower on a phone, so the timeline keeps most of the screen. */
export let LABEL_W = 240;

/** Sets the label column for a viewport this wide (before the chart mounts and on a resize). */
export function fitLabelColumn(viewportPx: number): void {
  LABEL_W = viewportPx < 700 ? 110 : 240;
}

/** Backgrounds, in plot coordinates (they depend on x for the dead parts of a lane). */
export function backgroundMarkup(layout: Layout, runs: readonly RunIndex[], x: (ms: number) => number, width: number): string {
  const out: string[] = [];
  for (const section of layout.sections) {
    const endMs = runs[section.run]!.model.endMs;
    section.lanes.forEach((row, i) => {
      out.push(`<rect class="lane-bg${i % 2 === 1 ? " alt" : ""}" x="0" y="${row.y}" width="${width}" height="${row.h}"/>`);
      const lane = row.lane;
      if (lane.proc === null) return;
      if (lane.startMs > 0) out.push(`<rect class="lane-dead" x="${LABEL_W}" y="${row.y}" width="${Math.max(0, x(lane.startMs) - LABEL_W)}" height="${row.h}"/>`);
      if (lane.endMs !== null && lane.endMs < endMs) out.push(`<rect class="lane-dead" x="${x(lane.endMs)}" y="${row.y}" width="${Math.max(0, width - x(lane.endMs))}" height="${row.h}"/>`);
    });
  }
  return out.join("");
}

function laneTitle(row: Layout["sections"][number]["lanes"][number]): string {
  const l = row.lane;
  if (l.proc === null) return `${l.name}: records written outside any goroutine (timer callbacks, the checker)`;
  const end = l.end === null ? "alive at the end of the run" : `${l.end} at ${formatClock(l.endMs ?? 0)}`;
  return `goroutine ${l.proc} ${l.name}: started at ${formatClock(l.startMs)}, ${end}${l.outside ? "; not the kubelet's" : ""}`;
}

/** The label column: run titles, pod names, group headers, lane names. */
export function labelMarkup(layout: Layout, runs: readonly RunIndex[], height: number): string {
  const out: string[] = [`<rect x="0" y="0" width="${LABEL_W}" height="${height}" fill="#fff"/>`, `<line x1="${LABEL_W - 0.5}" x2="${LABEL_W - 0.5}" y1="0" y2="${height}" stroke="#e3e6ec"/>`];
  for (const section of layout.sections) {
    const model = runs[section.run]!.model;
    if (section.titleY !== null) {
      out.push(`<text class="section-title" x="6" y="${section.titleY + 14}">${escapeText(`${String.fromCharCode(65 + section.run)}: ${model.label} · ${model.verdict}`)}<title>${escapeText(`${String.fromCharCode(65 + section.run)}: ${model.label} · ${model.verdict}`)}</title></text>`);
    }
    for (const b of section.bands) out.push(`<g class="row-label"><text x="6" y="${b.y + 12}">pod ${escapeText(b.pod)}</text></g>`);
    out.push(`<g class="row-label"><text x="6" y="${section.choicesY + 12}" fill="#6b7385">choice points (${model.choices.length}, ${model.deviations} not fifo)</text></g>`);
    for (const n of section.nodes) {
      const label = `${n.folded > 0 ? "▸" : "▾"} node ${n.node}${n.folded > 0 ? ` (${n.folded} lanes folded)` : ""}`;
      out.push(`<g class="node-header" data-node-header="${escapeText(n.node)}" data-run="${section.run}"><rect x="0" y="${n.y + 1}" width="${LABEL_W}" height="16" fill="#e8ecf4"/><text class="node" x="4" y="${n.y + 13}">${escapeText(label)}<title>${escapeText(`node ${n.node}: click to ${n.folded > 0 ? "unfold" : "fold"} its lanes`)}</title></text></g>`);
    }
    for (const g of section.groups) out.push(`<g class="row-label"><text class="group" x="${section.nodes.length > 0 && g.y > section.nodes[0]!.y ? 14 : 6}" y="${g.y + 12}">${escapeText(g.group)}</text></g>`);
    for (const row of section.lanes) {
      const l = row.lane;
      const room = Math.max(8, Math.floor((LABEL_W - 20) / 6.4));
      const name = l.name.length > room ? `${l.name.slice(0, room - 1)}…` : l.name;
      const style = l.outside ? ' font-style="italic"' : "";
      out.push(
        `<g class="lane-label" data-run="${section.run}" data-lane="${l.id}"${l.proc === null ? "" : ` data-proc="${l.proc}"`}>` +
          `<text x="16" y="${row.midY + 4}"${style}>${escapeText(name)}<title>${escapeText(laneTitle(row))}</title></text></g>`,
      );
    }
  }
  return out.join("");
}

/** The time axis for the visible window. */
export function axisMarkup(x: (ms: number) => number, ticks: readonly number[], width: number): string {
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 1000;
  const out = [`<rect x="0" y="0" width="${LABEL_W}" height="${ROW.title + 6}" fill="#f6f7f9"/>`];
  out.push(`<text x="6" y="16" fill="#6b7385">virtual time</text>`);
  for (const t of ticks) {
    const px = x(t);
    if (px < LABEL_W || px > width) continue;
    out.push(`<line x1="${px}" x2="${px}" y1="18" y2="26" stroke="#9aa3b5"/><text x="${px + 3}" y="15">${tickText(t, step)}</text>`);
  }
  return out.join("");
}
