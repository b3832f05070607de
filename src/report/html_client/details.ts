// The side panel: how to read the view, a clicked record (its words and its JSON), a clicked
// span, or a violation with the records its message names (each a link that jumps to it).
import type { PageData, RunIndex, Span } from "./data.ts";
import { escapeText, formatClock } from "./format.ts";

export interface DetailsHost {
  /** Select a record and bring it into view. */
  jumpTo(run: number, seq: number): void;
}

const HELP = `<h2>Reading this view</h2>
<p>Each <b>lane</b> is a goroutine of the run, grouped by component; grey parts are before it
started or after it ended. <b>Marks</b> are records at their virtual time, coloured by component;
<b>bars</b> are what took time (CRI calls, requests, syncs, probes); <b>curves</b> are values
handed from one goroutine to another on a channel. The bands at the top are each pod as
<code>kubectl get</code> showed it; the ticks below them are the run's choice points (tall orange:
the strategy took another option than fifo's).</p>
<p>A red dashed line marks an invariant violation; click its red diamond to see which records its
message names (ringed in red). <b>Zoom</b>: ctrl/⌘ + wheel, pinch, the wheel over the time axis,
the + and − buttons, or W/S; <b>pan</b>: drag, or A/D. Click any mark or bar to see its record.</p>`;

/** The other records of the same lane at the same instant: drawn as one stack, each reachable from here. */
function sameInstant(idx: RunIndex, run: number, seq: number): string {
  const mark = idx.markBySeq.get(seq);
  if (mark === undefined) return "";
  const group = idx.marksOfLane[mark.lane]!.filter((m) => m.t === mark.t);
  if (group.length < 2) return "";
  const items = group.map((m) => (m.seq === seq ? `<li><b>${escapeText(m.label)}</b> (this one)</li>` : `<li><a data-run="${run}" data-seq="${m.seq}">${escapeText(m.label)}</a></li>`)).join("");
  return `<p>${group.length} records of this goroutine at this instant, in trace order:</p><ol class="same-instant">${items}</ol>`;
}

function recordSection(idx: RunIndex, run: number, seq: number, label: string): string {
  const rec = idx.recordBySeq.get(seq);
  if (rec === undefined) return `<p>No record ${seq}.</p>`;
  const mark = idx.markBySeq.get(seq);
  const lane = mark === undefined ? undefined : idx.model.lanes[mark.lane];
  const where = lane === undefined ? "" : ` on <b>${escapeText(lane.name)}</b>`;
  const violations = idx.model.violations.filter((v) => v.links.includes(seq) || v.seq === seq);
  const named = violations.map((v) => `<p>Named by the violation of <span class="invariant">${escapeText(v.invariant)}</span>.</p>`).join("");
  return `<h2>${escapeText(label)}${formatClock(rec.t)} · record ${seq}</h2>
<p>${escapeText(mark?.label ?? rec.kind)}${where}</p>${named}${sameInstant(idx, run, seq)}
<pre>${escapeText(JSON.stringify(rec, null, 2))}</pre>`;
}

export class Details {
  private readonly body: HTMLElement;

  constructor(
    private readonly el: HTMLElement,
    private readonly page: PageData,
    private readonly runs: readonly RunIndex[],
    host: DetailsHost,
  ) {
    // On a narrow screen the panel sits under the timeline, folded to this button until it has something to say.
    el.innerHTML = '<button id="details-toggle" aria-expanded="false">details</button><div id="details-body"></div>';
    this.body = el.querySelector<HTMLElement>("#details-body")!;
    el.querySelector("#details-toggle")!.addEventListener("click", () => this.setOpen(!el.classList.contains("open")));
    el.addEventListener("click", (e) => {
      const a = (e.target as Element).closest("a[data-seq]");
      if (a === null) return;
      host.jumpTo(Number(a.getAttribute("data-run")), Number(a.getAttribute("data-seq")));
    });
  }

  /** Unfolds the panel (a phone shows it folded until a mark or a violation is clicked). */
  open(): void {
    this.setOpen(true);
  }

  private setOpen(on: boolean): void {
    this.el.classList.toggle("open", on);
    this.el.querySelector("#details-toggle")!.setAttribute("aria-expanded", String(on));
  }

  private runLabel(run: number): string {
    return this.page.isDiff ? `${String.fromCharCode(65 + run)} (${this.runs[run]!.model.label}) · ` : "";
  }

  help(): void {
    const diff = this.page.diff === null ? "" : `<h2>First difference</h2><pre>${escapeText(this.page.diff.text)}</pre>`;
    this.body.innerHTML = diff + HELP;
  }

  record(run: number, seq: number): void {
    this.body.innerHTML = recordSection(this.runs[run]!, run, seq, this.runLabel(run));
  }

  span(run: number, span: Span): void {
    const idx = this.runs[run]!;
    const body = span.seq >= 0 ? recordSection(idx, run, span.seq, this.runLabel(run)) : "";
    this.body.innerHTML = `<h2>${escapeText(span.name)}</h2><p>${formatClock(span.startMs)} → ${formatClock(span.endMs)} (${span.endMs - span.startMs}ms)${span.open ? ", still going when the run ended" : ""}; from ${span.source === "call" ? "the kernel's call" : span.source === "activity" ? "the goroutine's work between two waits" : "the records"}.</p>${body}`;
  }

  violation(run: number, i: number): void {
    const idx = this.runs[run]!;
    const v = idx.model.violations[i]!;
    const links = v.links
      .map((seq) => {
        const m = idx.markBySeq.get(seq);
        const lane = m === undefined ? "" : ` (${escapeText(idx.model.lanes[m.lane]!.name)})`;
        return `<li><a data-run="${run}" data-seq="${seq}">${formatClock(m?.t ?? 0)} ${escapeText(m?.label ?? String(seq))}</a>${lane}</li>`;
      })
      .join("");
    const actors = v.lanes.map((l) => escapeText(idx.model.lanes[l]!.name)).join(", ");
    this.body.innerHTML = `<h2>${escapeText(this.runLabel(run))}Invariant violated at ${formatClock(v.t)}</h2>
<p id="violation-invariant" class="invariant">${escapeText(v.invariant)}</p>
<p>${escapeText(v.pod ?? "")}: ${escapeText(v.message)}</p>
<p>Records the message names:</p><ul>${links || "<li>none found</li>"}</ul>
<p>Goroutines involved: ${actors}. <a data-run="${run}" data-seq="${v.seq}">The violation record</a>.</p>`;
  }
}
