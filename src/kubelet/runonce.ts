// Models pkg/kubelet/runonce.go (as of the v1.22 pod worker rewrite, seed 002): `kubelet --runonce`
// takes one config update, admits its pods, and syncs each until all its containers run, retrying
// 10 times with a delay that starts at 1 s and doubles.
import { recv, recvCase, select, send, sleep, type Chan, type Proc } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { PodStatus } from "./container/runtime.ts";
import { SyncContext, SyncPodUpdate, type GoError } from "./types.ts";
import type { KubeletCore } from "./kubelet_core.ts";
import type { KubeletSyncer } from "./kubelet_sync.ts";
import type { PodUpdate } from "./kubelet_deps.ts";
import { canAdmitPod } from "./lifecycle/admission.ts";

export const runOnceManifestDelayMs = 1000;
export const runOnceMaxRetries = 10;
export const runOnceRetryDelayMs = 1000;
export const runOnceRetryDelayBackoff = 2;

export interface RunPodResult {
  pod: Pod;
  err: GoError;
}

export class RunOnceKubelet {
  constructor(
    private readonly kl: KubeletCore,
    private readonly syncer: KubeletSyncer,
  ) {}

  /** RunOnce: wait up to runOnceManifestDelay for one config update, then run its pods. */
  *RunOnce(): Proc<[RunPodResult[], GoError]> {
    const timeout = this.kl.sim.after("runOnceManifestDelay", runOnceManifestDelayMs);
    const c = yield* select([recvCase(this.kl.deps.configUpdates), recvCase(timeout)]);
    if (c.index === 1) return [[], new Error(`no pod manifest update after ${runOnceManifestDelayMs / 1000}s`)];
    const u = c.value as PodUpdate;
    this.kl.emit("RunOnceManifest", undefined, { pods: u.Pods.length });
    return yield* this.runOnce(u.Pods, runOnceRetryDelayMs);
  }

  private *runOnce(pods: Pod[], retryDelayMs: number): Proc<[RunPodResult[], GoError]> {
    const results: RunPodResult[] = [];
    const ch = this.kl.sim.chan<RunPodResult>("runOnce/results");
    const admitted: Pod[] = [];
    for (const pod of pods) {
      const r = canAdmitPod(this.kl.admitContext, admitted, pod);
      if (!r.Admit) {
        this.kl.deps.recorder.Eventf(pod, "Warning", r.Reason, r.Message);
        this.kl.deps.statusManager.SetPodStatus(pod, { phase: "Failed", reason: r.Reason, message: `Pod was rejected: ${r.Message}` });
        results.push({ pod, err: null });
        continue;
      }
      admitted.push(pod);
      this.kl.sim.go(`runOnce/${pod.metadata.name}`, () => this.runPodAndReport(pod, retryDelayMs, ch), { group: "kubelet" });
    }
    const failed: string[] = [];
    for (let i = 0; i < admitted.length; i++) {
      const value = (yield* recv(ch)).value!;
      results.push(value);
      if (value.err !== null) failed.push(`${value.pod.metadata.name}_${value.pod.metadata.namespace ?? "default"}`);
      this.kl.emit(value.err === null ? "RunOnceStarted" : "RunOnceFailed", value.pod, { err: value.err?.message ?? null });
    }
    if (failed.length > 0) return [results, new Error(`error running pods: [${failed.join(" ")}]`)];
    return [results, null];
  }

  private *runPodAndReport(pod: Pod, retryDelayMs: number, ch: Chan<RunPodResult>): Proc<void> {
    const err = yield* this.runPod(pod, retryDelayMs);
    yield* send(ch, { pod, err });
  }

  /** runPod: sync until every container runs, or give up after runOnceMaxRetries. */
  private *runPod(pod: Pod, retryDelayMs: number): Proc<GoError> {
    let delayMs = retryDelayMs;
    for (let retry = 0; ; retry++) {
      const [status, err] = yield* this.kl.deps.runtime.GetPodStatus(pod.metadata.uid!, pod.metadata.name, pod.metadata.namespace ?? "default");
      if (err !== null || status === null) return new Error(`unable to get status for pod "${pod.metadata.name}": ${err?.message}`);
      if (isPodRunning(pod, status)) return null;
      // "Creating a mirror pod for static pod": errors are logged and ignored.
      yield* this.kl.deps.mirrorClient.CreateMirrorPod(pod);
      const mirrorPod = this.kl.podManager.GetMirrorPodByPod(pod);
      const [, syncErr] = yield* this.syncer.SyncPod(new SyncContext(), SyncPodUpdate, pod, mirrorPod, status);
      if (syncErr !== null) return new Error(`error syncing pod "${pod.metadata.name}": ${syncErr.message}`);
      if (retry >= runOnceMaxRetries) {
        return new Error(`timeout error: pod "${pod.metadata.name}" containers not running after ${runOnceMaxRetries} retries`);
      }
      yield* sleep(delayMs, "runOnceRetryDelay");
      delayMs *= runOnceRetryDelayBackoff;
    }
  }
}

/** isPodRunning: every regular container's newest status is running. */
export function isPodRunning(pod: Pod, status: PodStatus): boolean {
  return pod.spec.containers.every((c) => status.containerStatuses.find((s) => s.name === c.name)?.state === "running");
}
