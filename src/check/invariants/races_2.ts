// Invariants added with the race scenarios of group 2 (see src/races/catalog.ts).
import type { InvariantInfo } from "./common.ts";
import { initRerunAfterAppStarted } from "./init_rerun_after_app_started.ts";
import { lostWakeup } from "./lost_wakeup.ts";
import { plegMissedContainerChange } from "./pleg_missed_container_change.ts";

export const RACE_INVARIANTS_2: readonly InvariantInfo[] = [lostWakeup, plegMissedContainerChange, initRerunAfterAppStarted];
