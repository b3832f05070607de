// The code pane and each option's "where" line: the function a goroutine stands in, the lines of the
// model's own TypeScript it is about to run (the site highlighted), and the upstream Go file at the
// kubelet's release tag. The source index comes with the page (src/play/sources.ts).
import type { OptionPreview } from "../preview.ts";
import { upstreamUrl, type SourceIndex } from "../sources.ts";
import { byId, el } from "./view.ts";

/** Lines shown before the site and after the step's last line. */
const CONTEXT_LINES = 2;
/** The most lines the pane shows of one step. */
const MAX_LINES = 24;

interface Located {
  fnName: string;
  chain: string[];
  path: string;
  line: number;
  upstream: string | null;
  upstreamPath: string | null;
}

function locate(index: SourceIndex, p: OptionPreview, version: string): Located | null {
  if (p.where === null) return null;
  const site = index.sites[p.where.site]!;
  const fn = index.fns[site.fn]!;
  const file = index.files[fn.file]!;
  return { fnName: fn.name, chain: p.where.chain, path: file.path, line: site.line, upstream: upstreamUrl(file, version), upstreamPath: file.upstream };
}

/** One option's "where" line: the function chain, the model's file and line, the upstream file. */
export function whereLine(index: SourceIndex | null, p: OptionPreview, version: string): HTMLElement | null {
  const at = index === null ? null : locate(index, p, version);
  if (at === null) return null;
  const line = el("div", undefined, { class: "where" });
  line.append(document.createTextNode(`in ${at.chain.join(" › ")} · ${at.path}:${at.line}`));
  if (at.upstream !== null) {
    line.append(document.createTextNode(" · upstream "));
    line.append(el("a", `${at.upstreamPath} (${at.fnName.split(".").pop()})`, { href: at.upstream, target: "_blank", rel: "noopener" }));
  }
  return line;
}

/** The code pane for one option's preview (or a note when it has none). */
export function drawCode(index: SourceIndex | null, p: OptionPreview | null, version: string): void {
  const pane = byId("code");
  const at = index === null || p === null ? null : locate(index, p, version);
  if (index === null || p === null || p.where === null || at === null) {
    pane.replaceChildren(el("p", p === null ? "Focus an option to see the code its goroutine stands at." : "This step stands in no model function the index knows (a timer, or the kernel).", { class: "help" }));
    pane.dataset["site"] = "";
    return;
  }
  const site = index.sites[p.where.site]!;
  const fn = index.fns[site.fn]!;
  // A goroutine not started yet runs from its function's first line to its first yield.
  const at0 = p.where.starting ? fn.line : site.line;
  const from = Math.max(fn.line, at0 - CONTEXT_LINES);
  const to = Math.min(fn.line + fn.lines.length - 1, Math.max(p.where.toLine, site.endLine) + CONTEXT_LINES, from + MAX_LINES - 1);
  const pre = el("pre", undefined, { "aria-label": `${at.path} lines ${from} to ${to}` });
  for (let n = from; n <= to; n++) {
    const cls = n === at0 ? "line at" : n > at0 && n <= p.where.toLine ? "line run" : "line";
    const row = el("span", undefined, { class: cls, "data-line": String(n) });
    row.append(el("span", String(n), { class: "ln" }), document.createTextNode(fn.lines[n - fn.line] ?? ""));
    pre.append(row);
  }
  const head = el("p", undefined, { class: "fn" });
  const stands = p.where.starting ? `has not run yet: it starts at the top of ${at.chain.join(" › ")}, ${at.path}:${fn.line}` : `stands in ${at.chain.join(" › ")}, ${at.path}:${site.line}`;
  head.append(el("span", p.who, { class: "who" }), document.createTextNode(` ${stands}; highlighted: the lines its next step runs.`));
  pane.replaceChildren(head, pre);
  if (at.upstream !== null) {
    const up = el("p", undefined, { class: "help" });
    up.append(document.createTextNode("Upstream: "), el("a", `${at.upstreamPath} at ${at.upstream.split("/blob/")[1]!.split("/")[0]}`, { href: at.upstream, target: "_blank", rel: "noopener" }), document.createTextNode(` (look for ${at.fnName.split(".").pop()})`));
    pane.append(up);
  }
  pane.dataset["site"] = `${at.path}:${site.line}`;
}
