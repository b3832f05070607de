// The page's place in its URL: the level, the timing and the choices, in the fragment (nothing is
// sent anywhere), so a reload, a bookmark or a shared link opens the same run at the same choice.
//   #level=R05&timing=step@5000:9000,seed:7&choices=p0/11%20p1/10
import { ChoiceLog, type Choice } from "../../sim/index.ts";
import type { TimingValues } from "../timing.ts";

export interface UrlState {
  level: string | null;
  values: TimingValues;
  choices: Choice[];
}

export function readUrl(hash: string): UrlState {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const values: Record<string, number> = {};
  for (const pair of (params.get("timing") ?? "").split(",")) {
    const at = pair.lastIndexOf(":");
    if (at <= 0) continue;
    const ms = Number(pair.slice(at + 1));
    if (Number.isInteger(ms)) values[pair.slice(0, at)] = ms;
  }
  let choices: Choice[] = [];
  try {
    choices = ChoiceLog.decode(params.get("choices") ?? "").toArray();
  } catch {
    choices = [];
  }
  return { level: params.get("level"), values, choices };
}

export function writeUrl(state: UrlState): void {
  const timing = Object.entries(state.values).map(([k, v]) => `${k}:${v}`).join(",");
  const parts = [`level=${encodeURIComponent(state.level ?? "")}`];
  if (timing !== "") parts.push(`timing=${encodeURIComponent(timing)}`);
  const choices = ChoiceLog.from(state.choices).encode();
  if (choices !== "") parts.push(`choices=${encodeURIComponent(choices)}`);
  history.replaceState(null, "", `#${parts.join("&")}`);
}
