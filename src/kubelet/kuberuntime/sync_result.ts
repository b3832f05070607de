// Models pkg/kubelet/container/sync_result.go (SyncAction, SyncResult, PodSyncResult and the error names).
//
// Go's sentinel errors are their strings here: SyncResult.Error is the error's name
// ("CrashLoopBackOff", "ErrImagePull"), Message the human-readable detail. SyncError is the text of
// an error that happened outside any step (a PodSandboxStatus failure).
import { ErrCrashLoopBackOff } from "./kuberuntime_backoff.ts";
import {
  ErrImageInspect, ErrImageNeverPull, ErrImagePull, ErrImagePullBackOff, ErrInvalidImageName, ErrRegistryUnavailable,
} from "./image_pull.ts";

export { ErrCrashLoopBackOff, ErrImageInspect, ErrImageNeverPull, ErrImagePull, ErrImagePullBackOff, ErrInvalidImageName, ErrRegistryUnavailable };

/** ErrRunContainer returned when runtime failed to start any of pod's container. */
export const ErrRunContainer = "RunContainerError";
/** ErrKillContainer returned when runtime failed to kill any of pod's containers. */
export const ErrKillContainer = "KillContainerError";
/** ErrCreatePodSandbox returned when runtime failed to create a sandbox for pod. */
export const ErrCreatePodSandbox = "CreatePodSandboxError";
/** ErrConfigPodSandbox returned when runtime failed to get pod sandbox config from pod. */
export const ErrConfigPodSandbox = "ConfigPodSandboxError";
/** ErrKillPodSandbox returned when runtime failed to stop pod's sandbox. */
export const ErrKillPodSandbox = "KillPodSandboxError";
/** ErrRemoveContainer returned when runtime failed to remove a container. */
export const ErrRemoveContainer = "RemoveContainerError";

/** kuberuntime_container.go's errors of startContainer. */
export const ErrCreateContainerConfig = "CreateContainerConfigError";
export const ErrPreCreateHook = "PreCreateHookError";
export const ErrCreateContainer = "CreateContainerError";
export const ErrPreStartHook = "PreStartHookError";
export const ErrPostStartHook = "PostStartHookError";

/** SyncAction indicates different kind of actions in SyncPod() and KillPod(). */
export type SyncAction =
  | "StartContainer"
  | "KillContainer"
  | "InitContainer"
  | "CreatePodSandbox"
  | "ConfigPodSandbox"
  | "KillPodSandbox"
  | "RemoveContainer";

/** SyncResult is the result of sync action. */
export class SyncResult {
  /** Brief error reason (an error name), null on success. */
  Error: string | null = null;
  /** Human readable error reason. */
  Message = "";

  constructor(
    readonly Action: SyncAction,
    /** A container name, the pod's full name (sandbox creation), a sandbox ID or a pod UID. */
    readonly Target: string,
  ) {}

  /** Fail fails the SyncResult with specific error and message. */
  Fail(err: string, msg: string): void {
    this.Error = err;
    this.Message = msg;
  }
}

/** NewSyncResult generates new SyncResult with specific Action and Target. */
export function NewSyncResult(action: SyncAction, target: string): SyncResult {
  return new SyncResult(action, target);
}

/** PodSyncResult is the summary result of SyncPod() and KillPod(). */
export class PodSyncResult {
  readonly SyncResults: SyncResult[] = [];
  /** Error encountered in SyncPod() and KillPod() that is not already included in SyncResults. */
  SyncError: string | null = null;

  AddSyncResult(...results: SyncResult[]): void {
    this.SyncResults.push(...results);
  }

  /** AddPodSyncResult merges a PodSyncResult to current one. */
  AddPodSyncResult(result: PodSyncResult): void {
    this.AddSyncResult(...result.SyncResults);
    this.SyncError = result.SyncError;
  }

  Fail(err: string): void {
    this.SyncError = err;
  }

  /** Error returns an error summarizing all the errors (utilerrors.NewAggregate's text), or null. */
  Error(): string | null {
    const errlist: string[] = [];
    if (this.SyncError !== null) errlist.push(`failed to SyncPod: ${this.SyncError}`);
    for (const r of this.SyncResults) {
      if (r.Error !== null) errlist.push(`failed to ${goQuote(r.Action)} for ${goQuote(r.Target)} with ${r.Error}: ${goQuote(r.Message)}`);
    }
    if (errlist.length === 0) return null;
    return errlist.length === 1 ? errlist[0]! : `[${errlist.join(", ")}]`;
  }
}

/** Go's %q for a string: double-quoted with escapes (JSON's escaping matches for printable text). */
function goQuote(s: string): string {
  return JSON.stringify(s);
}
