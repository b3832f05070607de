// Which property-access sites miss V8's inline caches during runs, from V8's own log of inline-cache
// transitions (`node --log-ic`). A developer tool in two steps:
//
//   npm run build
//   node --log-ic --logfile=/tmp/ic.log --import tsx scripts/ic-sites.ts run [--hunt r20] [--runs 200] [--warm 300] [--tree /tmp/base-6d86628]
//   node --import tsx scripts/ic-sites.ts report /tmp/isolate-*-ic.log [--top 20]
//   node --import tsx scripts/ic-sites.ts misscost    # what a miss costs against a hit, ns a load
//
// `run` runs the explore bench's scenario (or a race's hunt form) through RunContext.runIndex over
// the compiled dist/, as scripts/ab-cpu.ts does, after a warm-up, and marks the start of the counted
// runs in the log (a load of a property named MARKER_START). `report` counts, from that mark on,
// each site's transitions by file:line:column of the compiled dist/ file, function and property.
// A megamorphic site (state N) looks its receiver's hidden class up in V8's global stub cache; each
// lookup that misses goes to the runtime and is logged as a transition N->N (checked: 200,000 loads
// over fresh hidden classes at one site logged 199,891 N->N lines), so N->N counts stub-cache
// misses; the other transitions are a site meeting a hidden class it had not seen. The "maps" column
// is the number of distinct hidden classes (map addresses) among a site's misses: as many maps as
// misses means every miss was a class met for the first time, not one evicted from the cache.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { join } from "node:path";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    hunt: { type: "string", default: "" },
    runs: { type: "string", default: "200" },
    warm: { type: "string", default: "" },
    top: { type: "string", default: "20" },
    tree: { type: "string", default: join(import.meta.dirname, "..") }, // another built tree, e.g. a base
  },
});
const root = values.tree;

if (positionals[0] === "run") {
  const dist = (path: string) => import(join(root, "dist", `${path}.js`));
  const { makePlan } = await dist("explore/plan");
  const { RunContext } = await dist("explore/context");
  const { parseYaml } = await dist("scenario/yaml");
  const form = values.hunt;
  let ctx;
  if (form !== "") {
    ctx = new RunContext(makePlan({ source: { file: join(root, "scenarios/races/hunt", `${form}-hunt.yaml`) }, strategy: "pct" }));
  } else {
    const { EXPLORE_BENCH_SCENARIO } = await import(join(root, "src/bench/explore.ts"));
    const y = parseYaml(EXPLORE_BENCH_SCENARIO, "bench-explore.yaml");
    ctx = new RunContext(makePlan({ source: { raw: y.value, label: "bench-explore.yaml" }, strategy: "pct" }));
  }
  const runs = Number(values.runs);
  const warm = Number(values.warm !== "" ? values.warm : form !== "" ? "20" : "300");
  for (let i = 0; i < warm; i++) ctx.runIndex(100_000 + i);
  const mark: Record<string, number> = { MARKER_START: runs };
  let events = 0;
  for (let i = 0; i < (mark.MARKER_START ?? 0); i++) events += ctx.runIndex(i).events as number;
  console.log(`${form !== "" ? `hunt ${form}` : "explore"}: ${runs} runs after ${warm} of warm-up, ${events} events`);
} else if (positionals[0] === "misscost") {
  missCost();
} else if (positionals[0] === "report" && positionals[1] !== undefined) {
  report(positionals[1], Number(values.top));
} else {
  console.error("usage: see the head of scripts/ic-sites.ts");
  process.exit(2);
}

interface Code { addr: number; size: number; name: string }
interface Site { misses: number; toMegamorphic: number; other: number; maps: Set<string> }

