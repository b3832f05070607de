// The renderers of a run's trace, behind one function: render(format, records, options) => string.
// Every renderer is pure and deterministic (the same records give byte-identical output) and
// plain (no colour: the CLI may add it).
import { renderEvents, type EventsOptions } from "./events.ts";
import { renderJsonl } from "./jsonl.ts";
import { renderMermaid, type MermaidOptions } from "./mermaid.ts";
import { renderPods, type PodsOptions } from "./pods.ts";
import type { TraceRecord } from "./records.ts";
import { renderText, type TextOptions } from "./text.ts";
import { renderChromeTrace } from "./chrome_trace.ts";
import { renderHtml, type HtmlOptions } from "./html/page.ts";
import type { KernelView } from "./timeline/kernel_view.ts";

export const FORMATS = ["text", "events", "pods", "jsonl", "mermaid", "html", "chrome-trace"] as const;
export type Format = (typeof FORMATS)[number];

/** The options of every format; each renderer reads the ones it knows. */
export type RenderOptions = TextOptions & EventsOptions & PodsOptions & MermaidOptions & HtmlOptions;

/**
 * Renders a trace in one format. `records` may be any iterable; it is read once. `kernel` is the
 * kernel's view of the run (a KernelLog): the pictures (html, chrome-trace, mermaid) draw lanes per
 * goroutine, calls and hand-offs from it, and fall back to lanes per component without it.
 */
export function render(format: Format, records: Iterable<TraceRecord>, options: RenderOptions = {}, kernel?: KernelView): string {
  if (format === "jsonl") return renderJsonl(records);
  const list: readonly TraceRecord[] = Array.isArray(records) ? records : [...records];
  const view = kernel === undefined ? { records: list } : { records: list, kernel };
  switch (format) {
    case "html":
      return renderHtml([view], options);
    case "chrome-trace":
      return renderChromeTrace(view);
    case "text":
      return renderText(list, options);
    case "events":
      return renderEvents(list, options);
    case "pods":
      return renderPods(list, options);
    case "mermaid":
      return renderMermaid(list, options, kernel);
    default:
      throw new RangeError(`unknown format ${JSON.stringify(format satisfies never)}; expected one of ${FORMATS.join(", ")}`);
  }
}

export { renderEvents, renderJsonl, renderMermaid, renderPods, renderText, renderChromeTrace, renderHtml };
export { buildTimeline, type TimelineModel } from "./timeline/model.ts";
export { firstDifference, type FirstDifference } from "./diff.ts";
export type { KernelView, RunView } from "./timeline/kernel_view.ts";
export type { HtmlOptions };
export { jsonLines } from "./jsonl.ts";
export { hideReasons, isNoisy, type TextOptions, type Verbosity } from "./text.ts";
export type { EventsOptions, MermaidOptions, PodsOptions, TraceRecord };
export { EventCorrelator, type RawEvent, type StoredEvent } from "./event_correlator.ts";
export { formatClock } from "./timefmt.ts";
export { phrase } from "./phrases.ts";
export { mermaidText } from "./mermaid_text.ts";
