// Invariants added with races R09-R14 (see src/races/catalog.ts).
import type { InvariantInfo } from "./common.ts";
import { rejectedForResourcesOfTerminalPod } from "./rejected_for_terminal_pod.ts";
import { plegStallDelaysOtherPods } from "./pleg_stall.ts";
import { phaseRegressedToPending } from "./phase_regression.ts";

export const RACE_INVARIANTS_6: readonly InvariantInfo[] = [plegStallDelaysOtherPods, rejectedForResourcesOfTerminalPod, phaseRegressedToPending];
