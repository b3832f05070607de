// The play page's two side panels: the level picker, and the timing knobs (src/play/timing.ts) with
// each one's range and the value the run stands on. Plain DOM; each input has a data-knob id.
import type { PlayPageData } from "../level.ts";
import type { TimingKnob, TimingValues } from "../timing.ts";
import { byId, el } from "./view.ts";

/** The level picker: the page's own level first, then every race. */
export function drawPicker(data: PlayPageData, onPick: (id: string) => void): void {
  const select = byId("level-picker") as HTMLSelectElement;
  const ids = [data.level.id, ...data.levels.map((l) => l.id).filter((id) => id !== data.level.id)];
  const titles = new Map([[data.level.id, data.level.title], ...data.levels.map((l): [string, string] => [l.id, l.title])]);
  select.replaceChildren(...ids.map((id) => el("option", `${id}: ${titles.get(id) ?? ""}`, { value: id })));
  select.value = data.level.id;
  select.addEventListener("change", () => onPick(select.value));
}

/** One row per knob: what it sets, its range, and an input holding the value the run stands on. */
export function drawKnobs(knobs: readonly TimingKnob[], values: TimingValues): void {
  const box = byId("knobs");
  byId("timing").hidden = knobs.length === 0;
  box.replaceChildren(
    ...knobs.map((k) => {
      const row = el("label", undefined, { class: "knob" });
      const value = values[k.id] ?? k.writtenMs;
      const input = el("input", undefined, { type: "number", min: String(k.minMs), max: String(k.maxMs), step: "1", "data-knob": k.id, placeholder: "as written" });
      input.value = value === null ? "" : String(value);
      const unit = k.kind === "seed" ? "" : "ms";
      const written = k.writtenMs === null ? "as written" : `written ${k.writtenMs}${unit}`;
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
