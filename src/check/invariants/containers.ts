// Which containers run now, from the runtime's own records (ContainerStarted, ContainerExited), each
// attributed to the API UID its pod key had when it started. The runtime names pods by
// "namespace/name" only, so a pod deleted and recreated under the same name is told apart by the
// UID its PodView records show. Simplification: a container the old pod's worker starts after the
// new pod appeared is attributed to the new pod. Each container also carries the kubelet's UID: the
// pod whose SyncPod (the only sync that starts containers) began last under that key, which tells a
// static pod's old and new UID apart (their API object is one mirror pod).
import type { TraceRecord } from "../../sim/index.ts";
import { isSyncPodBegin, type RecordReads } from "./common.ts";

export interface RunningContainer {
  id: string;
  pod: string;
  container: string;
  /** The pod's API UID when the container started; "" when the pod had no API object yet (a static pod before its mirror). */
  uid: string;
  /** The kubelet's UID of the pod that started it ("" before any SyncPod of the key). */
  kubeletUid: string;
  startedAtMs: number;
}

/** What RuntimeContainers.observe reads. */
export const RUNTIME_CONTAINER_READS: RecordReads = {
  PodView: ["pod", "deleted", "uid"],
  ContainerStarted: ["pod", "id", "container"],
  ContainerExited: ["pod", "id"],
};

/**
 * The kinds RuntimeContainers("call") reads: the start is the CRI StartContainer, and each
 * container's kubelet UID comes from the SyncPod that began last under its pod key.
 */
export const CALL_CONTAINER_READS: RecordReads = {
  PodView: ["pod", "deleted", "uid"],
  SyncBegin: ["pod", "mode", "uid"],
  SyncPod: ["pod", "uid"],
  StartContainer: ["pod", "id", "result", "container"],
  ContainerExited: ["pod", "id"],
};

export class RuntimeContainers {
  private readonly uidByPod = new Map<string, string>();
  private readonly syncingByPod = new Map<string, string>();
  private readonly exited = new Set<string>();

  /**
   * startedBy "task": a start is the runtime's ContainerStarted; "call": the CRI StartContainer that
   * succeeded, the same start as the kubelet sees it and the default timeline shows it (its record
   * comes when the call returns, possibly after a task that exits at once already did).
   */
  constructor(private readonly startedBy: "task" | "call" = "task") {}

  private isStart(rec: TraceRecord): boolean {
    return this.startedBy === "task" ? rec.kind === "ContainerStarted" : rec.kind === "StartContainer" && rec.result === "ok";
  }
  private readonly running = new Map<string, RunningContainer>();

  /** Feed every record; returns the container that started with this record, if any. */
  observe(rec: TraceRecord): RunningContainer | null {
    if (typeof rec.pod !== "string") return null;
    if (rec.component === "apiserver" && rec.kind === "PodView" && rec.deleted !== true && typeof rec.uid === "string") {
      this.uidByPod.set(rec.pod, rec.uid);
      return null;
    }
    if (isSyncPodBegin(rec) && typeof rec.uid === "string") {
      this.syncingByPod.set(rec.pod, rec.uid);
      return null;
    }
    if (rec.component !== "runtime" || typeof rec.id !== "string") return null;
    if (rec.kind === "ContainerExited") {
      this.running.delete(rec.id);
      this.exited.add(rec.id);
    }
    if (!this.isStart(rec) || this.exited.has(rec.id)) return null;
    const c: RunningContainer = {
      id: rec.id, pod: rec.pod, container: String(rec.container), uid: this.uidOf(rec.pod), kubeletUid: this.syncingByPod.get(rec.pod) ?? "", startedAtMs: rec.t,
    };
    this.running.set(rec.id, c);
    return c;
  }

  /** The UID the pod key has now ("" when none was seen). */
  uidOf(pod: string): string {
    return this.uidByPod.get(pod) ?? "";
  }

  /** Running containers started by the kubelet's pod `kubeletUid`, in start order. */
  runningOfKubeletUid(kubeletUid: string): RunningContainer[] {
    const out: RunningContainer[] = [];
    for (const c of this.running.values()) if (c.kubeletUid === kubeletUid) out.push(c);
    return out;
  }

  /** Running containers of a pod key (of one UID when given), in start order. */
  runningOf(pod: string, uid?: string): RunningContainer[] {
    const out: RunningContainer[] = [];
    for (const c of this.running.values()) if (c.pod === pod && (uid === undefined || c.uid === uid)) out.push(c);
    return out;
  }
}
