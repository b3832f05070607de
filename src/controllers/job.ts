// Models pkg/controller/job/job_controller.go (syncJob, manageJob, pastBackoffLimitOnFailure) and
// backoff_utils.go (the pod failure backoff) for NonIndexed Jobs, in small: parallelism,
// completions, backoffLimit, pod failure counting, and a failed pod's replacement delayed by
// DefaultJobPodFailureBackOff (10 s) doubled per failure since the last success, at most
// MaxJobPodFailureBackOff (10 min, the current releases'; simplified: not gated by release). A pod
// being deleted counts as failed at once (isPodFailed), so its replacement may start before it
// stopped, unless spec.podReplacementPolicy is Failed (KEP-3939; honoured from 1.29, when the
// JobPodReplacementPolicy gate went beta): then terminating pods are not replaced (race R27).
//
// Simplified, as the ReplicaSet controller (replicaset.ts): the Job lives in the controller (no Job
// object, no status in the apiserver; its outcome is the JobComplete or JobFailed record); pods are
// counted from the pods the controller saw (no job-tracking finalizers); one worker; Indexed
// completion mode, podFailurePolicy, successPolicy, activeDeadlineSeconds and suspend are not
// modelled (the scenario refuses an Indexed Job in a cluster).
import { sleep, type Proc, type Sim } from "../sim/index.ts";
import { ControllerLoop, controllerKey, observedExpectation } from "./informer.ts";
import type { Pod } from "../k8s/pod.ts";
import { podKey } from "../k8s/podutil.ts";
import type { PodsClient, WatchEvent } from "../apiserver/index.ts";
import { generateName } from "../scenario/manifest/names.ts";
import { activePodsWithRanksLess, isPodActive } from "./controller_utils.ts";
import { EXPECTATIONS_TIMEOUT_MS } from "./replicaset.ts";
import { slowStartBatch } from "./controller_utils.ts";

const COMPONENT = "job-controller";
export const DEFAULT_JOB_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_JOB_POD_FAILURE_BACKOFF_MS = 10 * 60_000;
/** MaxPodCreateDeletePerSync. */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;

export interface Job {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly parallelism: number;
  /** null: a work queue, complete at the first success once no pod is active. */
  readonly completions: number | null;
  readonly backoffLimit: number;
  readonly template: Pod;
  readonly firstName: string;
  /** spec.podReplacementPolicy; TerminatingOrFailed when unset. */
  readonly podReplacementPolicy?: "TerminatingOrFailed" | "Failed" | undefined;
}

/** The Job controller's feature gates, by the cluster's release. */
export interface JobControllerGates {
  /** JobPodReplacementPolicy: alpha (off) in 1.28, beta (on by default) from 1.29, GA in 1.34. */
  jobPodReplacementPolicy: boolean;
}

interface JobState {
  job: Job;
  /** UIDs of the pods seen Succeeded and Failed (counted once each). */
  succeeded: Set<string>;
  failed: Set<string>;
  failuresAfterLastSuccess: number;
  lastFailureMs: number;
  created: number;
  finished: "Complete" | "Failed" | null;
  expectAdd: number;
  expectDel: number;
  expectSinceMs: number;
  /** UIDs of the pods this controller deleted (never counted as failures). */
  deletedByController: Set<string>;
}

export class JobController {
  private readonly jobs = new Map<string, JobState>();
  private readonly loop: ControllerLoop;

  constructor(private readonly sim: Sim, private readonly client: PodsClient,
    private readonly beforeCreate: (templateKey: string, podKey: string) => void = () => {},
    private readonly gates: JobControllerGates = { jobPodReplacementPolicy: true }) {
    this.loop = new ControllerLoop(sim, client, "job", { observe: (e, pod, before) => this.onPod(e, pod, before), sync: (key) => this.syncJob(key) });
  }

  start(): void {
    this.loop.start();
  }

  add(job: Job): void {
    const key = `${job.namespace}/${job.name}`;
    this.jobs.set(key, {
      job, succeeded: new Set(), failed: new Set(), failuresAfterLastSuccess: 0, lastFailureMs: 0, created: 0, finished: null,
      expectAdd: 0, expectDel: 0, expectSinceMs: 0, deletedByController: new Set(),
    });
    this.sim.emit(COMPONENT, "JobAdded", { job: key, parallelism: job.parallelism, completions: job.completions, backoffLimit: job.backoffLimit });
    this.loop.enqueue(key);
  }

