// The time-dependent part of the view, redrawn on every zoom and pan: pod bands, choice points,
// spans, marks, hand-off arrows and the violation lines. Only what falls inside the visible time
// window is drawn, and at most one ordinary mark per pixel per lane, so a long run stays fast.
import { lowerBound, type PageData, type RunIndex } from "./data.ts";
import { componentColour, escapeText, stateColour } from "./format.ts";
import { ROW, type Layout, type LaneRow, type ViewState } from "./layout.ts";

export interface PlotContext {
  page: PageData;
  runs: readonly RunIndex[];
  layout: Layout;
  state: ViewState;
  /** Virtual ms to x pixels. */
  x: (ms: number) => number;
  /** The visible time window. */
  t0: number;
  t1: number;
}

function bands(ctx: PlotContext, out: string[]): void {
  for (const section of ctx.layout.sections) {
    const model = ctx.runs[section.run]!.model;
    for (const row of section.bands) {
      const band = model.pods.find((b) => b.pod === row.pod)!;
      for (const seg of band.segments) {
        if (seg.endMs < ctx.t0 || seg.startMs > ctx.t1) continue;
        const x1 = ctx.x(seg.startMs);
        const w = Math.max(1, ctx.x(seg.endMs) - x1);
        // The label stays in view when the segment began before the window.
        const left = Math.max(x1, ctx.x(ctx.t0));
        const label = w > 36 ? `<text x="${left + 3}" y="${row.y + 11}">${escapeText(seg.state.slice(0, Math.floor(w / 6)))}</text>` : "";
        out.push(`<g class="seg" data-run="${section.run}" data-seq="${seg.seq}"><rect x="${x1}" y="${row.y + 1}" width="${w}" height="${ROW.band - 2}" fill="${stateColour(seg.state)}"><title>${escapeText(`${band.pod}: ${seg.state}`)}</title></rect>${label}</g>`);
      }
    }
  }
}

function choices(ctx: PlotContext, out: string[]): void {
  for (const section of ctx.layout.sections) {
    const list = ctx.runs[section.run]!.model.choices;
    let lastPx = -1;
    for (let i = lowerBound(list, ctx.t0, (c) => c.t); i < list.length && list[i]!.t <= ctx.t1; i++) {
      const c = list[i]!;
      const px = Math.round(ctx.x(c.t));
      const deviation = c.index !== 0;
      if (px === lastPx && !deviation) continue;
      lastPx = px;
      const h = deviation ? 12 : 6;
      const y = section.choicesY + ROW.choices - 2;
      out.push(`<line class="choice${deviation ? " deviation" : ""}" x1="${px}" x2="${px}" y1="${y - h}" y2="${y}"><title>choice point: ${c.kind} ${c.index} of ${c.n}${deviation ? " (not fifo)" : ""}</title></line>`);
    }
  }
}

function spans(ctx: PlotContext, row: LaneRow, idx: RunIndex, out: string[]): void {
  const sel = ctx.state.selected;
  for (const s of idx.spansOfLane[row.lane.id]!) {
    if (s.startMs > ctx.t1) break;
    if (s.endMs < ctx.t0 || (s.noisy && !ctx.state.showNoisy)) continue;
    const x1 = ctx.x(s.startMs);
    const w = Math.max(1, ctx.x(s.endMs) - x1);
    const y = row.trackTop[s.track]! + s.depth * ROW.span;
    const selected = sel !== null && sel.run === row.run && s.seq >= 0 && sel.seq === s.seq ? " selected" : "";
    const label = w > 30 ? `<text x="${Math.max(x1, ctx.x(ctx.t0)) + 2}" y="${y + 9.5}">${escapeText(s.name.slice(0, Math.floor(w / 5.5)))}</text>` : "";
    out.push(
      `<g class="span ${s.source}${s.open ? " open" : ""}${selected}" data-run="${row.run}" data-seq="${s.seq}" data-span="${escapeText(s.name)}">` +
        `<rect x="${x1}" y="${y}" width="${w}" height="${ROW.span - 2}"><title>${escapeText(`${s.name}: ${s.startMs}ms → ${s.endMs}ms (${s.endMs - s.startMs}ms)`)}</title></rect>${label}</g>`,
    );
  }
}

/** A mark's words beside it when there is room before the next mark (zoomed in far enough). */
const LABEL_MIN_GAP_PX = 60;

