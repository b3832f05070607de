// The registry of invariants, by id; docs/invariants.md lists them. `all` names every one of them
// but the opt-in ones (what `kubelet-sim explore` checks by default).
import type { InvariantInfo } from "./common.ts";
import { startAfterTerminationRequested } from "./start_after_termination.ts";
import { initContainersOutOfOrder } from "./init_order.ts";
import { restartAfterTerminalPhase } from "./restart_after_terminal.ts";
import { sidecarStoppedBeforeMainContainers } from "./sidecar_order.ts";
import { containerStartAfterPodDeleted } from "./start_after_api_delete.ts";
import { RACE_INVARIANTS_1 } from "./races_1.ts";
import { RACE_INVARIANTS_2 } from "./races_2.ts";
import { RACE_INVARIANTS_3 } from "./races_3.ts";
import { RACE_INVARIANTS_4 } from "./races_4.ts";
import { RACE_INVARIANTS_5 } from "./races_5.ts";
import { RACE_INVARIANTS_6 } from "./races_6.ts";
import { RACE_INVARIANTS_7 } from "./races_7.ts";
import { RACE_INVARIANTS_8 } from "./races_8.ts";
import { statusVersionMonotonic } from "./status_version.ts";
import { terminalPhaseNeverChanges } from "./terminal_phase.ts";
import { atMostOneRunningContainer } from "./one_running_container.ts";
import { neverPolicyRunsTwice } from "./never_runs_twice.ts";
import { readyWhileContainerNotRunning } from "./ready_not_running.ts";
import { apiDeleteBeforeContainersStopped } from "./delete_before_stopped.ts";

export const INVARIANTS: readonly InvariantInfo[] = [
  startAfterTerminationRequested,
  initContainersOutOfOrder,
  restartAfterTerminalPhase,
  sidecarStoppedBeforeMainContainers,
  containerStartAfterPodDeleted,
  ...RACE_INVARIANTS_1,
  ...RACE_INVARIANTS_2,
  ...RACE_INVARIANTS_3,
  ...RACE_INVARIANTS_4,
  ...RACE_INVARIANTS_5,
  ...RACE_INVARIANTS_6,
  ...RACE_INVARIANTS_7,
  ...RACE_INVARIANTS_8,
  statusVersionMonotonic,
  terminalPhaseNeverChanges,
  atMostOneRunningContainer,
  neverPolicyRunsTwice,
  readyWhileContainerNotRunning,
  apiDeleteBeforeContainersStopped,
];

/** The name that stands for every registered invariant (but the opt-in ones). */
export const ALL_INVARIANTS = "all";

/** Invariant ids with `all` expanded, deduplicated, in registry order; unknown ids are kept for makeMonitors to refuse. */
export function resolveInvariantIds(ids: readonly string[]): string[] {
  const wanted = new Set(ids.flatMap((id) => (id === ALL_INVARIANTS ? INVARIANTS.filter((i) => i.optIn !== true).map((i) => i.id) : [id])));
  const known = INVARIANTS.map((i) => i.id).filter((id) => wanted.has(id));
  return [...known, ...[...wanted].filter((id) => !known.includes(id)).sort()];
}
