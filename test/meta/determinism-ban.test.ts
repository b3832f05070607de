// Simulation code must take time and chance from the kernel, never from the host. This scan keeps
// that true as the code grows (XState's lesson: convention alone does not keep a clock injected).
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
// src/explore/async.ts is the library's promise around the callback-driven explorer: it resolves
// when the runs are done and decides nothing in them. src/play/client/main.ts is the play page's
// controls: its "random step" is the learner's draw, recorded as a choice like a click; the
// simulation it drives takes no host time or chance.
const EXEMPT_DIRS = ["src/cli/", "src/bench/", "src/explore/async.ts", "src/play/client/main.ts"];
const BANNED: readonly [RegExp, string][] = [
  [/\bDate\.now\b/, "Date.now"],
  [/\bnew Date\(/, "new Date("],
  [/\bMath\.random\b/, "Math.random"],
  [/\bperformance\.now\b/, "performance.now"],
  [/\bprocess\.hrtime\b/, "process.hrtime"],
  [/\bset(Timeout|Interval|Immediate)\s*\(/, "setTimeout/setInterval/setImmediate"],
  [/\bqueueMicrotask\s*\(/, "queueMicrotask"],
  [/\bcrypto\.(random|getRandomValues)/, "crypto randomness"],
  [/\brandom(Bytes|UUID|Int|Fill)\b/, "crypto randomness"],
  [/\basync\s+(function|\(|[a-zA-Z_$][\w$]*\s*\()/, "async function (host scheduling)"],
  [/\bawait\b/, "await (host scheduling)"],
  [/\bnew Promise\b/, "new Promise (host scheduling)"],
];

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (p.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** Strips // and /* *\/ comments and string contents so prose about Date.now does not count. */
function codeOnly(src: string): string {
  return src
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
}

export function findHostTime(files: readonly string[]): string[] {
  const hits: string[] = [];
  for (const file of files) {
    const rel = relative(ROOT, file).replaceAll("\\", "/");
    if (EXEMPT_DIRS.some((d) => rel.startsWith(d))) continue;
    const lines = codeOnly(readFileSync(file, "utf8")).split("\n");
    lines.forEach((line, i) => {
      if (line.includes("host-time-ok")) return;
      for (const [re, what] of BANNED) if (re.test(line)) hits.push(`${rel}:${i + 1}: ${what}`);
    });
  }
  return hits;
}

describe("determinism ban", () => {
  it("no code under src/ (outside cli/ and bench/) reads host time or randomness or schedules host callbacks", () => {
    expect(findHostTime(tsFiles(join(ROOT, "src")))).toEqual([]);
  });

  it("the scan itself catches each banned form (a planted file)", () => {
    const hits = findHostTime(tsFiles(join(ROOT, "test", "fixtures", "planted-host-time")));
    const at = (line: number, what: string) => `test/fixtures/planted-host-time/bad.ts:${line}: ${what}`;
    expect(hits).toEqual([
      at(4, "Date.now"),
      at(5, "Math.random"),
      at(6, "setTimeout/setInterval/setImmediate"),
      at(7, "async function (host scheduling)"),
      at(8, "await (host scheduling)"),
      at(9, "new Date("),
      at(10, "performance.now"),
    ]);
  });
});
