// Invariants added with the cluster races R26-R27 (see src/races/catalog.ts).
import type { InvariantInfo } from "./common.ts";
import { statefulSetIdentityAtMostOnce } from "./statefulset_identity.ts";
import { jobRunningAtMostParallelism } from "./job_parallelism.ts";

export const RACE_INVARIANTS_8: readonly InvariantInfo[] = [statefulSetIdentityAtMostOnce, jobRunningAtMostParallelism];
