// Invariants added with the race scenarios of group 1 (see src/races/catalog.ts).
import type { InvariantInfo } from "./common.ts";
import { probeAfterTerminationRequested } from "./probe_after_termination.ts";

export const RACE_INVARIANTS_1: readonly InvariantInfo[] = [probeAfterTerminationRequested];
