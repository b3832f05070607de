// The registry of invariants, by id; docs/invariants.md lists them.
import type { InvariantInfo } from "./common.ts";
import { startAfterTerminationRequested } from "./start_after_termination.ts";
import { initContainersOutOfOrder } from "./init_order.ts";
import { restartAfterTerminalPhase } from "./restart_after_terminal.ts";
import { sidecarStoppedBeforeMainContainers } from "./sidecar_order.ts";
import { containerStartAfterPodDeleted } from "./start_after_api_delete.ts";

export const INVARIANTS: readonly InvariantInfo[] = [
  startAfterTerminationRequested,
  initContainersOutOfOrder,
  restartAfterTerminalPhase,
  sidecarStoppedBeforeMainContainers,
  containerStartAfterPodDeleted,
];
