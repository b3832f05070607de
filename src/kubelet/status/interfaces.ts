// Models the interfaces pkg/kubelet/status/status_manager.go consumes (PodManager subset, PodDeletionSafetyProvider, the pods client).
//
// Kept small on purpose: the real pod manager, pod workers and apiserver client are built by
// other models and wired in by the kubelet; anything satisfying these shapes will do.
import type { Pod, PodStatus } from "../../k8s/pod.ts";
import type { PodsClient } from "../../apiserver/client.ts";

/**
 * The slice of kubepod.Manager the status manager reads (status.PodManager upstream). UIDs are
 * plain strings; upstream's ResolvedPodUID / MirrorPodUID types only document which side a UID
 * comes from.
 */
export interface PodManager {
  GetPodByUID(uid: string): Pod | undefined;
  /** The mirror pod of a static pod, if any. */
  GetMirrorPodByPod(pod: Pod): Pod | undefined;
  /** A mirror pod's UID becomes its static pod's UID; every other UID is returned unchanged. */
  TranslatePodUID(uid: string): string;
  /** podToMirror: static pod UID → mirror UID ("" when it has none); mirrorToPod: the reverse. */
  GetUIDTranslations(): { podToMirror: ReadonlyMap<string, string>; mirrorToPod: ReadonlyMap<string, string> };
}

/**
 * PodDeletionSafetyProvider, as the kubelet implements it. Which method the status manager calls
 * depends on the release: PodResourcesAreReclaimed gates the final delete up to 1.26;
 * PodCouldHaveRunningContainers holds back a terminal phase from 1.24 (renamed
 * ShouldDelayTransitioningPodToTerminal in later releases, same meaning).
 */
export interface PodDeletionSafetyProvider {
  PodResourcesAreReclaimed(pod: Pod, status: PodStatus): boolean;
  PodCouldHaveRunningContainers(pod: Pod): boolean;
}

/** What syncPod sends to the apiserver: GET, PATCH pods/status with a UID precondition, DELETE. */
export type StatusClient = Pick<PodsClient, "getPod" | "patchPodStatus" | "deletePod">;

/** A pod manager with no static pods: every UID is its own, and no mirror pods exist. */
export function podManagerWithoutStaticPods(getPodByUID: (uid: string) => Pod | undefined): PodManager {
  const empty = new Map<string, string>();
  return {
    GetPodByUID: getPodByUID,
    GetMirrorPodByPod: () => undefined,
    TranslatePodUID: (uid) => uid,
    GetUIDTranslations: () => ({ podToMirror: empty, mirrorToPod: empty }),
  };
}
