// The Mermaid diagrams of a race's two runs, as the docs pages embed them between markers
// (<!-- diagram:buggy --> ... <!-- /diagram:buggy -->). A test checks the pages are current.
import { simulate } from "../simulate.ts";
import { render } from "../report/index.ts";
import { raceScenario, type RaceEntry } from "./catalog.ts";

export const DIAGRAM_MAX_MESSAGES = 60;

export function raceDiagram(race: RaceEntry, side: "buggy" | "fixed"): string {
  const r = simulate(raceScenario(race, side));
  const from = race.diagramFromMs ?? 0;
  const records = from === 0 ? r.records! : r.records!.filter((rec) => rec.t >= from || rec.kind === "run");
  const diagram = render("mermaid", records, { pod: race.pod, maxMessages: DIAGRAM_MAX_MESSAGES });
  return "```mermaid\n" + diagram.trimEnd() + "\n```";
}

/** The page with both diagram blocks replaced by fresh renders. */
export function withFreshDiagrams(page: string, race: RaceEntry): string {
  let out = page;
  for (const side of ["buggy", "fixed"] as const) {
    const open = `<!-- diagram:${side} -->`;
    const close = `<!-- /diagram:${side} -->`;
    const a = out.indexOf(open);
    const b = out.indexOf(close);
    if (a < 0 || b < a) throw new Error(`${race.id}: the page has no ${open} ... ${close} block`);
    out = out.slice(0, a + open.length) + "\n" + raceDiagram(race, side) + "\n" + out.slice(b);
  }
  return out;
}