  *remove(namespace: string, name: string): Proc<void> {
    const key = `${namespace}/${name}`;
    const st = this.jobs.get(key);
    if (st === undefined) return;
    const pods = this.ownedPods(key);
    this.jobs.delete(key);
    this.sim.emit(COMPONENT, "JobDeleted", { job: key, pods: pods.length });
    for (const p of pods) yield* this.client.deletePod(namespace, p.metadata.name);
  }

  /** onlyReplaceFailedPods: with podReplacementPolicy Failed, a replacement waits for the pod to be Failed. */
  private onlyReplaceFailedPods(job: Job): boolean {
    return this.gates.jobPodReplacementPolicy && job.podReplacementPolicy === "Failed";
  }

  private ownerOf(pod: Pod): string | undefined {
    return controllerKey(pod, "Job", (key) => this.jobs.get(key)?.job.uid);
  }

  private ownedPods(key: string): Pod[] {
    return [...this.loop.pods.values()].filter((p) => this.ownerOf(p) === key);
  }

  private onPod(e: WatchEvent, pod: Pod, before: Pod | undefined): void {
    const owner = this.ownerOf(pod);
    if (owner === undefined) return;
    const st = this.jobs.get(owner)!;
    const seen = observedExpectation(e, pod, before);
    if (seen === "add") st.expectAdd--;
    else if (seen === "del") st.expectDel--;
    const uid = pod.metadata.uid ?? podKey(pod);
    // A pod is counted once (upstream removes its tracking finalizer once counted); a pod this
    // controller deleted itself is not counted (deleteJobPods removes the finalizer first).
    if (st.succeeded.has(uid) || st.failed.has(uid) || st.deletedByController.has(uid)) return this.loop.enqueue(owner);
    if (pod.status?.phase === "Succeeded") {
      st.succeeded.add(uid);
      st.failuresAfterLastSuccess = 0;
    } else if (isPodFailed(pod, this.onlyReplaceFailedPods(st.job))) {
      st.failed.add(uid);
      st.failuresAfterLastSuccess++;
      st.lastFailureMs = this.sim.nowMs;
    }
    this.loop.enqueue(owner);
  }

  private *syncJob(key: string): Proc<void> {
    const st = this.jobs.get(key);
    if (st === undefined || st.finished !== null) return;
    const { job } = st;
    const pods = this.ownedPods(key);
    const active = pods.filter(isPodActive);
    const succeeded = st.succeeded.size;
    const failed = st.failed.size;
    // exceedsBackoffLimit, or pastBackoffLimitOnFailure for restartPolicy OnFailure.
    if (failed > job.backoffLimit || pastBackoffLimitOnFailure(job, pods)) {
      return yield* this.finish(st, "Failed", "BackoffLimitExceeded", "Job has reached the specified backoff limit", active);
    }
    const complete = job.completions === null ? succeeded > 0 && active.length === 0 : succeeded >= job.completions;
    if (complete) return yield* this.finish(st, "Complete", "Completed", "Job completed", active);
    const satisfied = (st.expectAdd <= 0 && st.expectDel <= 0) || this.sim.nowMs - st.expectSinceMs > EXPECTATIONS_TIMEOUT_MS;
    if (!satisfied) return;
    // IsPodTerminating: being deleted and not terminal; counted only when onlyReplaceFailedPods.
    const terminating = this.onlyReplaceFailedPods(job) ? pods.filter(isPodTerminating).length : 0;
    yield* this.manageJob(st, active, succeeded, terminating);
  }

