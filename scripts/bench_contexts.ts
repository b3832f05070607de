// The runs the developer scripts measure (profile-areas, census, list-profile, monitor-noops,
// checker-replay, sync-parts): the explore bench's scenario and a race's hunt form, each explored
// under pct through RunContext.runIndex over a tree's compiled dist/, as the explore and
// hunt-speed bench lines run them. The scenarios are the tree's own (its src/bench and scenarios/).
import { join } from "node:path";

/** A run context as the scripts use it: one run by its index. */
export interface Runs {
  runIndex(index: number): unknown;
}

const root = join(import.meta.dirname, "..");

/**
 * Runs from..to-1 of a run context as `explore` runs them: in lockstep batches (runBatch, of
 * ctx.lockstep runs) where the tree has them, else one by one (trees before the lockstep batches).
 */
export function runRange(ctx: any, from: number, to: number): { events: number; identity: string }[] {
  const out: { events: number; identity: string }[] = [];
  const size: number = ctx.runBatch === undefined ? 1 : ctx.lockstep;
  for (let at = from; at < to; at += size) {
    const indices = Array.from({ length: Math.min(size, to - at) }, (_, k) => at + k);
    out.push(...(size === 1 ? indices.map((i) => ctx.runIndex(i)) : ctx.runBatch(indices, () => false)));
  }
  return out;
}

/** Makers of the explore bench's and the hunt forms' run contexts, and of the node line's run, over `tree`'s dist/ (this checkout by default). */
export async function benchContexts(tree: string = root): Promise<{ explore(): Runs; hunt(form: string): Runs; node(minutes: number): Promise<() => void> }> {
  const dist = (path: string) => import(join(tree, "dist", `${path}.js`));
  const { RunContext } = await dist("explore/context");
  const { makePlan } = await dist("explore/plan");
  const { parseYaml } = await dist("scenario/yaml");
  const { EXPLORE_BENCH_SCENARIO } = (await import(join(tree, "src/bench/explore.ts"))) as { EXPLORE_BENCH_SCENARIO: string };
  const label = "bench-explore.yaml";
  return {
    explore: () => new RunContext(makePlan({ source: { raw: parseYaml(EXPLORE_BENCH_SCENARIO, label).value, label }, strategy: "pct" })),
    hunt: (form) => new RunContext(makePlan({ source: { file: join(tree, "scenarios/races/hunt", `${form}-hunt.yaml`) }, strategy: "pct" })),
    node: (minutes) => nodeRun(tree, dist, minutes),
  };
}

/**
 * One run of the node line's scenario (110 pods, src/bench/node.ts) for `minutes` virtual minutes,
 * loaded once: the trace hashed and written to a sink that keeps nothing, as the bench runs it.
 */
async function nodeRun(tree: string, dist: (path: string) => Promise<any>, minutes: number): Promise<() => void> {
  const { nodeScenarioYaml } = (await import(join(tree, "src/bench/node.ts"))) as { nodeScenarioYaml(pods: number, until: string): string };
  const { loadScenarioText } = await dist("scenario/index");
  const { simulate } = await dist("simulate");
  const { scenario } = loadScenarioText(nodeScenarioYaml(110, `${minutes}m`), "node-110-pods.yaml");
  return () => void simulate(scenario, { sinks: [{ wantsLines: false, write() {} }], keepRecords: false });
}
