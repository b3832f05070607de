// Models pkg/kubelet/pleg/generic.go (plegContainerState, convertState, generateEvents, computeEvents, podRecords): the pure core of relist.
//
// The same code in 1.21 and 1.29 (both texts read); only the relist loop around it moved later.
import { GoPanic } from "../../sim/index.ts";
import type { RuntimePod } from "../kuberuntime/running_pod.ts";
import {
  ContainerChanged,
  ContainerDied,
  ContainerRemoved,
  ContainerStarted,
  type PodLifecycleEvent,
} from "./pleg.ts";

/**
 * plegContainerState has a one-to-one mapping to the kubecontainer.State except for the
 * non-existent state. This state is introduced here to complete the state transition scenarios.
 */
export type plegContainerState = "running" | "exited" | "unknown" | "non-existent";

export const plegContainerRunning: plegContainerState = "running";
export const plegContainerExited: plegContainerState = "exited";
export const plegContainerUnknown: plegContainerState = "unknown";
export const plegContainerNonExistent: plegContainerState = "non-existent";

/** convertState. The "created" state becomes unknown: R07's lossy mapping is upstream's own. */
export function convertState(state: string): plegContainerState {
  switch (state) {
    case "created":
      // kubelet doesn't use the "created" state yet, hence convert it to "unknown".
      return plegContainerUnknown;
    case "running":
      return plegContainerRunning;
    case "exited":
      return plegContainerExited;
    case "unknown":
      return plegContainerUnknown;
    default:
      throw new GoPanic(`unrecognized container state: ${state}`);
  }
}

/** generateEvents: the events of one container whose PLEG state went from oldState to newState. */
export function generateEvents(podID: string, cid: string, oldState: plegContainerState, newState: plegContainerState): PodLifecycleEvent[] {
  if (newState === oldState) return [];
  switch (newState) {
    case plegContainerRunning:
      return [{ ID: podID, Type: ContainerStarted, Data: cid }];
    case plegContainerExited:
      return [{ ID: podID, Type: ContainerDied, Data: cid }];
    case plegContainerUnknown:
      return [{ ID: podID, Type: ContainerChanged, Data: cid }];
    case plegContainerNonExistent:
      if (oldState === plegContainerExited) {
        // We already reported that the container died before.
        return [{ ID: podID, Type: ContainerRemoved, Data: cid }];
      }
      return [
        { ID: podID, Type: ContainerDied, Data: cid },
        { ID: podID, Type: ContainerRemoved, Data: cid },
      ];
    default:
      throw new GoPanic(`unrecognized container state: ${String(newState)}`);
  }
}

/** A container or sandbox as the listing carries it (the parts of kubecontainer.Container read here). */
interface Listed {
  readonly id: { readonly id: string };
  readonly state: string;
}

/** getContainersFromPods: containers, then sandboxes ("update sandboxes as containers"), each ID once. */
export function getContainersFromPods(...pods: (RuntimePod | null)[]): Listed[] {
  const seen = new Set<string>();
  const containers: Listed[] = [];
  const fill = (cs: readonly Listed[]) => {
    for (const c of cs) {
      if (seen.has(c.id.id)) continue;
      seen.add(c.id.id);
      containers.push(c);
    }
  };
  for (const p of pods) {
    if (p === null) continue;
    fill(p.containers);
    fill(p.sandboxes);
  }
  return containers;
}

/** getContainerState: the container's state in pod, searching sandboxes too; non-existent by default. */
export function getContainerState(pod: RuntimePod | null, cid: string): plegContainerState {
  if (pod === null) return plegContainerNonExistent;
  // FindContainerByID, then FindSandboxByID, both by ContainerID.ID.
  const c = pod.containers.find((x) => x.id.id === cid) ?? pod.sandboxes.find((x) => x.id.id === cid);
  return c === undefined ? plegContainerNonExistent : convertState(c.state);
}

/** computeEvents for one container ID across the old and the new record of a pod. */
export function computeEvents(oldPod: RuntimePod | null, newPod: RuntimePod | null, cid: string): PodLifecycleEvent[] {
  const pid = oldPod?.id ?? newPod?.id ?? "";
  return generateEvents(pid, cid, getContainerState(oldPod, cid), getContainerState(newPod, cid));
}

/** podRecord: the pod as the last relist that acted on it saw it (old), and as this relist sees it (current). */
interface podRecord {
  old: RuntimePod | null;
  current: RuntimePod | null;
}

/** podRecords (a Go map keyed by pod UID). */
export class PodRecords {
  private readonly records = new Map<string, podRecord>();

  /** The UIDs of every record, sorted (a Go map has no order; callers that need one ask the kernel). */
  uids(): string[] {
    return [...this.records.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Every record, by UID in order (play mode shows them). */
  entries(): { uid: string; old: RuntimePod | null; current: RuntimePod | null }[] {
    return this.uids().map((uid) => ({ uid, ...this.records.get(uid)! }));
  }

  getOld(id: string): RuntimePod | null {
    return this.records.get(id)?.old ?? null;
  }

  getCurrent(id: string): RuntimePod | null {
    return this.records.get(id)?.current ?? null;
  }

  /**
   * setCurrent. `keepMissingPods` reproduces the pre-v1.2.0 bug behind R08 (PR #22155's analysis):
   * without the reset loop, a pod missing from the listing keeps its previous `current`, so a
   * container that exited and was removed between two relists yields no event.
   */
  setCurrent(pods: readonly RuntimePod[], keepMissingPods = false): void {
    if (!keepMissingPods) for (const r of this.records.values()) r.current = null;
    for (const pod of pods) {
      const r = this.records.get(pod.id);
      if (r !== undefined) r.current = pod;
      else this.records.set(pod.id, { old: null, current: pod });
    }
  }

  /** update: current becomes old; a pod that no longer exists loses its record. */
  update(id: string): void {
    const r = this.records.get(id);
    if (r === undefined) return;
    if (r.current === null) {
      this.records.delete(id);
      return;
    }
    r.old = r.current;
    r.current = null;
  }
}

/** relist's first loop: every pod record's events, grouped by pod UID (eventsByPodID, via updateEvents). */
export function computeEventsByPodID(records: PodRecords): Map<string, PodLifecycleEvent[]> {
  const eventsByPodID = new Map<string, PodLifecycleEvent[]>();
  for (const pid of records.uids()) {
    const oldPod = records.getOld(pid);
    const pod = records.getCurrent(pid);
    // One object for both (GetPods hands out the same frozen pod while its listing is unchanged):
    // every container's state is the same in both, so generateEvents would give none.
    if (oldPod === pod && pod !== null && Object.isFrozen(pod)) continue;
    for (const container of getContainersFromPods(oldPod, pod)) {
      for (const e of computeEvents(oldPod, pod, container.id.id)) {
        const list = eventsByPodID.get(e.ID);
        if (list === undefined) eventsByPodID.set(e.ID, [e]);
        else list.push(e);
      }
    }
  }
  return eventsByPodID;
}
