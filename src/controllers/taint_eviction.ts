// Models pkg/controller/tainteviction/taint_eviction.go (until 1.29 pkg/controller/nodelifecycle/
// scheduler/taint_manager.go, the same logic): it watches nodes' NoExecute taints and the pods bound
// to them. A pod that does not tolerate one of its node's NoExecute taints is deleted at once; one
// that tolerates them all for a while (tolerationSeconds) is deleted that long after the taint was
// seen (processPodOnNode, getMinTolerationTime); the scheduled deletion is cancelled when the taints
// go or the pod is gone. The deletion adds the DisruptionTarget condition first (PodDisruptionConditions,
// on by default since 1.26) and is graceful: on a cut-off node the pod stays Terminating.
// Simplified: the timed worker queue is the kernel's timers; a failed deletion is not retried.
import type { Proc, Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { podKey } from "../k8s/podutil.ts";
import type { Toleration } from "../k8s/node.ts";
import type { NodeTaint } from "../k8s/node_api.ts";
import type { ApiServer, PodsClient, WatchEvent } from "../apiserver/index.ts";
import { formatRFC3339 } from "../apiserver/time.ts";
import { atLeast, type KubeletVersion } from "../kubelet/version.ts";
import { toleratesTaint } from "../k8s/scheduling/taints.ts";
import type { ObjectInformer } from "./node_informer.ts";

const COMPONENT = "taint-eviction-controller";
/** PodDisruptionConditions: beta, on by default, since 1.26. */
export const POD_DISRUPTION_CONDITIONS_RELEASE = "1.26.0";

/** The NoExecute taints of a node (getNoExecuteTaints). */
export function noExecuteTaints(taints: readonly NodeTaint[] | undefined): NodeTaint[] {
  return (taints ?? []).filter((t) => t.effect === "NoExecute");
}

/**
 * What processPodOnNode decides for a pod on a node with these NoExecute taints: nothing to do
 * (cancel any scheduled deletion), delete now, or delete after `afterMs`.
 */
export type EvictionDecision = { kind: "cancel" } | { kind: "now" } | { kind: "after"; afterMs: number };

export function evictionDecision(taints: readonly NodeTaint[], tolerations: readonly Toleration[]): EvictionDecision {
  if (taints.length === 0) return { kind: "cancel" };
  // GetMatchingTolerations: every taint must be tolerated; the tolerations used are collected.
  const used: Toleration[] = [];
  for (const t of taints) {
    const tol = tolerations.find((x) => toleratesTaint(x, t));
    if (tol === undefined) return { kind: "now" };
    used.push(tol);
  }
  // getMinTolerationTime: the least tolerationSeconds set (a negative one as zero); none set: forever.
  let min = -1;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    const s = Math.max(0, t.tolerationSeconds) * 1000;
    if (min < 0 || s < min) min = s;
  }
  return min < 0 ? { kind: "cancel" } : { kind: "after", afterMs: min };
}

interface Scheduled {
  createdAtMs: number;
  fireAtMs: number;
  cancel: () => void;
}

export class TaintEvictionController {
  private readonly tainted = new Map<string, NodeTaint[]>();
  private readonly work = new Map<string, Scheduled>();
  private readonly client: PodsClient;
  private readonly disruptionConditions: boolean;

  constructor(private readonly sim: Sim, api: ApiServer, private readonly nodeInformer: ObjectInformer<"nodes">,
    private readonly pods: () => Iterable<Pod>, version: KubeletVersion) {
    this.client = api.client(COMPONENT);
    this.disruptionConditions = atLeast(version, POD_DISRUPTION_CONDITIONS_RELEASE);
  }

  start(): void {
    for (const n of this.nodeInformer.list()) {
      const t = noExecuteTaints(n.spec.taints);
      if (t.length > 0) this.tainted.set(n.metadata.name, t);
    }
    this.nodeInformer.onEvent((type, node, old) => {
      const taints = type === "DELETED" ? [] : noExecuteTaints(node.spec.taints);
      if (old !== undefined && JSON.stringify(noExecuteTaints(old.spec.taints)) === JSON.stringify(taints)) return;
      this.handleNodeUpdate(node.metadata.name, taints);
    });
  }

