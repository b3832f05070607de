// Models pkg/controller/podgc/gc_controller.go: every gcCheckPeriod (20 s) it force-deletes
// (grace period 0) terminated pods beyond terminatedPodThreshold (12500, oldest first), terminating
// pods on a node that is not Ready and carries the node.kubernetes.io/out-of-service taint
// (non-graceful node shutdown: NodeOutOfServiceVolumeDetach, on by default since 1.26), pods bound
// to a node that no longer exists once it stayed gone for the quarantine (40 s), and terminating
// pods never scheduled. Since 1.26 (PodDisruptionConditions) a pod not yet terminal is first marked
// Failed (with DisruptionTarget, reason DeletionByPodGC, for an orphan).
// Simplified: the node's absence after the quarantine is read from the informer (upstream GETs it).
import { sleep, type Proc, type Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { podKey } from "../k8s/podutil.ts";
import type { ApiServer, PodsClient } from "../apiserver/index.ts";
import { formatRFC3339, parseRFC3339 } from "../apiserver/time.ts";
import { NODE_READY, TAINT_NODE_OUT_OF_SERVICE, type NodeObject } from "../k8s/node_api.ts";
import { atLeast, type KubeletVersion } from "../kubelet/version.ts";
import type { ObjectInformer } from "./node_informer.ts";
import { POD_DISRUPTION_CONDITIONS_RELEASE } from "./taint_eviction.ts";

const COMPONENT = "pod-garbage-collector";
export const GC_CHECK_PERIOD_MS = 20_000;
/** --terminated-pod-gc-threshold */
export const TERMINATED_POD_THRESHOLD = 12_500;
/** quarantineTime */
export const QUARANTINE_MS = 40_000;
/** NodeOutOfServiceVolumeDetach: beta, on by default, since 1.26. */
export const OUT_OF_SERVICE_RELEASE = "1.26.0";

export type GcReason = "terminated" | "outOfService" | "orphaned" | "unscheduledTerminating";

function isTerminated(p: Pod): boolean {
  return p.status?.phase === "Succeeded" || p.status?.phase === "Failed";
}

function isReady(node: NodeObject): boolean {
  return node.status.conditions.some((c) => c.type === NODE_READY && c.status === "True");
}

function creationMs(p: Pod): number {
  return p.metadata.creationTimestamp ? parseRFC3339(p.metadata.creationTimestamp) : 0;
}

/** Pods by creation time, then key (sort.Sort(byEvictionAndCreationTimestamp) in small). */
function oldestFirst(a: Pod, b: Pod): number {
  return creationMs(a) - creationMs(b) || (podKey(a) < podKey(b) ? -1 : podKey(a) > podKey(b) ? 1 : 0);
}

/**
 * The pods in order of their keys (`ns/name`), each key built once: the cluster's every pod is
 * sorted at every check, and building both keys in each comparison made two strings a comparison.
 * The comparison is the same (`<` or else after), so the sort makes the same moves.
 */
function byKey(pods: Iterable<Pod>): Pod[] {
  const keyed: { key: string; pod: Pod }[] = [];
  for (const pod of pods) keyed.push({ key: podKey(pod), pod });
  keyed.sort((a, b) => (a.key < b.key ? -1 : 1));
  const out = new Array<Pod>(keyed.length);
  for (let i = 0; i < keyed.length; i++) out[i] = keyed[i]!.pod;
  return out;
}

export interface GcInput {
  pods: readonly Pod[];
  nodes: ReadonlyMap<string, NodeObject>;
  /** Nodes a pod names that have been missing since when (the quarantine's clock). */
  missingSinceMs: ReadonlyMap<string, number>;
  nowMs: number;
  outOfService: boolean;
  threshold?: number;
}

/** gc: the pods to force-delete, in the order gcTerminated, gcTerminating, gcOrphaned, gcUnscheduledTerminating take them. */
/**
 * Whether podsToCollect could name this pod in some pass: terminated, terminating (which covers
 * outOfService and unscheduledTerminating) or bound to a node that is not there (orphaned, once its
 * quarantine is over). A superset of every category below, kept beside them: the controller skips a
 * pass's sort of every pod by key when no pod passes it.
 */
export function couldBeCollected(pod: Pod, nodes: ReadonlyMap<string, NodeObject>): boolean {
  const node = pod.spec.nodeName ?? "";
  return (node !== "" && !nodes.has(node)) || Boolean(pod.metadata.deletionTimestamp) || isTerminated(pod);
}

export function podsToCollect(i: GcInput): { pod: Pod; reason: GcReason }[] {
  const out: { pod: Pod; reason: GcReason }[] = [];
  const threshold = i.threshold ?? TERMINATED_POD_THRESHOLD;
  const terminated = i.pods.filter(isTerminated).sort(oldestFirst);
  const excess = terminated.length - threshold;
  if (threshold > 0 && excess > 0) for (const pod of terminated.slice(0, excess)) out.push({ pod, reason: "terminated" });
  if (i.outOfService) {
    const terminating = i.pods.filter((p) => p.metadata.deletionTimestamp && !isTerminated(p) && (p.spec.nodeName ?? "") !== "").filter((p) => {
      const node = i.nodes.get(p.spec.nodeName!);
      return node !== undefined && !isReady(node) && (node.spec.taints ?? []).some((t) => t.key === TAINT_NODE_OUT_OF_SERVICE);
    });
    for (const pod of terminating.sort(oldestFirst)) out.push({ pod, reason: "outOfService" });
  }
  for (const pod of i.pods) {
    const node = pod.spec.nodeName ?? "";
    if (node === "" || i.nodes.has(node)) continue;
    const since = i.missingSinceMs.get(node);
    if (since !== undefined && i.nowMs - since >= QUARANTINE_MS) out.push({ pod, reason: "orphaned" });
  }
  for (const pod of i.pods) if (pod.metadata.deletionTimestamp && (pod.spec.nodeName ?? "") === "") out.push({ pod, reason: "unscheduledTerminating" });
  return out;
}

export class PodGCController {
  private readonly client: PodsClient;
  private readonly missingSince = new Map<string, number>();
  private readonly markFailed: boolean;
  private readonly outOfService: boolean;

  constructor(private readonly sim: Sim, api: ApiServer, private readonly nodeInformer: ObjectInformer<"nodes">,
    private readonly pods: () => Iterable<Pod>, version: KubeletVersion) {
    this.client = api.client(COMPONENT);
    this.markFailed = atLeast(version, POD_DISRUPTION_CONDITIONS_RELEASE);
    this.outOfService = atLeast(version, OUT_OF_SERVICE_RELEASE);
  }

  start(): void {
    this.sim.go(`${COMPONENT}/gc`, () => this.loop(), { daemon: true });
  }

  /** wait.UntilWithContext(gc, gcCheckPeriod): bounded by the run. */
  private *loop(): Proc<void> {
    for (;;) {
      yield* sleep(GC_CHECK_PERIOD_MS, "gcCheckPeriod");
      yield* this.gc();
    }
  }

  private *gc(): Proc<void> {
    const nodes = new Map(this.nodeInformer.list().map((n) => [n.metadata.name, n]));
    // The quarantine: a missing node is first noted, and counted gone only after QUARANTINE_MS (every
    // note of a pass is of the same time, so the pods' order does not matter here). The same pass
    // asks whether any pod could be collected at all (couldBeCollected). Most checks find none, and
    // then skip the sort of the cluster's every pod by key that only the victims' order needs
    // (podsToCollect of no candidate is empty in any order).
    let candidates = false;
    for (const p of this.pods()) {
      const n = p.spec.nodeName ?? "";
      if (n !== "" && !nodes.has(n) && !this.missingSince.has(n)) this.missingSince.set(n, this.sim.nowMs);
      if (!candidates && couldBeCollected(p, nodes)) candidates = true;
    }
    for (const n of [...this.missingSince.keys()]) if (nodes.has(n)) this.missingSince.delete(n);
    if (!candidates) return;
    const victims = podsToCollect({ pods: byKey(this.pods()), nodes, missingSinceMs: this.missingSince, nowMs: this.sim.nowMs, outOfService: this.outOfService });
    for (const v of victims) yield* this.markFailedAndDeletePod(v.pod, v.reason);
  }

  private *markFailedAndDeletePod(pod: Pod, reason: GcReason): Proc<void> {
    const ns = pod.metadata.namespace ?? "default";
    this.sim.emit(COMPONENT, "PodGCForceDelete", { pod: podKey(pod), reason, nodeName: pod.spec.nodeName ?? "" });
    if (this.markFailed && !isTerminated(pod)) {
      const status = pod.status ?? {};
      const conditions = reason !== "orphaned" ? status.conditions : [...(status.conditions ?? []).filter((c) => c.type !== "DisruptionTarget"),
        { type: "DisruptionTarget", status: "True" as const, lastProbeTime: null, lastTransitionTime: formatRFC3339(this.sim.nowMs), reason: "DeletionByPodGC", message: "PodGC: node no longer exists" }];
      const r = yield* this.client.patchPodStatus(ns, pod.metadata.name, { ...status, phase: "Failed", ...(conditions === undefined ? {} : { conditions }) }, pod.metadata.uid, status);
      if (r.err !== null) return;
    }
    yield* this.client.deletePod(ns, pod.metadata.name, { gracePeriodSeconds: 0 });
  }
}
