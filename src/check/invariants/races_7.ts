// Invariants added with the race scenarios R17–R25 (see src/races/catalog.ts).
import type { InvariantInfo } from "./common.ts";
import { probeBeforeStartupSuccess } from "./probe_before_startup.ts";
import { readyBeforeReadinessSuccess } from "./ready_before_readiness.ts";
import { exitedContainerNotRestarted } from "./exited_not_restarted.ts";
import { sidecarTerminationStalled } from "./sidecar_termination_stalled.ts";
import { terminatingSyncNotRetried } from "./terminating_not_retried.ts";
import { crashRestartBeforeBackoff } from "./crash_restart_backoff.ts";

export const RACE_INVARIANTS_7: readonly InvariantInfo[] = [probeBeforeStartupSuccess, readyBeforeReadinessSuccess, exitedContainerNotRestarted, sidecarTerminationStalled, terminatingSyncNotRetried, crashRestartBeforeBackoff];
