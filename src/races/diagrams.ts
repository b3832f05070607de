// What the race pages embed between markers, generated from fresh runs (a test checks the pages
// are current; scripts/update-race-docs.ts rewrites them):
// - <!-- diagram:buggy --> ... and <!-- diagram:fixed -->: the Mermaid diagram of each side's run;
// - <!-- narrowed:buggy --> ...: the buggy run narrowed to the goroutines the violation involves
//   (a picture of the HTML view, made by scripts/update-race-screenshots.ts, and the narrowed
//   Mermaid diagram). A page without that block gets it inserted before the section that holds
//   the buggy diagram.
import { simulate } from "../simulate.ts";
import { KernelLog } from "../sim/index.ts";
import { render } from "../report/index.ts";
import { renderNarrowMermaid } from "../report/mermaid_narrow.ts";
import { raceScenario, type RaceEntry } from "./catalog.ts";

export const DIAGRAM_MAX_MESSAGES = 60;

function observedRun(race: RaceEntry, side: "buggy" | "fixed") {
  const kernel = new KernelLog();
  const r = simulate(raceScenario(race, side), { observer: kernel });
  return { records: r.records!, kernel };
}

export function raceDiagram(race: RaceEntry, side: "buggy" | "fixed"): string {
  const { records, kernel } = observedRun(race, side);
  const from = race.diagramFromMs ?? 0;
  const shown = from === 0 ? records : records.filter((rec) => rec.t >= from || rec.kind === "run");
  const diagram = render("mermaid", shown, { pod: race.pod, maxMessages: DIAGRAM_MAX_MESSAGES }, kernel);
  return "```mermaid\n" + diagram.trimEnd() + "\n```";
}

/** Where a race's screenshot lives, relative to its page (docs/races/). */
export function screenshotPath(race: RaceEntry): string {
  return `images/${race.id.toLowerCase()}-buggy.png`;
}

/** The narrowed block: the screenshot of the HTML view and the narrowed diagram of the buggy run. */
export function narrowedBlock(race: RaceEntry): string {
  const view = observedRun(race, "buggy");
  const diagram = renderNarrowMermaid(view, { invariant: race.invariant, pod: race.pod, fromMs: race.diagramFromMs ?? 0, ...(race.actors === undefined ? {} : { actors: race.actors }) });
  const name = race.id.toLowerCase();
  return [
    `![The HTML view of the buggy run (${race.buggy.label}), narrowed to the goroutines the ${race.invariant} violation involves](${screenshotPath(race)})`,
    "",
    `*\`kubelet-sim run ${race.file} --format html --out ${name}.html\`, opened, then "show" on the violation: the lanes of the goroutines its message names, the records it names ringed in red. See [teaching.md](../teaching.md) for how to read it.*`,
    "",
    "The same goroutines as a sequence diagram, each step with its virtual time:",
    "",
    "```mermaid",
    diagram.trimEnd(),
    "```",
  ].join("\n");
}

function replaceBlock(page: string, name: string, body: string, race: RaceEntry): string {
  const open = `<!-- ${name} -->`;
  const close = `<!-- /${name} -->`;
  const a = page.indexOf(open);
  const b = page.indexOf(close);
  if (a < 0 || b < a) throw new Error(`${race.id}: the page has no ${open} ... ${close} block`);
  return page.slice(0, a + open.length) + "\n" + body + "\n" + page.slice(b);
}

/** The page with a narrowed block, inserted before the section of the buggy diagram when it has none. */
function withNarrowedBlock(page: string, race: RaceEntry): string {
  if (page.includes("<!-- narrowed:buggy -->")) return page;
  const at = page.indexOf("<!-- diagram:buggy -->");
  if (at < 0) throw new Error(`${race.id}: the page has no <!-- diagram:buggy --> block`);
  const heading = page.lastIndexOf("\n## ", at);
  const cut = heading < 0 ? at : heading + 1;
  const section = "## The race in a few goroutines\n\n<!-- narrowed:buggy -->\n<!-- /narrowed:buggy -->\n\n";
  return page.slice(0, cut) + section + page.slice(cut);
}

/** The page with every generated block replaced by a fresh render. */
export function withFreshDiagrams(page: string, race: RaceEntry): string {
  let out = withNarrowedBlock(page, race);
  out = replaceBlock(out, "narrowed:buggy", narrowedBlock(race), race);
  for (const side of ["buggy", "fixed"] as const) out = replaceBlock(out, `diagram:${side}`, raceDiagram(race, side), race);
  return out;
}
