// Invariants added with the race scenarios of group 3 (see src/races/catalog.ts).
import type { InvariantInfo } from "./common.ts";
import { kubeletWriteToOtherUid } from "./kubelet_write_other_uid.ts";
import { neverPolicyCreatedTwice } from "./never_created_twice.ts";

export const RACE_INVARIANTS_3: readonly InvariantInfo[] = [kubeletWriteToOtherUid, neverPolicyCreatedTwice];
