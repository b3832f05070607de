// Scenario validation on files with many keys: 2,500 to 20,000 unknown top-level keys, 10,000
// annotations in a valid pod, and the worst a 1 MiB file can hold (about 100,000 keys). Each is
// timed in CPU milliseconds, the fastest of a few rounds; `perDoubling` is the time of 2n keys over
// that of n (2.0 is linear; it was about 4 when the checks were quadratic). docs/scenarios.md
// promises a refusal within a second: `withinASecond` says whether that held here.
import { checkScenarioText } from "../scenario/index.ts";
import type { BenchLine } from "./kernel.ts";

const ROUNDS = 3;
const KEYS = [2_500, 5_000, 10_000, 20_000];

const unknownKeys = (n: number) => `name: many\n${Array.from({ length: n }, (_, i) => `k${i}: 1`).join("\n")}\n`;

function annotations(n: number): string {
  const lines = Array.from({ length: n }, (_, i) => `          a${i}: "v${i}"`);
  return `name: annotated\npods:\n  - manifest:\n      metadata:\n        name: web\n        annotations:\n${lines.join("\n")}\n      spec: { containers: [{ name: app, image: "nginx:1" }] }\ntimeline:\n  - { at: 0s, create: web }\n`;
}

/** As many `kNNNNN: 1` lines as fit in 1 MiB, the file size cap. */
function fullFile(): string {
  const lines = ["name: full"];
  let bytes = 11;
  for (let i = 0; bytes < 1024 * 1024 - 16; i++) {
    const line = `k${i}: 1`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

/** The fastest of ROUNDS checks of the text, in CPU milliseconds (host-time-ok: src/bench). */
function cpuMs(text: string): number {
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.cpuUsage();
    checkScenarioText(text, "bench.yaml");
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return Math.round(best);
}

export function benchValidateKeys(): BenchLine[] {
  const keys = KEYS.map((n) => ({ n, ms: cpuMs(unknownKeys(n)) }));
  const lines: BenchLine[] = keys.map(({ n, ms }, i) => ({
    name: "validate-keys",
    file: `${n} unknown top-level keys`,
    cpuMs: ms,
    perDoubling: i === 0 ? "-" : (ms / keys[i - 1]!.ms).toFixed(2),
  }));
  lines.push({ name: "validate-keys", file: "10000 annotations (valid)", cpuMs: cpuMs(annotations(10_000)), perDoubling: "-" });
  const full = fullFile();
  lines.push({ name: "validate-keys", file: `1 MiB of keys (${full.split("\n").length - 2})`, cpuMs: cpuMs(full), perDoubling: "-" });
  for (const l of lines) l.withinASecond = Number(l.cpuMs) < 1000 ? "yes" : "no";
  return lines;
}
