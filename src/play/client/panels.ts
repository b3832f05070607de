// The play page's side panels: the level picker, and the timing knobs (src/play/timing.ts) with each
// one's range and the value the run stands on. Plain DOM; each input has a data-knob id and a name
// a screen reader reads (its label).
import type { PlayLevelChoice, PlayPageData } from "../level.ts";
import type { TimingKnob, TimingValues } from "../timing.ts";
import { byId, el } from "./view.ts";

/** The level picker: the page's own level first, then every race. */
export function drawPicker(data: PlayPageData, onPick: (id: string) => void): void {
  const select = byId("level-picker") as HTMLSelectElement;
  const levels: Pick<PlayLevelChoice, "id" | "title" | "mode">[] = [data.level, ...data.levels.filter((l) => l.id !== data.level.id)];
  select.replaceChildren(...levels.map((l) => el("option", `${l.id}: ${l.title}${l.mode === "order" ? " (won by order)" : ""}`, { value: l.id })));
  select.value = data.level.id;
  select.addEventListener("change", () => onPick(select.value));
}

/** What the timing box says about the level's knobs. */
function timingNote(mode: string): string {
  if (mode === "order") return "This level is won by order alone: under fifo, every timing these ranges allow keeps the invariant (a test runs every one). Set them to see for yourself; the seed stays as written.";
  if (mode === "demo") return "";
  return "Set a timing within the ranges the scenario's swarm section gives, and choose who runs.";
}

/** One row per knob: what it sets, its range, and an input holding the value the run stands on. */
export function drawKnobs(knobs: readonly TimingKnob[], values: TimingValues, mode: string): void {
  const box = byId("knobs");
  byId("timing").hidden = knobs.length === 0;
  byId("timing-note").textContent = timingNote(mode);
  box.replaceChildren(
    ...knobs.map((k) => {
      const row = el("label", undefined, { class: "knob" });
      const value = values[k.id] ?? k.writtenMs;
      const unit = k.kind === "seed" ? "" : "ms";
      // An unset knob (the scenario writes a range) shows what it means rather than a blank.
      const written = k.writtenMs === null ? "unset: the scenario's own range" : `written ${k.writtenMs}${unit}`;
      const input = el("input", undefined, { type: "number", min: String(k.minMs), max: String(k.maxMs), step: "1", "data-knob": k.id, placeholder: k.writtenMs === null ? "as the scenario draws it" : String(k.writtenMs) });
      input.value = value === null ? "" : String(value);
      row.append(el("span", `${k.label} `), input, el("span", ` ${unit} (${k.minMs}–${k.maxMs}; ${written})`, { class: "range" }));
      return row;
    }),
  );
}

/** The values in the inputs; an empty input keeps the written timing. */
export function readKnobs(knobs: readonly TimingKnob[]): TimingValues {
  const out: Record<string, number> = {};
  for (const k of knobs) {
    const input = document.querySelector<HTMLInputElement>(`input[data-knob="${k.id}"]`);
    if (input === null || input.value.trim() === "") continue;
    out[k.id] = Number(input.value);
  }
  return out;
}
