// `explore` runs whole scenarios outside session.ts's steps; of a big one it starts itself again, as
// run and replay do (young.ts, docs/cli.md "Big runs"): the scenario is weighed here, before the
// command prints anything, and the same rule decides. A scenario this cannot load is left to the
// command, which reports it as it always has (exit 2, located errors). `serve` does not: Ctrl-C is
// its normal stop (exit 0), and a terminal's Ctrl-C reaches both processes, so the child would get
// it twice and could die of the second while it closes the server (exit 130 instead of 0).
import { loadScenarioWithOverrides, type KubeletOverrides } from "../scenario/overrides.ts";
import { semiSpaceFor } from "./young.ts";
import { DEFAULT_INLINING } from "./inlining.ts";

/**
 * The exit code of the command run again with a larger semi-space, or null to run it here. The
 * second process is given V8's own inlining limits, so that inlining.ts leaves them: a big
 * scenario is a cluster's, whose hot code gains from deep inlining (docs/BENCHMARKS.md, "Less
 * machine code (inline)").
 */
export async function rerunIfBig(respawn: ((mb: number, flags?: readonly string[]) => Promise<number>) | null | undefined, path: string, kubelet: KubeletOverrides | undefined): Promise<number | null> {
  if (respawn === null || respawn === undefined) return null;
  let mb: number | null;
  try {
    const { scenario } = loadScenarioWithOverrides(path, kubelet);
    mb = semiSpaceFor(scenario, scenario.untilMs);
  } catch {
    return null;
  }
  return mb === null ? null : respawn(mb, DEFAULT_INLINING);
}
