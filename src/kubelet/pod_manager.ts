// Models pkg/kubelet/pod/pod_manager.go: the kubelet's desired set of pods (from config), keyed by
// UID, with static pods' mirror pods keyed by full name.
import type { Pod } from "../k8s/pod.ts";
import { getPodFullName } from "../k8s/podutil.ts";
import { IsMirrorPod } from "./types.ts";

export class PodManager {
  private readonly podByUID = new Map<string, Pod>();
  private readonly mirrorPodByUID = new Map<string, Pod>();
  private readonly podByFullName = new Map<string, Pod>();
  private readonly mirrorPodByFullName = new Map<string, Pod>();
  /** podByUID's keys sorted, kept until a UID is added or removed (GetPods runs at every housekeeping and resync). */
  private sortedUIDs: string[] | null = null;
  /** What `generation` counts. */
  private changes = 0;

  /** Not upstream: a change count of the pods and mirror pods (every add, update or removal); housekeeping_reuse.ts compares it. */
  get generation(): number {
    return this.changes;
  }

  /** AddPod and UpdatePod are the same operation upstream (updatePodsInternal). */
  AddPod(pod: Pod): void {
    this.UpdatePod(pod);
  }

  UpdatePod(pod: Pod): void {
    const uid = pod.metadata.uid!;
    const fullName = getPodFullName(pod);
    this.changes++;
    if (IsMirrorPod(pod)) {
      this.mirrorPodByUID.set(uid, pod);
      this.mirrorPodByFullName.set(fullName, pod);
      return;
    }
    if (!this.podByUID.has(uid)) this.sortedUIDs = null;
    this.podByUID.set(uid, pod);
    this.podByFullName.set(fullName, pod);
  }

  RemovePod(pod: Pod): void {
    const uid = pod.metadata.uid!;
    const fullName = getPodFullName(pod);
    this.changes++;
    if (IsMirrorPod(pod)) {
      this.mirrorPodByUID.delete(uid);
      if (this.mirrorPodByFullName.get(fullName)?.metadata.uid === uid) this.mirrorPodByFullName.delete(fullName);
      return;
    }
    if (this.podByUID.delete(uid)) this.sortedUIDs = null;
    if (this.podByFullName.get(fullName)?.metadata.uid === uid) this.podByFullName.delete(fullName);
  }

  GetPodByUID(uid: string): Pod | undefined {
    return this.podByUID.get(uid);
  }

  GetPodByFullName(fullName: string): Pod | undefined {
    return this.podByFullName.get(fullName);
  }

  /** GetPods: the desired (non-mirror) pods, sorted by UID so iteration never depends on insertion. */
  GetPods(): Pod[] {
    this.sortedUIDs ??= [...this.podByUID.keys()].sort();
    return this.sortedUIDs.map((uid) => this.podByUID.get(uid)!);
  }

  /** GetMirrorPodByPod: the mirror pod of a static pod, if the apiserver has one. */
  GetMirrorPodByPod(pod: Pod): Pod | undefined {
    return this.mirrorPodByFullName.get(getPodFullName(pod));
  }

  /** TranslatePodUID: a mirror pod's UID becomes its static pod's UID; others are unchanged. */
  TranslatePodUID(uid: string): string {
    const mirror = this.mirrorPodByUID.get(uid);
    if (mirror === undefined) return uid;
    return this.podByFullName.get(getPodFullName(mirror))?.metadata.uid ?? uid;
  }

  /** GetUIDTranslations: static pod UID ↔ mirror pod UID. */
  GetUIDTranslations(): { podToMirror: ReadonlyMap<string, string>; mirrorToPod: ReadonlyMap<string, string> } {
    const podToMirror = new Map<string, string>();
    const mirrorToPod = new Map<string, string>();
    for (const [fullName, pod] of [...this.podByFullName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const mirror = this.mirrorPodByFullName.get(fullName);
      if (mirror === undefined) continue;
      podToMirror.set(pod.metadata.uid!, mirror.metadata.uid!);
      mirrorToPod.set(mirror.metadata.uid!, pod.metadata.uid!);
    }
    return { podToMirror, mirrorToPod };
  }

  /** GetPodAndMirrorPod: given either half of a static pod pair, both halves and whether the input was the mirror. */
  GetPodAndMirrorPod(aPod: Pod): [Pod | undefined, Pod | undefined, boolean] {
    const fullName = getPodFullName(aPod);
    if (IsMirrorPod(aPod)) return [this.podByFullName.get(fullName), aPod, true];
    return [aPod, this.mirrorPodByFullName.get(fullName), false];
  }
}
