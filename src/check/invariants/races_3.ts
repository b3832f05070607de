// Invariants added with the race scenarios of group 3 (see src/races/catalog.ts).
import type { InvariantInfo } from "./common.ts";

export const RACE_INVARIANTS_3: readonly InvariantInfo[] = [];
