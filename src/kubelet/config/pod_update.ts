// Models pkg/kubelet/types/pod_update.go (PodUpdate, PodOperation, the config sources).
import type { Pod } from "../../k8s/pod.ts";
import { ApiserverSource, FileSource, HTTPSource } from "../types.ts";

export { ApiserverSource, FileSource, HTTPSource };

/**
 * kubetypes.PodOperation. Upstream these are ints (SET = 0, ADD, DELETE, REMOVE, UPDATE,
 * RECONCILE); strings keep traces readable. RESTORE came from the bootstrap checkpoint
 * (1.10–1.19), which is not modelled, so it is never produced here.
 */
export type PodOperation = "SET" | "ADD" | "DELETE" | "REMOVE" | "UPDATE" | "RECONCILE" | "RESTORE";

/** Every operation, in upstream's declaration order. */
export const POD_OPERATIONS: readonly PodOperation[] = ["SET", "ADD", "DELETE", "REMOVE", "UPDATE", "RECONCILE", "RESTORE"];

/** kubetypes.AllSource: the source of a PodConfig.Sync snapshot. */
export const AllSource = "*";

/**
 * kubetypes.PodUpdate. Field names stay Go's so ported kubelet code reads the same
 * (`u.Op`, `u.Pods`, `u.Source`). The pods are frozen objects shared with the config store.
 */
export interface PodUpdate {
  Pods: Pod[];
  Op: PodOperation;
  Source: string;
}