function marks(ctx: PlotContext, row: LaneRow, idx: RunIndex, out: string[]): void {
  const list = idx.marksOfLane[row.lane.id]!;
  const sel = ctx.state.selected;
  const drawn: { px: number; markup: string; label: string | null; linked: boolean }[] = [];
  for (let i = lowerBound(list, ctx.t0, (m) => m.t); i < list.length && list[i]!.t <= ctx.t1; i++) {
    const m = list[i]!;
    const linked = idx.linked.has(m.seq);
    // A periodic record a violation names (the relist that saw nothing) is drawn all the same.
    if (m.noisy && !linked && !ctx.state.showNoisy) continue;
    if (ctx.state.pod !== null && m.pod !== null && m.pod !== ctx.state.pod) continue;
    const selected = sel !== null && sel.run === row.run && sel.seq === m.seq;
    const px = Math.round(ctx.x(m.t));
    const last = drawn[drawn.length - 1];
    if (last !== undefined && px === last.px && !linked && !selected) continue;
    const cls = `mark${m.noisy ? " noisy" : ""}${linked ? " linked" : ""}${selected ? " selected" : ""}`;
    const markup = `<rect class="${cls}" data-run="${row.run}" data-seq="${m.seq}" x="${px - 1.5}" y="${row.y + 3}" width="3" height="${ROW.marks - 5}" fill="${componentColour(m.component)}"><title>${escapeText(m.label)}</title></rect>`;
    drawn.push({ px, markup, label: m.noisy && !linked ? null : m.label, linked });
  }
  const right = ctx.x(ctx.t1);
  for (let i = 0; i < drawn.length; ) {
    // The marks at one pixel share one label: the one a violation names, else the first.
    let j = i;
    while (j < drawn.length && drawn[j]!.px === drawn[i]!.px) out.push(drawn[j++]!.markup);
    const cluster = drawn.slice(i, j);
    const label = (cluster.find((d) => d.linked && d.label !== null) ?? cluster.find((d) => d.label !== null))?.label ?? null;
    const px = drawn[i]!.px;
    const gap = (drawn[j]?.px ?? right) - px;
    i = j;
    if (label === null || gap < LABEL_MIN_GAP_PX) continue;
    const chars = Math.floor((gap - 8) / 5.6);
    const text = label.length > chars ? `${label.slice(0, Math.max(1, chars - 1))}…` : label;
    out.push(`<text class="mark-label" x="${px + 4}" y="${row.y + 12}">${escapeText(text)}</text>`);
  }
}

function arrows(ctx: PlotContext, out: string[]): void {
  if (!ctx.state.showArrows) return;
  for (const section of ctx.layout.sections) {
    const model = ctx.runs[section.run]!.model;
    for (const a of model.arrows) {
      if (Math.max(a.fromMs, a.toMs) < ctx.t0 || Math.min(a.fromMs, a.toMs) > ctx.t1) continue;
      const from = ctx.layout.laneRow.get(`${section.run}:${a.from}`);
      const to = ctx.layout.laneRow.get(`${section.run}:${a.to}`);
      if (from === undefined || to === undefined) continue;
      const x1 = ctx.x(a.fromMs);
      const x2 = ctx.x(a.toMs);
      const dx = Math.max(8, (x2 - x1) / 2);
      out.push(`<path class="arrow" d="M${x1},${from.midY} C${x1 + dx},${from.midY} ${x2 - dx},${to.midY} ${x2},${to.midY}"><title>${escapeText(`${a.closed ? "close of" : "hand-off on"} ${a.chan}`)}</title></path>`);
    }
  }
}

function verdictLines(ctx: PlotContext, out: string[]): void {
  const h = ctx.layout.height;
  ctx.runs.forEach((idx, run) => {
    idx.model.violations.forEach((v, i) => {
      const px = ctx.x(v.t);
      const row = ctx.layout.laneRow.get(`${run}:${idx.markBySeq.get(v.seq)?.lane ?? -1}`);
      out.push(`<line class="violation-line" x1="${px}" x2="${px}" y1="0" y2="${h}"/>`);
      if (row !== undefined) {
        const y = row.midY;
        out.push(`<path class="violation-mark" data-run="${run}" data-violation="${i}" data-invariant="${escapeText(v.invariant)}" d="M${px},${y - 7} L${px + 7},${y} L${px},${y + 7} L${px - 7},${y} Z"><title>${escapeText(`VIOLATED ${v.invariant}`)}</title></path>`);
      }
    });
  });
  if (ctx.page.diff !== null) {
    const px = ctx.x(ctx.page.diff.atMs);
    out.push(`<line class="diff-line" x1="${px}" x2="${px}" y1="0" y2="${h}"><title>first difference</title></line>`);
  }
}

/** The plot's markup for the current window. */
export function plotMarkup(ctx: PlotContext): string {
  const out: string[] = [];
  bands(ctx, out);
  choices(ctx, out);
  // Marks go over the arrows, so a curve crossing a mark never takes its click.
  for (const section of ctx.layout.sections) for (const row of section.lanes) spans(ctx, row, ctx.runs[section.run]!, out);
  arrows(ctx, out);
  for (const section of ctx.layout.sections) for (const row of section.lanes) marks(ctx, row, ctx.runs[section.run]!, out);
  verdictLines(ctx, out);
  return out.join("");
}