  /** PodUpdated, from the shared pod informer: a pod newly bound, or its tolerations changed, or gone. */
  observePod(e: WatchEvent, pod: Pod, before: Pod | undefined): void {
    const key = podKey(pod);
    if (e.type === "DELETED") {
      this.cancelWork(key, false);
      return;
    }
    if (before !== undefined && before.spec.nodeName === pod.spec.nodeName && JSON.stringify(before.spec.tolerations) === JSON.stringify(pod.spec.tolerations)) return;
    const nodeName = pod.spec.nodeName ?? "";
    const taints = nodeName === "" ? undefined : this.tainted.get(nodeName);
    if (taints === undefined) return;
    this.processPodOnNode(pod, taints);
  }

  private handleNodeUpdate(nodeName: string, taints: NodeTaint[]): void {
    if (taints.length === 0) this.tainted.delete(nodeName);
    else this.tainted.set(nodeName, taints);
    const onNode = [...this.pods()].filter((p) => p.spec.nodeName === nodeName).sort((a, b) => (podKey(a) < podKey(b) ? -1 : 1));
    for (const pod of onNode) {
      if (taints.length === 0) this.cancelWork(podKey(pod), true);
      else this.processPodOnNode(pod, taints);
    }
  }

  private processPodOnNode(pod: Pod, taints: NodeTaint[]): void {
    const key = podKey(pod);
    const d = evictionDecision(taints, (pod.spec.tolerations ?? []) as Toleration[]);
    const now = this.sim.nowMs;
    if (d.kind === "cancel") return this.cancelWork(key, true);
    if (d.kind === "now") {
      this.cancelWork(key, true);
      return this.addWork(pod, now, now);
    }
    let start = now;
    const scheduled = this.work.get(key);
    if (scheduled !== undefined) {
      start = scheduled.createdAtMs;
      if (start + d.afterMs < now + d.afterMs) return;
      this.cancelWork(key, true);
    }
    this.addWork(pod, start, start + d.afterMs);
  }

  private addWork(pod: Pod, createdAtMs: number, fireAtMs: number): void {
    const key = podKey(pod);
    if (this.work.has(key)) return;
    this.sim.emit(COMPONENT, "EvictionScheduled", { pod: key, nodeName: pod.spec.nodeName ?? "", atMs: fireAtMs });
    const run = () => {
      this.work.delete(key);
      this.sim.go(`${COMPONENT}/evict/${key}`, () => this.deletePod(pod), { daemon: true });
    };
    if (fireAtMs <= this.sim.nowMs) {
      this.work.set(key, { createdAtMs, fireAtMs, cancel: () => {} });
      run();
      return;
    }
    const entry = this.sim.schedule(fireAtMs, run);
    this.work.set(key, { createdAtMs, fireAtMs, cancel: () => this.sim.cancel(entry) });
  }

  /** cancelWorkWithEvent: a scheduled deletion is called off ("Cancelling deletion of Pod"). */
  private cancelWork(key: string, withEvent: boolean): void {
    const w = this.work.get(key);
    if (w === undefined) return;
    w.cancel();
    this.work.delete(key);
    if (withEvent) this.sim.emit(COMPONENT, "Event", { pod: key, type: "Normal", reason: "TaintManagerEviction", message: `Cancelling deletion of Pod ${key}` });
  }

  /** deletePodHandler / addConditionAndDeletePod. */
  private *deletePod(pod: Pod): Proc<void> {
    const ns = pod.metadata.namespace ?? "default";
    const key = podKey(pod);
    this.sim.emit(COMPONENT, "Event", { pod: key, type: "Normal", reason: "TaintManagerEviction", message: `Marking for deletion Pod ${key}` });
    if (this.disruptionConditions) {
      const got = yield* this.client.getPod(ns, pod.metadata.name);
      if (got.err !== null) return;
      const status = got.value.status ?? {};
      const condition = { type: "DisruptionTarget", status: "True" as const, lastProbeTime: null, lastTransitionTime: formatRFC3339(this.sim.nowMs), reason: "DeletionByTaintManager", message: "Taint manager: deleting due to NoExecute taint" };
      const conditions = [...(status.conditions ?? []).filter((c) => c.type !== "DisruptionTarget"), condition];
      const r = yield* this.client.patchPodStatus(ns, pod.metadata.name, { ...status, conditions }, got.value.metadata.uid, status);
      if (r.err !== null) return;
    }
    yield* this.client.deletePod(ns, pod.metadata.name);
  }
}
