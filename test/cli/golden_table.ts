// The golden table of trace hashes: one entry per bundled scenario under scenarios/, run exactly as
// `kubelet-sim run FILE` runs it (the file's own seed, strategy and until). Shared by
// test/cli/golden.test.ts and scripts/update-golden.ts, which rewrites the table.
//
// Each entry pins the run twice: `traceHash`, the trace digest the run reports (src/sim/digest.ts),
// and `linesSha256`, the sha256 of its JSON lines before the "end" record (the end record carries
// the digest itself). The second is independent of the digest's algorithm: it was the trace hash
// until the digest replaced sha256, so the commit that changed the algorithm shows every bundled
// trace's JSON lines unchanged.
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { simulate } from "../../src/simulate.ts";
import { LineSink } from "../../src/sim/index.ts";

export const ROOT = join(import.meta.dirname, "..", "..");
export const TABLE_PATH = join(ROOT, "test", "fixtures", "golden-hashes.json");
export const UPDATE_COMMAND = "node --import tsx scripts/update-golden.ts";

export interface GoldenEntry {
  traceHash: string;
  linesSha256: string;
  events: number;
  endMs: number;
  verdict: string;
}

export interface GoldenTable {
  comment: string;
  scenarios: Record<string, GoldenEntry>;
}

/** Every .yaml/.yml under scenarios/, as "scenarios/…" with forward slashes, in byte order. */
export function bundledScenarios(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return walk(path);
      return /\.ya?ml$/.test(e.name) ? [relative(ROOT, path).split(sep).join("/")] : [];
    });
  return walk(join(ROOT, "scenarios")).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One run of a bundled scenario, without keeping its trace; `ok` is for the expectations test. */
export function runBundled(file: string): GoldenEntry & { ok: boolean; failed: string[] } {
  const { scenario } = loadScenarioFile(join(ROOT, file));
  const lines = createHash("sha256");
  let last = "";
  // Every line but the last ("end") goes to the sha256; a chunk limit of 0 makes each line a chunk.
  const sink = new LineSink((chunk) => {
    lines.update(last);
    last = chunk;
  }, 0);
  const r = simulate(scenario, { scenarioFile: file, sinks: [sink], keepRecords: false });
  if (!last.includes('"kind":"end"')) throw new Error(`${file}: the trace's last line is not the end record`);
  return {
    traceHash: r.run.traceHash,
    linesSha256: lines.digest("hex"),
    events: r.run.events,
    endMs: r.run.endMs,
    verdict: r.run.verdict,
    ok: r.ok,
    failed: r.checks.failed.map((f) => f.description),
  };
}

/** The table of every bundled scenario that runs; the ones that cannot run are returned apart. */
export function makeTable(): { table: GoldenTable; errors: Array<{ file: string; error: unknown }> } {
  const scenarios: Record<string, GoldenEntry> = {};
  const errors: Array<{ file: string; error: unknown }> = [];
  for (const file of bundledScenarios()) {
    try {
      const { traceHash, linesSha256, events, endMs, verdict } = runBundled(file);
      scenarios[file] = { traceHash, linesSha256, events, endMs, verdict };
    } catch (error) {
      errors.push({ file, error });
    }
  }
  const comment = `Trace hashes of every scenario under scenarios/, run as \`kubelet-sim run FILE\`. Regenerate with: ${UPDATE_COMMAND}`;
  return { table: { comment, scenarios }, errors };
}

export function formatTable(table: GoldenTable): string {
  return `${JSON.stringify(table, null, 2)}\n`;
}
