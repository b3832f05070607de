// docs/invariants.md, generated from the invariant registry (`npm run docs:reference` writes it and
// the scenario reference; a test fails when either page is out of date).
import { INVARIANTS } from "./invariants/index.ts";
import { RACES } from "../races/catalog.ts";

export function generateInvariantsPage(): string {
  const racesOf = (id: string) => RACES.filter((r) => r.invariant === id);
  const lines = [
    "# Invariants",
    "",
    "<!-- Generated from src/check/invariants/ by `npm run docs:reference`; do not edit by hand. -->",
    "",
    "Online monitors over the trace: each reads the records as they are emitted and reports the first",
    "record at which its rule is broken. A scenario names one under `expect` (`- never: ID`), `explore`",
    "checks every one of them by default (`--invariants all`) or those named (`--invariants a,b`), and",
    "`assertInvariantHolds` checks them in property tests (see [testing.md](testing.md)). An opt-in",
    "invariant states a contract no released kubelet keeps; `all` leaves it out, and it is checked only",
    "when named.",
    "",
    "| id | rule | source |",
    "|---|---|---|",
  ];
  for (const inv of INVARIANTS) {
    const races = racesOf(inv.id).map((r) => `[${r.id}](races/${r.id.toLowerCase()}.md)`);
    const page = races.length === 0 ? "" : ` (${races.join(", ")})`;
    const optIn = inv.optIn === true ? " (opt-in: not part of `all`)" : "";
    lines.push(`| \`${inv.id}\`${optIn} | ${escapeCell(inv.statement)} | ${escapeCell(inv.source)}${page} |`);
  }
  lines.push("");
  return lines.join("\n");
}

function escapeCell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}
