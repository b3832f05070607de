// Invariants added with the race scenarios of group 4 (see src/races/catalog.ts).
import type { InvariantInfo } from "./common.ts";
import { readdedPodRestarted } from "./readded_pod_restarted.ts";

export const RACE_INVARIANTS_4: readonly InvariantInfo[] = [readdedPodRestarted];
