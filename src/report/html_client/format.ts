// Text and colour for the view: virtual time, pod states, components.
export { formatClock } from "../timefmt.ts";

/** An axis tick: "0s", "12.5s", "2m05s", "350ms" (short; the cursor shows the exact clock). */
export function tickText(ms: number, stepMs: number): string {
  if (ms === 0) return "0";
  if (stepMs < 1000 && ms < 1000) return `${ms}ms`;
  const m = Math.floor(ms / 60_000);
  const rest = ms - m * 60_000;
  const digits = stepMs >= 1000 ? 0 : stepMs >= 100 ? 1 : stepMs >= 10 ? 2 : 3;
  const s = (rest / 1000).toFixed(digits);
  if (m === 0) return `${s}s`;
  return `${m}m${rest < 10_000 ? "0" : ""}${s}s`;
}

const PALETTE = ["#3b7dd8", "#d8843b", "#3ba55d", "#b03bd8", "#d83b6a", "#2aa7a7", "#8a7a2a", "#5b5fc7", "#c7495b", "#4c8a3b", "#a0522d", "#607d8b"];

/** A colour per record component, stable across runs and pages. */
export function componentColour(component: string): string {
  let h = 0;
  for (let i = 0; i < component.length; i++) h = (h * 31 + component.charCodeAt(i)) >>> 0;
  return PALETTE[h % PALETTE.length]!;
}

/** The colour of a `kubectl get` STATUS: waiting yellow, running green, stopping orange, failed red, done grey. */
export function stateColour(state: string): string {
  const status = state.split(" ")[0] ?? "";
  if (/^(Running)$/.test(status)) return "#b9e4c2";
  if (/^(Terminating)$/.test(status)) return "#f7cf9e";
  if (/^(Pending|ContainerCreating|PodInitializing|Init:)/.test(status)) return "#f6eaa6";
  if (/^(Completed|Succeeded)$/.test(status)) return "#d5d9e0";
  if (/(Error|Failed|Evicted|BackOff|CrashLoop|Err)/.test(status)) return "#f4b4b4";
  return "#dde3ee";
}

export function escapeText(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}
