// The header: what ran and its verdict, the violations (with a button to narrow the view to them),
// a diff's first difference, and the filters: pod, component groups, narrowed view, periodic
// records, hand-off arrows, zoom.
import type { PageData, RunIndex } from "./data.ts";
import { escapeText, formatClock } from "./format.ts";
import type { ViewState } from "./layout.ts";

export interface ControlsHost {
  changed(): void;
  zoomBy(factor: number): void;
  fit(): void;
  showViolation(run: number, index: number, narrow: boolean): void;
  setNarrow(on: boolean): void;
}

/**
 * The run's badge, as the CLI's verdict line judges it: "ok" only when the run ended normally, no
 * invariant broke and every expectation of the scenario held.
 */
export function badgeOf(model: RunIndex["model"]): { ok: boolean; word: string; title: string } {
  const { held, failed } = model.expectations;
  const total = held + failed.length;
  const n = model.violations.length;
  const normal = /^(until|completed|quiescent)$/.test(model.verdict);
  const ok = n === 0 && normal && failed.length === 0;
  const parts: string[] = [];
  if (!normal) parts.push(model.verdict);
  if (n > 0) parts.push(`${n} violation${n === 1 ? "" : "s"}`);
  if (failed.length > 0) parts.push(`FAIL ${failed.length} of ${total} expectation${total === 1 ? "" : "s"}`);
  const title = `the run ended: ${model.verdict}${total === 0 ? "" : `; ${held} of ${total} expectations held`}${failed.length === 0 ? "" : `; failed: ${failed.join("; ")}`}`;
  return { ok, word: ok ? "ok" : parts.join(", "), title };
}

function verdictBadge(idx: RunIndex, prefix: string): string {
  const badge = badgeOf(idx.model);
  const deviations = idx.model.choices.length === 0 ? "" : `, ${idx.model.choices.length} choice points (${idx.model.deviations} not fifo)`;
  return `<div class="sub"><span class="verdict ${badge.ok ? "ok" : "bad"}" data-ok="${badge.ok}" title="${escapeText(badge.title)}">${escapeText(prefix)}${escapeText(badge.word)}</span>${escapeText(idx.model.title)}: ended at ${formatClock(idx.model.endMs)}, ${idx.model.lanes.filter((l) => l.proc !== null).length} goroutines, ${idx.model.records.length} records${deviations}</div>`;
}

function violationBar(runs: readonly RunIndex[], isDiff: boolean): string {
  const items: string[] = [];
  runs.forEach((idx, run) => {
    idx.model.violations.forEach((v, i) => {
      const who = isDiff ? `${String.fromCharCode(65 + run)}: ` : "";
      items.push(`<div class="violation-bar">${escapeText(who)}VIOLATED <b>${escapeText(v.invariant)}</b> at ${formatClock(v.t)}: ${escapeText(v.message)} <button data-show-violation="${run}:${i}">show</button></div>`);
    });
  });
  return items.join("");
}

function groupsOf(runs: readonly RunIndex[]): string[] {
  const out: string[] = [];
  for (const idx of runs) for (const l of idx.model.lanes) if (!out.includes(l.group)) out.push(l.group);
  return out;
}

function podsOf(runs: readonly RunIndex[]): string[] {
  const out: string[] = [];
  for (const idx of runs) for (const b of idx.model.pods) if (!out.includes(b.pod)) out.push(b.pod);
  return out;
}

export class Controls {
  constructor(
    private readonly el: HTMLElement,
    private readonly page: PageData,
    private readonly runs: readonly RunIndex[],
    private readonly state: ViewState,
    private readonly host: ControlsHost,
  ) {}

  mount(): void {
    const hasViolation = this.runs.some((r) => r.model.violations.length > 0);
    const badges = this.runs.map((idx, run) => verdictBadge(idx, this.page.isDiff ? `${String.fromCharCode(65 + run)} ${idx.model.label}: ` : "")).join("");
    const diff = !this.page.isDiff ? "" : `<div class="diff-bar" id="diff-text">${escapeText(this.page.diff?.text ?? "the two traces are identical")}</div>`;
    const pods = podsOf(this.runs).map((p) => `<option value="${escapeText(p)}">${escapeText(p)}</option>`).join("");
    const groups = groupsOf(this.runs).map((g) => `<label><input type="checkbox" data-group="${escapeText(g)}" checked> ${escapeText(g)}</label>`).join("");
    this.el.insertAdjacentHTML(
      "beforeend",
      `${badges}${violationBar(this.runs, this.page.isDiff)}${diff}
<div class="controls">
<label>pod <select id="pod-filter"><option value="">all pods</option>${pods}</select></label>
<details class="groups"><summary>components</summary><div>${groups}</div></details>
${hasViolation ? '<button id="narrow" title="only the goroutines the violation involves">narrow to the violation</button>' : ""}
<button id="noisy" title="relists that found nothing, cache reads, polling calls">periodic records</button>
<button id="arrows" class="on" title="channel hand-offs between goroutines">hand-offs</button>
<span>zoom <button id="zoom-out">−</button> <button id="zoom-in">+</button> <button id="fit">fit</button></span>
<span id="cursor-text" class="help"></span>
</div>`,
    );
    this.wire();
  }

  private wire(): void {
    const q = <T extends Element>(sel: string) => this.el.querySelector<T & HTMLElement>(sel);
    q<HTMLSelectElement>("#pod-filter")?.addEventListener("change", (e) => {
      const v = (e.target as HTMLSelectElement).value;
      this.state.pod = v === "" ? null : v;
      this.host.changed();
    });
    this.el.querySelectorAll<HTMLInputElement>("input[data-group]").forEach((box) =>
      box.addEventListener("change", () => {
        const g = box.getAttribute("data-group")!;
        if (box.checked) this.state.hiddenGroups.delete(g);
        else this.state.hiddenGroups.add(g);
        this.host.changed();
      }),
    );
    this.toggle("#narrow", () => this.state.narrow, (on) => this.host.setNarrow(on));
    this.toggle("#noisy", () => this.state.showNoisy, (on) => ((this.state.showNoisy = on), this.host.changed()));
    this.toggle("#arrows", () => this.state.showArrows, (on) => ((this.state.showArrows = on), this.host.changed()));
    q("#zoom-in")?.addEventListener("click", () => this.host.zoomBy(2));
    q("#zoom-out")?.addEventListener("click", () => this.host.zoomBy(0.5));
    q("#fit")?.addEventListener("click", () => this.host.fit());
    this.el.querySelectorAll("button[data-show-violation]").forEach((b) =>
      b.addEventListener("click", () => {
        const [run, i] = b.getAttribute("data-show-violation")!.split(":").map(Number);
        this.host.showViolation(run!, i!, true);
      }),
    );
  }

  private toggle(sel: string, get: () => boolean, set: (on: boolean) => void): void {
    const b = this.el.querySelector<HTMLButtonElement>(sel);
    b?.addEventListener("click", () => {
      set(!get());
      this.sync();
    });
  }

  /** Buttons show the state (after a change made elsewhere, e.g. "show" narrowing the view). */
  sync(): void {
    this.el.querySelector("#narrow")?.classList.toggle("on", this.state.narrow);
    this.el.querySelector("#noisy")?.classList.toggle("on", this.state.showNoisy);
    this.el.querySelector("#arrows")?.classList.toggle("on", this.state.showArrows);
  }

  cursor(text: string): void {
    const el = this.el.querySelector("#cursor-text");
    if (el !== null) el.textContent = text;
  }
}
