// Invariant monitors: each watches the trace online and reports the first record that breaks a
// rule the kubelet states (an upstream comment) or a real bug broke (../shared/races.md).
import type { Scenario } from "../scenario/resolve.ts";
import type { InvariantMonitor } from "./invariants/common.ts";
export type { InvariantInfo, InvariantMonitor, Violation } from "./invariants/common.ts";
import { INVARIANTS } from "./invariants/index.ts";
export { INVARIANTS };

/** The invariants by id: every run makes its monitors, often all of them (a search per id was 1.3% of an explore run). */
const byId = new Map(INVARIANTS.map((i) => [i.id, i]));

/** Monitors for the named invariants; an unknown name is a scenario error, said before the run. */
export function makeMonitors(ids: readonly string[], scenario: Scenario): InvariantMonitor[] {
  return ids.map((id) => {
    const info = byId.get(id);
    if (info === undefined) {
      throw new UnknownInvariantError(`unknown invariant "${id}"; known: ${INVARIANTS.map((i) => i.id).join(", ")}`, id);
    }
    return info.make(scenario);
  });
}

export class UnknownInvariantError extends Error {
  override name = "UnknownInvariantError";
  constructor(
    message: string,
    /** The id that is not known, so a caller can find where the scenario names it. */
    readonly id = "",
  ) {
    super(message);
  }
}
