// Models pkg/kubelet/types/pod_update.go and types.go (SyncPodType, static/mirror pod helpers).
import type { Pod } from "../k8s/pod.ts";

/** kubetypes.SyncPodType: why a pod worker is asked to sync. */
export type SyncPodType = "sync" | "update" | "create" | "kill";
export const SyncPodSync: SyncPodType = "sync";
export const SyncPodUpdate: SyncPodType = "update";
export const SyncPodCreate: SyncPodType = "create";
export const SyncPodKill: SyncPodType = "kill";

export const ConfigSourceAnnotationKey = "kubernetes.io/config.source";
export const ConfigMirrorAnnotationKey = "kubernetes.io/config.mirror";
export const ConfigHashAnnotationKey = "kubernetes.io/config.hash";
export const ConfigFirstSeenAnnotationKey = "kubernetes.io/config.seen";

/** The config sources (kubetypes.FileSource, HTTPSource, ApiserverSource). */
export const FileSource = "file";
export const HTTPSource = "http";
export const ApiserverSource = "api";

/** kubetypes.GetPodSource: the source annotation, "" when missing. */
export function GetPodSource(pod: Pod): string {
  return pod.metadata.annotations?.[ConfigSourceAnnotationKey] ?? "";
}

/** kubetypes.IsStaticPod: a pod from a source other than the apiserver. */
export function IsStaticPod(pod: Pod): boolean {
  const source = GetPodSource(pod);
  return source !== "" && source !== ApiserverSource;
}

/** kubetypes.IsMirrorPod: the apiserver's copy of a static pod. */
export function IsMirrorPod(pod: Pod): boolean {
  return pod.metadata.annotations?.[ConfigMirrorAnnotationKey] !== undefined;
}

/** kubecontainer.Pod: a pod as the runtime lists it (the runtime manager's RuntimePod). */
export type { RuntimePod as RunningPod } from "./kuberuntime/running_pod.ts";

/** A Go error. The kubelet returns errors rather than throwing; a process throw is a panic. */
export type GoError = Error | null;

/**
 * errors.New(message) as a value: an Error without a JavaScript stack (a Go error has none). For
 * errors made at every pass of a loop: while the PLEG is unhealthy, syncLoop's runtimeErrors
 * makes two per iteration (Healthy's and the aggregate), and their stacks were 2-3% of hunt r10.
 */
export function goErrorValue(message: string): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const err = new Error(message);
  Error.stackTraceLimit = limit;
  return err;
}

/** context.Canceled: what a sync returns when its context was cancelled. */
export const ContextCanceled = new Error("context canceled");

/** A context.Context reduced to what the pod workers use: cancellation. */
export class SyncContext {
  private cancelled = false;
  private readonly afterFuncs = new Set<() => void>();
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    const fs = [...this.afterFuncs];
    this.afterFuncs.clear();
    for (const f of fs) f();
  }
  err(): GoError {
    return this.cancelled ? ContextCanceled : null;
  }
  /**
   * context.AfterFunc: f runs once the context is cancelled (at once if it already is). The
   * returned stop unregisters f, and says whether it did so before f ran. Go runs f in its own
   * goroutine; the callers here only close a channel, which never blocks.
   */
  AfterFunc(f: () => void): () => boolean {
    if (this.cancelled) {
      f();
      return () => false;
    }
    const g = () => f();
    this.afterFuncs.add(g);
    return () => this.afterFuncs.delete(g);
  }
}
