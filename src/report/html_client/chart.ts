// The view's controller: one time scale shared by every run shown, zoom and pan (d3-zoom, on the
// x axis only), the time cursor, clicks on marks, bars, bands and violations, and redraws.
import { scaleLinear, type ScaleLinear } from "d3-scale";
import { select, type Selection } from "d3-selection";
import { zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior, type ZoomTransform } from "d3-zoom";
import { indexRun, type PageData, type RunIndex } from "./data.ts";
import { Controls } from "./controls.ts";
import { Details } from "./details.ts";
import { formatClock } from "./format.ts";
import { axisMarkup, backgroundMarkup, fitLabelColumn, LABEL_W, labelMarkup } from "./frame.ts";
import { layout, type Layout, type ViewState } from "./layout.ts";
import { plotMarkup } from "./plot.ts";

const SVG_NS = "http://www.w3.org/2000/svg";
const RIGHT_PAD = 12;
/** Keeps a mark at 0 clear of the label column. */
const LEFT_PAD = 6;
/** The narrowest window one can zoom to. */
const MIN_WINDOW_MS = 2;

export interface ChartElements {
  header: HTMLElement;
  axis: HTMLElement;
  chart: HTMLElement;
  details: HTMLElement;
}

function svg(parent: HTMLElement, id: string): SVGSVGElement {
  const el = document.createElementNS(SVG_NS, "svg");
  el.setAttribute("id", id);
  parent.appendChild(el);
  return el;
}

export class Chart {
  private readonly runs: RunIndex[];
  private readonly state: ViewState = { pod: null, hiddenGroups: new Set(), hiddenNodes: new Set(), narrow: false, showNoisy: false, showArrows: true, selected: null };
  private readonly controls: Controls;
  private readonly details: Details;
  private readonly main: SVGSVGElement;
  private readonly axis: SVGSVGElement;
  private readonly zoomer: ZoomBehavior<SVGSVGElement, unknown>;
  private readonly endMs: number;
  private transform: ZoomTransform = zoomIdentity;
  private layout!: Layout;
  private width = 800;
  private pending = false;
  private cursorMs: number | null = null;

  constructor(private readonly page: PageData, private readonly els: ChartElements) {
    this.runs = page.runs.map(indexRun);
    this.endMs = Math.max(1, ...page.runs.map((r) => r.endMs));
    this.controls = new Controls(els.header, page, this.runs, this.state, this);
    this.details = new Details(els.details, page, this.runs, this);
    this.axis = svg(els.axis, "axis-svg");
    this.main = svg(els.chart, "main-svg");
    this.main.innerHTML = `<defs><marker id="arrowhead" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L6,3 L0,6 Z" fill="#5b6b8c"/></marker><clipPath id="plot-clip"><rect id="plot-clip-rect" x="${LABEL_W}" y="0" width="1" height="1"/></clipPath></defs><g id="bg"></g><g id="plot" clip-path="url(#plot-clip)"></g><line id="cursor" class="cursor" y1="0" y2="0" x1="-10" x2="-10"/><g id="labels"></g>`;
    this.zoomer = zoom<SVGSVGElement, unknown>()
      .filter((e: Event) => (e.type === "wheel" ? (e as WheelEvent).ctrlKey || (e as WheelEvent).metaKey : !(e as MouseEvent).button))
      .on("zoom", (e: D3ZoomEvent<SVGSVGElement, unknown>) => {
        this.transform = e.transform;
        this.schedule();
      });
  }

  mount(): void {
    this.controls.mount();
    this.details.help();
    this.measure();
    const sel = select(this.main) as Selection<SVGSVGElement, unknown, null, undefined>;
    sel.call(this.zoomer).on("dblclick.zoom", null);
    this.wireEvents();
    this.relayout();
    this.draw();
  }

  private baseScale(): ScaleLinear<number, number> {
    return scaleLinear().domain([0, this.endMs]).range([LABEL_W + LEFT_PAD, this.width - RIGHT_PAD]);
  }

