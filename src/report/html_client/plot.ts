// The time-dependent part of the view, redrawn on every zoom and pan: pod bands, choice points,
// spans, marks, hand-off arrows and the violation lines. Only what falls inside the visible time
// window is drawn, and at most one ordinary mark per pixel per lane, so a long run stays fast.
import { lowerBound, type Mark, type PageData, type RunIndex } from "./data.ts";
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

interface Drawn {
  px: number;
  markup: string;
  label: string | null;
  linked: boolean;
}

/**
 * The records of one lane at one virtual instant, drawn as one stack (a wider mark with their
 * count) whose click shows the first, with links to every other (details.ts): records at one
 * millisecond never part however far one zooms, so each must stay reachable. The stack stands for
 * the selected record when it holds it, else the one a violation names, else the first.
 */
function markMarkup(ctx: PlotContext, row: LaneRow, group: readonly Mark[], idx: RunIndex): Drawn {
  const sel = ctx.state.selected;
  const selected = group.find((m) => sel !== null && sel.run === row.run && sel.seq === m.seq);
  const linked = group.find((m) => idx.linked.has(m.seq));
  const lead = selected ?? linked ?? group[0]!;
  const px = Math.round(ctx.x(lead.t));
  const stack = group.length > 1;
  const cls = `mark${lead.noisy && linked === undefined ? " noisy" : ""}${linked !== undefined ? " linked" : ""}${selected !== undefined ? " selected" : ""}${stack ? " stack" : ""}`;
  const w = stack ? 5 : 3;
  const title = stack ? `${group.length} records at ${lead.t}ms (click for each): ${group.map((m) => m.label).join(" | ")}` : lead.label;
  const seqs = stack ? ` data-seqs="${group.map((m) => m.seq).join(",")}"` : "";
  let markup = `<rect class="${cls}" data-run="${row.run}" data-seq="${lead.seq}"${seqs} x="${px - w / 2}" y="${row.y + 3}" width="${w}" height="${ROW.marks - 5}" fill="${componentColour(lead.component)}"><title>${escapeText(title)}</title></rect>`;
  if (stack) markup += `<text class="stack-count" x="${px + 3.5}" y="${row.y + 6}">${group.length}</text>`;
  // A ring apart from the mark, so it shows on a red mark too.
  if (linked !== undefined) markup += `<rect class="ring" x="${px - w / 2 - 3}" y="${row.y + 0.5}" width="${w + 6}" height="${ROW.marks - 1}" rx="2"/>`;
  const label = lead.noisy && linked === undefined ? null : stack ? `${lead.label} (+${group.length - 1})` : lead.label;
  return { px, markup, label, linked: linked !== undefined };
}

function marks(ctx: PlotContext, row: LaneRow, idx: RunIndex, out: string[]): void {
  const list = idx.marksOfLane[row.lane.id]!;
  const sel = ctx.state.selected;
  const drawn: Drawn[] = [];
  let group: Mark[] = [];
  const flush = () => {
    if (group.length === 0) return;
    const d = markMarkup(ctx, row, group, idx);
    group = [];
    const last = drawn[drawn.length - 1];
    // Zoomed out, instants a pixel apart share it: the first is drawn, unless a later one is ringed or selected.
    if (last !== undefined && d.px === last.px && !d.linked && !d.markup.includes(" selected")) return;
    drawn.push(d);
  };
  for (let i = lowerBound(list, ctx.t0, (m) => m.t); i < list.length && list[i]!.t <= ctx.t1; i++) {
    const m = list[i]!;
    const linked = idx.linked.has(m.seq);
    const selected = sel !== null && sel.run === row.run && sel.seq === m.seq;
    // A periodic record a violation names (the relist that saw nothing) is drawn all the same.
    if (m.noisy && !linked && !selected && !ctx.state.showNoisy) continue;
    if (ctx.state.pod !== null && m.pod !== null && m.pod !== ctx.state.pod) continue;
    if (group.length > 0 && group[0]!.t !== m.t) flush();
    group.push(m);
  }
  flush();
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

/** The top and bottom of one run's rows: a diff draws each run's violation line in its own lanes. */
function sectionExtent(ctx: PlotContext, run: number): [number, number] {
  const i = ctx.layout.sections.findIndex((s) => s.run === run);
  const section = ctx.layout.sections[i];
  if (section === undefined) return [0, ctx.layout.height];
  const next = ctx.layout.sections[i + 1];
  return [section.y, next === undefined ? ctx.layout.height : next.y - 4];
}

function verdictLines(ctx: PlotContext, out: string[]): void {
  ctx.runs.forEach((idx, run) => {
    const [top, bottom] = sectionExtent(ctx, run);
    idx.model.violations.forEach((v, i) => {
      const px = ctx.x(v.t);
      const row = ctx.layout.laneRow.get(`${run}:${idx.markBySeq.get(v.seq)?.lane ?? -1}`);
      out.push(`<line class="violation-line" data-run="${run}" x1="${px}" x2="${px}" y1="${top}" y2="${bottom}"/>`);
      if (row !== undefined) {
        const y = row.midY;
        out.push(`<path class="violation-mark" data-run="${run}" data-violation="${i}" data-invariant="${escapeText(v.invariant)}" d="M${px},${y - 7} L${px + 7},${y} L${px},${y + 7} L${px - 7},${y} Z"><title>${escapeText(`VIOLATED ${v.invariant}`)}</title></path>`);
      }
    });
  });
  if (ctx.page.diff !== null) {
    const px = ctx.x(ctx.page.diff.atMs);
    out.push(`<line class="diff-line" x1="${px}" x2="${px}" y1="0" y2="${ctx.layout.height}"><title>first difference</title></line>`);
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
