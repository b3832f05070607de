// A hand-written trace of one pod's life, shaped as the composition root writes it: created, image
// pulled, started, Running and Ready, deleted with a 30s grace period, Terminating, gone.
import type { TraceRecord } from "../../src/report/index.ts";

export type Entry = readonly [t: number, component: string, kind: string, fields?: Readonly<Record<string, unknown>>];

/** Numbers the entries (seq) and builds records with keys in canonical order. */
export function trace(entries: readonly Entry[]): TraceRecord[] {
  return entries.map(([t, component, kind, fields], seq) => ({ t, seq, component, kind, ...fields }));
}

const pod = "default/web";
const uid = "uid-web-1";
const app = { pod, uid, object: "spec.containers{app}", type: "Normal" };

export const lifecycle: TraceRecord[] = trace([
  [0, "sim", "run", { scenario: "web-lifecycle", seed: 7, strategy: "fifo", version: "0.1.0" }],
  [0, "apiserver", "Create", { actor: "user", pod, result: "ok" }],
  [0, "apiserver", "PodView", { pod, uid, ready: "0/1", status: "Pending", restarts: "0", phase: "Pending" }],
  [5, "apiserver", "WatchEvent", { watch: 1, actor: "kubelet", type: "ADDED", pod, uid, resourceVersion: "2" }],
  [5, "config", "ADD", { pod, uid, source: "api" }],
  [6, "podworker", "UpdatePod", { pod, uid, updateType: "create" }],
  [6, "podworker", "SyncBegin", { pod, uid, mode: "sync", statusTimeMs: null }],
  [7, "cache", "Get", { pod, uid }],
  [10, "kuberuntime", "SyncPod", { pod, uid }],
  [110, "runtime", "RunPodSandbox", { pod, id: "sb-1", tookMs: 100, result: "ok" }],
  [120, "kuberuntime", "Event", { ...app, reason: "Pulling", message: 'Pulling image "nginx:1.25"' }],
  [2120, "runtime", "PullImage", { image: "nginx:1.25", tookMs: 2000, result: "ok" }],
  [2120, "kuberuntime", "Event", { ...app, reason: "Pulled", message: 'Successfully pulled image "nginx:1.25" in 2s (2s including waiting)' }],
  [2130, "runtime", "CreateContainer", { pod, container: "app", id: "c-1", tookMs: 10, result: "ok" }],
  [2130, "kuberuntime", "Event", { ...app, reason: "Created", message: "Created container app" }],
  [2140, "runtime", "StartContainer", { pod, container: "app", id: "c-1", tookMs: 10, result: "ok" }],
  [2140, "kuberuntime", "Event", { ...app, reason: "Started", message: "Started container app" }],
  [2150, "podworker", "SyncEnd", { pod, uid, mode: "sync", err: null }],
  [2200, "status", "PatchStatus", { pod, uid, version: 1, phase: "Pending", result: "patched" }],
  [2200, "apiserver", "PodView", { pod, uid, ready: "0/1", status: "ContainerCreating", restarts: "0", phase: "Pending" }],
  [3000, "pleg", "ContainerStarted", { pod, uid, containerID: "c-1" }],
  [3000, "pleg", "relist", { durationMs: 0, pods: 1, events: 1 }],
  [4000, "pleg", "relist", { durationMs: 0, pods: 1, events: 0 }],
  [4000, "prober", "ProbeResult", { pod, uid, container: "app", containerID: "c-1", probeType: "readiness", result: "Success", answer: "success", output: "" }],
  [4010, "status", "PatchStatus", { pod, uid, version: 2, phase: "Running", result: "patched" }],
  [4010, "apiserver", "PodView", { pod, uid, ready: "1/1", status: "Running", restarts: "0", phase: "Running" }],
  [5000, "prober", "ProbeResult", { pod, uid, container: "app", containerID: "c-1", probeType: "readiness", result: "Success", answer: "success", output: "" }],
  [5010, "apiserver", "PodView", { pod, uid, ready: "1/1", status: "Running", restarts: "0", phase: "Running" }],
  [60000, "apiserver", "Delete", { actor: "user", pod, gracePeriodSeconds: 30, result: "ok" }],
  [60000, "apiserver", "PodView", { pod, uid, ready: "1/1", status: "Terminating", restarts: "0", phase: "Running" }],
  [60005, "apiserver", "WatchEvent", { watch: 1, actor: "kubelet", type: "MODIFIED", pod, uid, resourceVersion: "5" }],
  [60005, "config", "DELETE", { pod, uid, source: "api" }],
  [60006, "podworker", "UpdatePod", { pod, uid, updateType: "kill" }],
  [60006, "podworker", "TerminationRequested", { pod, uid, why: "deleted" }],
  [60006, "podworker", "SyncBegin", { pod, uid, mode: "terminating", statusTimeMs: 4000 }],
  [60010, "kuberuntime", "Event", { ...app, reason: "Killing", message: "Stopping container app" }],
  [61500, "runtime", "ContainerExited", { pod, container: "app", id: "c-1", exitCode: 0, reason: "Completed" }],
  [61510, "runtime", "StopContainer", { pod, container: "app", id: "c-1", tookMs: 1500, result: "ok" }],
  [61520, "podworker", "SyncEnd", { pod, uid, mode: "terminating", err: null }],
  [62000, "pleg", "ContainerDied", { pod, uid, containerID: "c-1", exitCode: 0 }],
  [62010, "status", "PatchStatus", { pod, uid, version: 3, phase: "Running", result: "patched" }],
  [62010, "apiserver", "PodView", { pod, uid, ready: "0/1", status: "Terminating", restarts: "0", phase: "Running" }],
  [62020, "status", "DeletePod", { pod, uid, version: 3, phase: "Running", gracePeriodSeconds: 0, result: "deleted" }],
  [62020, "apiserver", "PodView", { pod, uid, ready: "0/1", status: "Terminating", restarts: "0", phase: "Running", deleted: true }],
  [120000, "sim", "end", { verdict: "pass", events: 44, endMs: 120000, traceHash: "0123456789abcdef" }],
]);