function report(file: string, top: number): void {
  const lines = readFileSync(file, "utf8").split("\n");
  const codes: Code[] = [];
  let sorted: Code[] | null = null;
  const codeAt = (pc: number): Code | null => {
    sorted ??= [...codes].sort((a, b) => a.addr - b.addr);
    let lo = 0, hi = sorted.length - 1, at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.addr <= pc) { at = mid; lo = mid + 1; } else hi = mid - 1;
    }
    for (let i = at; i >= 0 && i > at - 50; i--) if (pc < sorted[i]!.addr + sorted[i]!.size) return sorted[i]!;
    return null;
  };
  const sites = new Map<string, Site>();
  let started = false, events = 0, misses = 0;
  for (const line of lines) {
    const f = line.split(",");
    if (f[0] === "code-creation") {
      codes.push({ addr: parseInt(f[4]!, 16), size: Number(f[5]), name: f[6] ?? "" });
      sorted = null;
      continue;
    }
    if (!f[0]!.endsWith("IC")) continue;
    const [, pcText, , lineNo, col, from, to, map, key] = f;
    if (!started) { started = key === "MARKER_START"; continue; }
    events++;
    const code = codeAt(parseInt(pcText!, 16));
    const [fn = "?", where = "?"] = (code?.name ?? "? ?").replace(/file:\/\/\/\S*?\/dist\//, "").split(" ");
    const id = `${where.replace(/:\d+:\d+$/, "")}:${lineNo}:${col} ${fn || "(anonymous)"} ${f[0]} ${key}`;
    let s = sites.get(id);
    if (s === undefined) sites.set(id, (s = { misses: 0, toMegamorphic: 0, other: 0, maps: new Set() }));
    if (from === "N" && to === "N") { s.misses++; misses++; s.maps.add(map!); } else if (to === "N") s.toMegamorphic++; else s.other++;
  }
  if (!started) { console.error("no MARKER_START in the log: was it written by `ic-sites.ts run`?"); process.exit(1); }
  const ranked = [...sites].filter(([, s]) => s.misses > 0).sort((a, b) => b[1].misses - a[1].misses);
  console.log(`${events} inline-cache transitions after the mark, ${misses} stub-cache misses (N->N) at ${ranked.length} megamorphic sites`);
  console.log(`${"misses".padStart(7)} ${"maps".padStart(5)}  site (dist file:line:column, function, IC, property)`);
  for (const [id, s] of ranked.slice(0, top)) console.log(`${String(s.misses).padStart(7)} ${String(s.maps.size).padStart(5)}  ${id}`);
  const byFile = new Map<string, number>();
  for (const [id, s] of ranked) { const file = id.split(":")[0]!; byFile.set(file, (byFile.get(file) ?? 0) + s.misses); }
  console.log("\nby file:");
  for (const [file, n] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${String(n).padStart(7)}  ${file}`);
}

/** One megamorphic load site: a load of a hidden class it meets first, against a stub-cache hit. */
function missCost(): void {
  const get = (o: { image: number }): number => o.image;
  const warm: { image: number }[] = [];
  for (let k = 0; k < 20; k++) { const o: Record<string, number> = {}; o[`w${k}`] = 1; o.image = k; warm.push(o as { image: number }); }
  for (let r = 0; r < 20_000; r++) for (const o of warm) get(o);
  const cpu = (): number => { const u = process.cpuUsage(); return u.user + u.system; };
  const n = 20_000;
  let sink = 0;
  for (let round = 0; round < 5; round++) {
    const fresh: { image: number }[] = [];
    for (let i = 0; i < n; i++) { const o: Record<string, number> = {}; o[`f${round}_${i}`] = 1; o.image = i; fresh.push(o as { image: number }); }
    let t0 = cpu();
    for (const o of fresh) sink += get(o);
    const miss = cpu() - t0;
    t0 = cpu();
    for (let r = 0; r < 1000; r++) for (const o of warm) sink += get(o);
    const hit = cpu() - t0;
    console.log(`round ${round}: a load of a hidden class met first ${((miss * 1000) / n).toFixed(0)} ns, a stub-cache hit ${((hit * 1000) / (1000 * warm.length)).toFixed(1)} ns`);
  }
  if (sink < 0) console.log(sink);
}
