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
  /** Not upstream's: what a keyed store knows of the SET it pushes (undelta_store.ts), so Merge need not work it out again. */
  listing?: SetListing;
}

/**
 * What an UndeltaStore knows of the list it pushes as a SET, which podStorage.Merge would otherwise
 * derive again from every pod of the list at every SET (a SET repeats the whole node's pods at each
 * change of one): facts of the list, not choices, so Merge's decisions and records are the same.
 */
export interface SetListing {
  /** cache.MetaNamespaceKeyFunc of each pod of Pods, in the same order. */
  readonly keys: readonly string[];
  /** No two pods of Pods have the same full name ("name_namespace"): filterInvalidPods would drop none. */
  readonly fullNamesDistinct: boolean;
  /** The store that pushed the list and the push's number (1, 2, ...): a later push's delta is against push n - 1. */
  readonly from?: object;
  readonly n?: number;
  /**
   * The one key whose object changed since the same store's push n - 1 (every other pod of the
   * list is the very object that push held), or undefined after a Replace or at a first push.
   */
  readonly delta?: SetDelta | undefined;
}

/** One key of a keyed store's list: its object at the previous push and now (undefined: absent). */
export interface SetDelta {
  readonly key: string;
  readonly before: Pod | undefined;
  readonly after: Pod | undefined;
}
