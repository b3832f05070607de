// Timeline steps as the parsed scenario carries them (schema/timeline.ts parses them): the time,
// the action's name as `kind`, and the action's fields.
import type { RangeMs } from "./common.ts";

/** What every step has: when it happens and which action it takes. */
interface At<K extends string> {
  atMs: number;
  kind: K;
}

export interface CreateStep extends At<"create"> { pod: string }
export interface DeleteStep extends At<"delete"> { pod: string; gracePeriodSeconds?: number | undefined; uid?: string | undefined; target?: "workload" | "pod" | undefined }
export interface ForceDeleteStep extends At<"forceDelete"> { pod: string }
export interface SetImageStep extends At<"setImage"> { pod: string; container: string; image: string }
export interface SetLabelsStep extends At<"setLabels"> { pod: string; labels: Record<string, string | null> }
export interface StaticAddStep extends At<"staticAdd"> { pod: string }
export interface StaticUpdateStep extends At<"staticUpdate"> { pod: string; container: string; image: string }
export interface StaticRemoveStep extends At<"staticRemove"> { pod: string }
/** In a cluster (`nodes:`), the node a node-level step happens to; the first node when omitted. */
interface OnNode {
  node?: string | undefined;
}
export interface RestartKubeletStep extends At<"restartKubelet">, OnNode { downtimeMs: number }
export interface RebootNodeStep extends At<"rebootNode">, OnNode { downtimeMs: number }
export interface RestartRuntimeStep extends At<"restartRuntime">, OnNode { downtimeMs: number }
export interface PartitionStep extends At<"partition">, OnNode { forMs: number; mode: "fail" | "timeout" }
export interface WatchDelayStep extends At<"watchDelay">, OnNode { forMs: number; delay: RangeMs }
export interface WatchDropStep extends At<"watchDrop">, OnNode { forMs: number }
export type WatchGoneStep = At<"watchGone">;
export interface KillSandboxStep extends At<"killSandbox"> { pod: string }
export interface RemoveSandboxStep extends At<"removeSandbox"> { pod: string }
export interface RemoveContainerStep extends At<"removeContainer"> { pod: string; container: string }
export interface OomKillStep extends At<"oomKill"> { pod: string; container: string }
export interface ExitContainerStep extends At<"exitContainer"> { pod: string; container: string; exitCode: number }
/** In a cluster: add (or replace) a taint on a node's Node object, as `kubectl taint nodes NODE key=value:effect`. */
export interface TaintNodeStep extends At<"taintNode"> { node: string; key: string; value?: string | undefined; effect: "NoSchedule" | "PreferNoSchedule" | "NoExecute" }
/** In a cluster: remove a node's taints of this key (and effect, when given), as `kubectl taint nodes NODE key[:effect]-`. */
export interface UntaintNodeStep extends At<"untaintNode"> { node: string; key: string; effect?: "NoSchedule" | "PreferNoSchedule" | "NoExecute" | undefined }
/** In a cluster: kubectl cordon NODE (spec.unschedulable true). */
export interface CordonStep extends At<"cordon"> { node: string }
/** In a cluster: kubectl uncordon NODE (spec.unschedulable false). */
export interface UncordonStep extends At<"uncordon"> { node: string }
/** In a cluster: kubectl delete node NODE. */
export interface DeleteNodeStep extends At<"deleteNode"> { node: string }
export interface EvictStep extends At<"evict"> { pod: string; gracePeriodSeconds?: number | undefined; reason: string; message: string }

/** A step as the models read it. */
export type Step =
  | CreateStep
  | DeleteStep
  | ForceDeleteStep
  | SetImageStep
  | SetLabelsStep
  | StaticAddStep
  | StaticUpdateStep
  | StaticRemoveStep
  | RestartKubeletStep
  | RebootNodeStep
  | RestartRuntimeStep
  | PartitionStep
  | WatchDelayStep
  | WatchDropStep
  | WatchGoneStep
  | KillSandboxStep
  | RemoveSandboxStep
  | RemoveContainerStep
  | OomKillStep
  | ExitContainerStep
  | EvictStep
  | TaintNodeStep
  | UntaintNodeStep
  | CordonStep
  | UncordonStep
  | DeleteNodeStep;

export type ActionName = Step["kind"];
