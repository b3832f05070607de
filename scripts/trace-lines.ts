// Fingerprints of the JSON lines of many runs, to show that a change meant to change nothing (a
// faster model, a new trace hash) leaves every trace byte-identical:
//   node --import tsx scripts/trace-lines.ts > before.txt    (on the old code)
//   node --import tsx scripts/trace-lines.ts > after.txt     (on the new code)
//   diff before.txt after.txt
// One line per run: every bundled scenario under its own strategy, fifo, random and pct with two
// seeds each, a race under the fixed kubelet too, the explore bench's scenario under 20 pct seeds,
// and ten minutes of the 110-pod node under random. The fingerprint is the sha256 of the run's
// JSON lines before the "end" record (that record carries the trace hash itself, whose algorithm
// may be what changed), with the end record's verdict, events and end time beside it.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { loadScenarioText } from "../src/scenario/index.ts";
import { applyKubeletOverrides } from "../src/scenario/overrides.ts";
import { parseYaml } from "../src/scenario/yaml.ts";
import { stringify } from "yaml";
import { simulate } from "../src/simulate.ts";
import { LineSink, parseStrategy, type StrategySpec } from "../src/sim/index.ts";
import { EXPLORE_BENCH_SCENARIO } from "../src/bench/explore.ts";
import { nodeScenarioYaml } from "../src/bench/node.ts";

const ROOT = join(import.meta.dirname, "..");

function scenarioFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return walk(path);
      return /\.ya?ml$/.test(e.name) ? [relative(ROOT, path).split(sep).join("/")] : [];
    });
  return walk(join(ROOT, "scenarios")).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function fingerprint(label: string, text: string, strategy: StrategySpec | null, seed: number | null): string {
  const { scenario } = loadScenarioText(text, label);
  const lines: string[] = [];
  const sink = new LineSink((chunk) => lines.push(chunk), 0);
  const r = simulate(scenario, {
    ...(strategy === null ? {} : { strategy }),
    ...(seed === null ? {} : { seed }),
    scenarioFile: label,
    sinks: [sink],
    keepRecords: false,
  });
  const end = lines.pop();
  if (end === undefined || !end.includes('"kind":"end"')) throw new Error(`${label}: the last line is not the end record`);
  const sha = createHash("sha256").update(lines.join("")).digest("hex");
  return `${label} ${strategy === null ? "own" : formatSpec(strategy)} seed=${seed ?? "own"} ${r.run.verdict} events=${r.run.events} endMs=${r.run.endMs} lines=${lines.length} ${sha}`;
}

const formatSpec = (s: StrategySpec) => (s.name === "pct" ? `pct:${s.depth}:${s.steps}` : s.name);

function withVersion(text: string, version: string, label: string): string {
  const y = parseYaml(text, label);
  if (!y.ok) throw new Error(`${label} does not parse`);
  return stringify(applyKubeletOverrides(y.value as Record<string, unknown>, { version }));
}

const out: string[] = [];
const strategies: (StrategySpec | null)[] = [null, parseStrategy("fifo"), parseStrategy("random"), parseStrategy("pct:3:300")];
for (const file of scenarioFiles()) {
  const text = readFileSync(join(ROOT, file), "utf8");
  for (const s of strategies) for (const seed of s === null ? [null] : [1, 2]) out.push(fingerprint(file, text, s, seed));
  if (file.startsWith("scenarios/races/")) out.push(fingerprint(`${file}@1.30`, withVersion(text, "1.30", file), parseStrategy("random"), 3));
}
for (let seed = 0; seed < 20; seed++) out.push(fingerprint("bench-explore.yaml", EXPLORE_BENCH_SCENARIO, parseStrategy("pct:3:300"), seed));
out.push(fingerprint("node-110-pods.yaml", nodeScenarioYaml(110, "10m"), parseStrategy("random"), 1));
process.stdout.write(`${out.join("\n")}\n`);
