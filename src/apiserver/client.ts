// Models the slice of client-go's typed CoreV1().Pods(ns) client (kubernetes/typed/core/v1/pod.go) the kubelet uses.
//
// Every method is a generator that takes virtual time: call it from a kernel process with
// `const r = yield* api.getPod("default", "web")`. Like Go, a failed request is a returned error,
// never a throw (a throw inside a process is a panic): check `r.err` before reading `r.value`.
// Every object handed out is frozen; a model that wants to change one builds a copy (immer
// `produce`, or `structuredClone`) and sends it back through `updatePod` / `patchPodStatus`.
import type { Proc } from "../sim/index.ts";
import type { Chan } from "../sim/index.ts";
import type { Pod, PodStatus } from "../k8s/pod.ts";
import type { StatusError } from "./errors.ts";

export type { StatusError } from "./errors.ts";

/** (value, err) as a Go call returns it: exactly one of the two is set. */
export type ApiResult<T> = { value: T; err: null } | { value: null; err: StatusError };

/** metav1.Preconditions */
export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/** metav1.DeleteOptions (the fields with semantics here). */
export interface DeleteOptions {
  /** Unset: the pod's spec.terminationGracePeriodSeconds. 0: remove at once (force delete). */
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
}

/**
 * metav1.ListOptions reduced to what the kubelet's ListWatch sends: the field selector
 * `spec.nodeName=<node>` (as `nodeName`) and a resourceVersion to start a watch from.
 */
export interface ListOptions {
  /** fields.OneTermEqualSelector("spec.nodeName", nodeName); unset lists every pod. */
  nodeName?: string;
  /** For watch: deliver events after this version. "" or "0": start from now. */
  resourceVersion?: string;
  /** For watch: the server closes the watch after this long (client-go draws 5–10 min). */
  timeoutSeconds?: number;
}

/** v1.PodList */
export interface PodList {
  readonly resourceVersion: string;
  readonly items: readonly Pod[];
}

/** watch.EventType */
export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

/**
 * watch.Event. For ERROR, `status` carries the metav1.Status (410 Gone when the watch's
 * resourceVersion fell out of the retained window) and `object` is null.
 */
export interface WatchEvent {
  readonly type: WatchEventType;
  readonly object: Pod | null;
  readonly status: StatusError | null;
}

/** watch.Interface: ResultChan() closes when the watch ends (timeout, Stop, a dropped connection). */
export interface WatchInterface {
  readonly resultChan: Chan<WatchEvent>;
  stop(): void;
}

/** The pods client one actor (the kubelet, the scenario's user) holds. */
export interface PodsClient {
  /** The actor written into every trace record of its requests ("kubelet", "user"). */
  readonly actor: string;
  createPod(pod: Pod): Proc<ApiResult<Pod>>;
  getPod(namespace: string, name: string): Proc<ApiResult<Pod>>;
  listPods(opts?: ListOptions): Proc<ApiResult<PodList>>;
  watchPods(opts?: ListOptions): Proc<ApiResult<WatchInterface>>;
  /** POST pods/<name>/binding: the scheduler binds a pod to a node (apiserver/registry.ts bind). */
  bindPod(namespace: string, name: string, nodeName: string, uid?: string): Proc<ApiResult<Pod>>;
  /** PUT: optimistic concurrency on metadata.resourceVersion when set; status is not changed. */
  updatePod(pod: Pod): Proc<ApiResult<Pod>>;
  /**
   * PATCH pods/<name>/status, as statusutil.PatchPodStatus sends it: the status replaces the
   * stored one, and `uid` (when given) is a precondition: a pod recreated under the same name
   * makes the patch fail (422: metadata.uid is immutable) instead of landing on the new pod.
   * With `base` (the status the client read), only what differs from base to status is sent, as
   * a strategic merge patch: the diff lands on whatever object holds the name (apiserver/status_patch.ts).
   */
  patchPodStatus(namespace: string, name: string, status: PodStatus, uid?: string, base?: PodStatus): Proc<ApiResult<Pod>>;
  /**
   * DELETE. `value.deleted` is false while graceful deletion is pending (the returned pod carries
   * deletionTimestamp and deletionGracePeriodSeconds), true once the object is gone.
   */
  deletePod(namespace: string, name: string, opts?: DeleteOptions): Proc<ApiResult<DeleteResult>>;
}

export interface DeleteResult {
  readonly pod: Pod;
  readonly deleted: boolean;
}