  /** manageJob: delete above parallelism or what is still wanted; create what is missing, after the failure backoff. */
  private *manageJob(st: JobState, active: Pod[], succeeded: number, terminating: number): Proc<void> {
    const { job } = st;
    const key = `${job.namespace}/${job.name}`;
    let wantActive: number;
    if (job.completions === null) wantActive = succeeded > 0 ? active.length : job.parallelism;
    else wantActive = Math.max(0, Math.min(job.completions - succeeded, job.parallelism));
    const rmAtLeast = active.length - wantActive;
    if (rmAtLeast > 0) {
      const victims = [...active].sort(activePodsWithRanksLess(active)).slice(0, Math.min(rmAtLeast, MAX_POD_CREATE_DELETE_PER_SYNC));
      st.expectDel = victims.length;
      st.expectSinceMs = this.sim.nowMs;
      for (const p of victims) {
        st.deletedByController.add(p.metadata.uid ?? podKey(p));
        const r = yield* this.client.deletePod(job.namespace, p.metadata.name);
        if (r.err !== null) st.expectDel--;
      }
      return;
    }
    const diff = Math.min(wantActive - terminating - active.length, MAX_POD_CREATE_DELETE_PER_SYNC);
    if (diff <= 0) return;
    const remainingMs = this.backoffRemainingMs(st);
    if (remainingMs > 0) {
      this.sim.emit(COMPONENT, "PodFailureBackoff", { job: key, failures: st.failuresAfterLastSuccess, remainingMs });
      this.sim.go(`job/requeue/${key}`, function* (this: JobController) {
        yield* sleep(remainingMs, "job pod failure backoff");
        this.loop.enqueue(key);
      }.bind(this), { daemon: true });
      return;
    }
    st.expectAdd = diff;
    st.expectSinceMs = this.sim.nowMs;
    this.sim.emit(COMPONENT, "CreatingPods", { job: key, active: active.length, succeeded, failed: st.failed.size, creating: diff });
    const ok = yield* slowStartBatch(this.sim, "job", diff, () => this.createPod(st));
    st.expectAdd -= diff - ok;
  }

  /** backoffRecord.getRemainingTime: 10 s x 2^(failures-1) since the last failure, at most 10 min. */
  private backoffRemainingMs(st: JobState): number {
    if (st.failuresAfterLastSuccess === 0) return 0;
    const backoffMs = Math.min(DEFAULT_JOB_POD_FAILURE_BACKOFF_MS * 2 ** (st.failuresAfterLastSuccess - 1), MAX_JOB_POD_FAILURE_BACKOFF_MS);
    return Math.max(0, st.lastFailureMs + backoffMs - this.sim.nowMs);
  }

  private *finish(st: JobState, outcome: "Complete" | "Failed", reason: string, message: string, active: Pod[]): Proc<void> {
    st.finished = outcome;
    const key = `${st.job.namespace}/${st.job.name}`;
    this.sim.emit(COMPONENT, outcome === "Complete" ? "JobComplete" : "JobFailed", {
      job: key, reason, message, succeeded: st.succeeded.size, failed: st.failed.size, deletingActive: active.length,
    });
    // A finished Job's remaining pods are deleted.
    for (const p of active) st.deletedByController.add(p.metadata.uid ?? podKey(p));
    for (const p of active) yield* this.client.deletePod(st.job.namespace, p.metadata.name);
  }

  private *createPod(st: JobState): Proc<boolean> {
    const { job } = st;
    const key = `${job.namespace}/${job.name}`;
    const n = st.created++;
    const name = n === 0 ? job.firstName : generateName(`${job.name}-`, `${key}#${n}`);
    const t = job.template;
    this.beforeCreate(`${job.namespace}/${job.firstName}`, `${job.namespace}/${name}`);
    const r = yield* this.client.createPod({ ...t, metadata: { ...t.metadata, name }, spec: { ...t.spec } });
    if (r.err === null) return true;
    this.sim.emit(COMPONENT, "Event", { pod: `${job.namespace}/${name}`, type: "Warning", reason: "FailedCreate", message: `Error creating: ${r.err.message}` });
    return false;
  }
}

/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, the running and pending pods' restarts reach the limit. */
export function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[]): boolean {
  if (job.template.spec.restartPolicy !== "OnFailure") return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== "Running" && p.status?.phase !== "Pending") continue;
    for (const s of [...(p.status.initContainerStatuses ?? []), ...(p.status.containerStatuses ?? [])]) restarts += s.restartCount ?? 0;
  }
  return job.backoffLimit === 0 ? restarts > 0 : restarts >= job.backoffLimit;
}

/**
 * isPodFailed: Failed; or, unless onlyReplaceFailedPods, being deleted and not Succeeded ("Count
 * deleted Pods as failures to account for orphan Pods that never have a chance to reach the Failed
 * phase"), which is also what lets the replacement of a deleted pod be made before it stopped.
 */
export function isPodFailed(p: Pod, onlyReplaceFailedPods: boolean): boolean {
  if (p.status?.phase === "Failed") return true;
  if (onlyReplaceFailedPods) return false;
  return p.metadata.deletionTimestamp != null && p.status?.phase !== "Succeeded";
}

/** IsPodTerminating (controller_utils.go): not terminal and being deleted. */
export function isPodTerminating(p: Pod): boolean {
  return p.metadata.deletionTimestamp != null && p.status?.phase !== "Failed" && p.status?.phase !== "Succeeded";
}
