// How many pods a scenario makes: each pod entry once, a controller's replicas, a Job's
// parallelism, a DaemonSet's pod on every node. The size the CLI weighs a run by (cli/young.ts)
// and exploration batches runs by (explore/lockstep.ts).
import type { Scenario } from "./resolve.ts";

export function podsMade(scenario: Scenario): number {
  const nodes = scenario.nodes?.length ?? 1;
  let pods = 0;
  for (const p of scenario.pods) {
    const kind = p.manifest.metadata.ownerReferences?.[0]?.kind;
    pods += p.replicas ?? p.job?.parallelism ?? (kind === "DaemonSet" ? nodes : 1);
  }
  return pods;
}
