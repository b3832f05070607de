// The small interfaces the pod workers need from their neighbours (the pod cache, the event
// recorder), so both pod worker eras can be tested without the whole kubelet.
import type { GoError } from "./types.ts";
import type { Proc } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { PodStatus } from "./container/runtime.ts";

/** kubecontainer.Cache as the pod workers read it. */
export interface PodCacheReader {
  /** Blocks until the cache holds an entry for uid newer than minTimeMs (or the global timestamp is). */
  GetNewerThan(uid: string, minTimeMs: number): Proc<PodStatus>;
  /** GetNewerThan with Go's error: the entry's error when the PLEG could not read the pod's status. */
  GetNewerThanWithError(uid: string, minTimeMs: number): Proc<[PodStatus | null, GoError]>;
  Get(uid: string): PodStatus | undefined;
}

/** record.EventRecorder. */
export interface EventRecorder {
  Eventf(pod: Pod, type: "Normal" | "Warning", reason: string, message: string): void;
}