  private scale(): ScaleLinear<number, number> {
    return this.transform.rescaleX(this.baseScale());
  }

  private measure(): void {
    this.width = Math.max(LABEL_W + 200, this.els.chart.clientWidth);
    const extent: [[number, number], [number, number]] = [[LABEL_W, 0], [this.width - RIGHT_PAD, 1]];
    this.zoomer.extent(extent).translateExtent(extent).scaleExtent([1, Math.max(1, this.endMs / MIN_WINDOW_MS)]);
  }

  private relayout(): void {
    this.layout = layout(this.page, this.runs, this.state);
    for (const el of [this.main, this.axis]) el.setAttribute("width", String(this.width));
    this.main.setAttribute("height", String(this.layout.height));
    this.axis.setAttribute("height", "26");
    const clip = this.main.querySelector("#plot-clip-rect")!;
    clip.setAttribute("width", String(this.width - LABEL_W));
    clip.setAttribute("height", String(this.layout.height));
    this.main.querySelector("#labels")!.innerHTML = labelMarkup(this.layout, this.runs, this.layout.height);
    this.main.querySelector("#cursor")!.setAttribute("y2", String(this.layout.height));
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  private draw(): void {
    const x = this.scale();
    const [t0, t1] = x.domain() as [number, number];
    const px = (ms: number) => x(ms);
    this.main.querySelector("#bg")!.innerHTML = backgroundMarkup(this.layout, this.runs, px, this.width);
    this.main.querySelector("#plot")!.innerHTML = plotMarkup({ page: this.page, runs: this.runs, layout: this.layout, state: this.state, x: px, t0, t1 });
    this.axis.innerHTML = axisMarkup(px, x.ticks(Math.max(2, Math.floor((this.width - LABEL_W) / 110))), this.width);
    this.drawCursor();
  }

  private drawCursor(): void {
    const line = this.main.querySelector("#cursor")!;
    const px = this.cursorMs === null ? -10 : this.scale()(this.cursorMs);
    line.setAttribute("x1", String(px));
    line.setAttribute("x2", String(px));
  }

  private wireEvents(): void {
    // The element under the pointer when the click ends: a redraw between the press and the release
    // replaces the marks, and the click's own target is then the common ancestor, the svg.
    this.main.addEventListener("click", (e) => this.onClick(document.elementFromPoint(e.clientX, e.clientY) ?? (e.target as Element)));
    this.main.addEventListener("mousemove", (e) => this.onMove(e));
    this.axis.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.zoomBy(e.deltaY < 0 ? 1.25 : 0.8, e.offsetX);
    }, { passive: false });
    window.addEventListener("keydown", (e) => this.onKey(e));
    window.addEventListener("resize", () => {
      fitLabelColumn(window.innerWidth);
      this.main.querySelector("#plot-clip-rect")!.setAttribute("x", String(LABEL_W));
      this.measure();
      this.relayout();
      this.draw();
    });
  }

  private onMove(e: MouseEvent): void {
    const rect = this.main.getBoundingClientRect();
    const px = e.clientX - rect.left;
    if (px < LABEL_W) return;
    this.cursorMs = Math.max(0, Math.round(this.scale().invert(px)));
    this.drawCursor();
    this.controls.cursor(`cursor ${formatClock(this.cursorMs)}${this.podStatesAt(this.cursorMs)}`);
  }

  /** " · web: Running 2/2 ..." at an instant, for the pods shown. */
  private podStatesAt(ms: number): string {
    const parts: string[] = [];
    this.runs.forEach((idx, run) => {
      for (const band of idx.model.pods) {
        if (this.state.pod !== null && band.pod !== this.state.pod) continue;
        const seg = band.segments.find((s) => s.startMs <= ms && ms < s.endMs);
        const who = this.page.isDiff ? `${String.fromCharCode(65 + run)} ` : "";
        parts.push(`${who}${band.pod}: ${seg?.state ?? "—"}`);
      }
    });
    return parts.length === 0 ? "" : ` · ${parts.join(" · ")}`;
  }

  private onClick(target: Element): void {
    const header = target.closest("[data-node-header]");
    if (header !== null) {
      // A node's header folds its lanes away, or unfolds them.
      const node = header.getAttribute("data-node-header")!;
      if (!this.state.hiddenNodes.delete(node)) this.state.hiddenNodes.add(node);
      this.changed();
      return;
    }
    const v = target.closest("[data-violation]");
    if (v !== null) {
      this.showViolation(Number(v.getAttribute("data-run")), Number(v.getAttribute("data-violation")), false);
      return;
    }
    const hit = target.closest("[data-seq]");
    if (hit === null) return;
    this.details.open();
    const run = Number(hit.getAttribute("data-run"));
    const seq = Number(hit.getAttribute("data-seq"));
    const spanName = hit.getAttribute("data-span");
    this.state.selected = seq >= 0 ? { run, seq } : null;
    if (spanName !== null) {
      const span = this.runs[run]!.model.spans.find((s) => s.seq === seq && s.name === spanName);
      if (span !== undefined) this.details.span(run, span);
    } else if (seq >= 0) this.details.record(run, seq);
    this.draw();
  }

  private onKey(e: KeyboardEvent): void {
    if ((e.target as Element).closest("input, select, textarea") !== null) return;
    const k = e.key.toLowerCase();
    if (k === "w") this.zoomBy(1.5);
    else if (k === "s") this.zoomBy(1 / 1.5);
    else if (k === "a" || k === "d") {
      const shift = (this.width - LABEL_W) * 0.2 * (k === "a" ? 1 : -1);
      select(this.main).call(this.zoomer.translateBy, shift / this.transform.k, 0);
    }
  }

  // ---- for the controls and the details panel -----------------------------------------------

  changed(): void {
    this.relayout();
    this.draw();
  }

  zoomBy(factor: number, atPx?: number): void {
    const p: [number, number] = [atPx ?? (LABEL_W + this.width - RIGHT_PAD) / 2, 0];
    select(this.main).call(this.zoomer.scaleBy, factor, p);
  }

  fit(): void {
    select(this.main).call(this.zoomer.transform, zoomIdentity);
  }

  /** Zooms so that [startMs, endMs] fills the plot. */
  zoomTo(startMs: number, endMs: number): void {
    const base = this.baseScale();
    const lo = Math.max(0, startMs);
    const hi = Math.max(lo + MIN_WINDOW_MS, Math.min(this.endMs, endMs));
    const k = Math.max(1, (this.width - RIGHT_PAD - LABEL_W) / (base(hi) - base(lo)));
    // x(t) = k·base(t) + tx puts lo at the plot's left edge.
    const tx = LABEL_W - k * base(lo);
    select(this.main).call(this.zoomer.transform, zoomIdentity.translate(tx, 0).scale(k));
  }

  setNarrow(on: boolean): void {
    this.state.narrow = on;
    this.controls.sync();
    this.changed();
  }

  showViolation(run: number, index: number, narrow: boolean): void {
    const v = this.runs[run]!.model.violations[index]!;
    this.details.open();
    this.details.violation(run, index);
    if (narrow) {
      this.setNarrow(true);
      const times = v.links.map((s) => this.runs[run]!.recordBySeq.get(s)?.t ?? v.t);
      const from = Math.min(v.t, ...times);
      const pad = Math.max(500, (v.t - from) * 0.05);
      this.zoomTo(from - pad, v.t + pad);
    }
  }

  jumpTo(run: number, seq: number): void {
    const rec = this.runs[run]!.recordBySeq.get(seq);
    if (rec === undefined) return;
    this.state.selected = { run, seq };
    this.details.record(run, seq);
    const [t0, t1] = this.scale().domain() as [number, number];
    const half = (t1 - t0) / 2;
    this.zoomTo(rec.t - half, rec.t + half);
    this.draw();
  }
}
