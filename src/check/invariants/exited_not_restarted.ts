// Invariant exited-container-not-restarted: once the PLEG reports that a regular container died and
// the pod's restart policy restarts it (Always; OnFailure after a non-zero exit), a later
// computePodActions for the pod takes it up: it lists it in ContainersToStart (back-off may still
// delay the start itself), recreates the sandbox, kills the pod, or starts an init container
// first. The bound is 1.5 x syncFrequency + 2 relist periods (the periodic resync), plus the longest
// startup-probe budget of the pod's sidecars (initialDelay + period x failureThreshold), since a pod
// whose regular containers all exited waits for its sidecars to start before it restarts them.
// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions and
// container/helpers.go ShouldContainerBeRestarted; the design rule "a decision must not wait on a
// probe result that can never be produced"; race R19 (PR #137146, 1.35.4): after a kubelet restart
// a sidecar's startup result was never produced, computeInitContainerActions waited for it, and a
// crashed app container was never restarted.
//
// Not owed: a pod whose termination the kubelet has observed (a deleted pod's containers are not
// restarted), a container a newer instance of which has started, and the time the kubelet is down.
import type { TraceRecord } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { podSpecsByRuntimeKey, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "exited-container-not-restarted";

interface Dead {
  pod: string;
  container: string;
  id: string;
  diedAtMs: number;
  deadlineMs: number;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  PodView: ["pod", "uid"],
  StartContainer: ["pod", "result", "id", "container", "type"],
  ContainerDied: ["pod", "containerID", "exitCode"],
  computePodActions: ["pod", "actions"],
  TerminationRequested: ["pod"],
  UpdatePod: ["pod", "updateType"],
  SyncLoopDELETE: ["pod", "pods"],
  SyncLoopREMOVE: ["pod", "pods"],
  KubeletStart: ["pod"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** Container ID → its pod key and name, from the runtime's successful StartContainer calls. */
  private readonly names = new Map<string, { pod: string; container: string }>();
  /** "pod|container" → a death no sync has taken up yet. */
  private readonly dead = new Map<string, Dead>();
  /** advance judges only these (the dispatch skips it while there are none). */
  readonly deadlines = this.dead;
  /** "pod|container" → the ID of its newest instance. */
  private readonly newest = new Map<string, string>();
  /** Pod keys whose termination the kubelet observed (cleared by a new UID). */
  private readonly terminating = new Set<string>();
  private readonly uids = new Map<string, string>();
  /** The computePodActions of the SyncPod in progress, per pod key. */
  private readonly actions = new Map<string, string>();

  constructor(
    private readonly specs: Map<string, Pod>,
    private readonly baseBoundMs: number,
  ) {}

  observe(rec: TraceRecord): Violation | null {
    const late = this.overdue(rec.t);
    const pod = typeof rec.pod === "string" ? rec.pod : null;
    if (pod !== null) this.track(rec, pod);
    // Before 1.22 there is no termination state: the kubelet learning of the deletion is the request.
    if (rec.component === "kubelet" && (rec.kind === "SyncLoopDELETE" || rec.kind === "SyncLoopREMOVE") && Array.isArray(rec.pods)) {
      for (const p of rec.pods as string[]) this.terminate(p);
    }
    if (rec.component === "kubelet" && rec.kind === "KubeletStart") {
      // The kubelet was down: every clock starts again.
      for (const d of this.dead.values()) d.deadlineMs = rec.t + (d.deadlineMs - d.diedAtMs);
    }
    return late;
  }

  /** Deadlines pass at the first record past them, read or not. */
  advance(nowMs: number): Violation | null {
    return this.overdue(nowMs);
  }

  private overdue(nowMs: number): Violation | null {
    // Most of a run owes no restart: nothing to iterate (this runs at every record it reads).
    if (this.dead.size === 0) return null;
    for (const [key, d] of this.dead) {
      if (nowMs <= d.deadlineMs) continue;
      this.dead.delete(key);
      return {
        invariant: ID,
        t: nowMs,
        pod: d.pod,
        message: `container ${d.container} (${d.id}) died at ${d.diedAtMs}ms and its restart policy restarts it, but by ${nowMs}ms no sync of the pod had taken it up (not in ContainersToStart)`,
      };
    }
    return null;
  }

  private track(rec: TraceRecord, pod: string): void {
    if (rec.component === "apiserver" && rec.kind === "PodView" && typeof rec.uid === "string") {
      if (this.uids.get(pod) !== rec.uid) this.terminating.delete(pod);
      this.uids.set(pod, rec.uid);
    } else if (rec.component === "runtime" && rec.kind === "StartContainer" && rec.result === "ok" && typeof rec.id === "string") {
      this.names.set(String(rec.id), { pod, container: String(rec.container) });
      this.newest.set(`${pod}|${String(rec.container)}`, String(rec.id));
      this.dead.delete(`${pod}|${String(rec.container)}`);
    } else if (rec.component === "pleg" && rec.kind === "ContainerDied") this.died(rec, pod);
    else if (rec.component === "kuberuntime") this.kuberuntime(rec, pod);
    else if (isTerminationObserved(rec)) this.terminate(pod);
  }

  private terminate(pod: string): void {
    this.terminating.add(pod);
    for (const [key, d] of this.dead) if (d.pod === pod) this.dead.delete(key);
  }

  private died(rec: TraceRecord, pod: string): void {
    const who = this.names.get(String(rec.containerID));
    const spec = this.specs.get(pod);
    if (who === undefined || spec === undefined || this.terminating.has(pod)) return;
    // A kill and restart in one SyncPod: the PLEG reports the old instance dead after the new one started.
    if (this.newest.get(`${pod}|${who.container}`) !== String(rec.containerID)) return;
    if (!spec.spec.containers.some((c) => c.name === who.container)) return;
    const policy = spec.spec.restartPolicy ?? "Always";
    const exitCode = typeof rec.exitCode === "number" ? rec.exitCode : 0;
    if (policy === "Never" || (policy === "OnFailure" && exitCode === 0)) return;
    const boundMs = this.baseBoundMs + sidecarStartupBudgetMs(spec);
    this.dead.set(`${pod}|${who.container}`, { pod, container: who.container, id: String(rec.containerID), diedAtMs: rec.t, deadlineMs: rec.t + boundMs });
  }

  private kuberuntime(rec: TraceRecord, pod: string): void {
    if (rec.kind === "computePodActions") {
      this.actions.set(pod, String(rec.actions));
      // What follows only takes deaths up: with none owed, parsing the actions would change nothing.
      if (this.dead.size === 0) return;
      const a = String(rec.actions);
      if (/KillPod: true|CreateSandbox: true/.test(a)) this.takeUpAll(pod);
      const spec = this.specs.get(pod);
      for (const i of listOf(a, "ContainersToStart")) {
        const name = spec?.spec.containers[i]?.name;
        if (name !== undefined) this.dead.delete(`${pod}|${name}`);
      }
    } else if (rec.kind === "StartContainer" && String(rec.type).includes("init")) {
      // The pod (re)initializes first; its containers follow once initialization is done.
      this.takeUpAll(pod);
    }
  }

  private takeUpAll(pod: string): void {
    if (this.dead.size === 0) return;
    for (const [key, d] of this.dead) if (d.pod === pod) this.dead.delete(key);
  }
}

/** The kubelet has observed the pod's termination (the same notion as probe-after-termination-requested). */
function isTerminationObserved(rec: TraceRecord): boolean {
  if (rec.component === "podworker") return rec.kind === "TerminationRequested" || (rec.kind === "UpdatePod" && rec.updateType === "kill");
  return false;
}

/** "ContainersToStart: [0 2]" → [0, 2]. */
function listOf(actions: string, field: string): number[] {
  const m = listPattern(field).exec(actions);
  if (m === null || m[1]!.trim() === "") return [];
  return m[1]!.trim().split(/\s+/).map(Number);
}

/** The pattern of a list field of computePodActions' text, compiled once per field. */
function listPattern(field: string): RegExp {
  let re = listPatterns.get(field);
  if (re === undefined) listPatterns.set(field, (re = new RegExp(`(?:^|, )${field}: \\[([^\\]]*)\\]`)));
  return re;
}

const listPatterns = new Map<string, RegExp>();

/** The longest a sidecar's startup probe may take to succeed (initialDelay + period x failureThreshold). */
function sidecarStartupBudgetMs(pod: Pod): number {
  let max = 0;
  for (const c of pod.spec.initContainers ?? []) {
    const p = c.restartPolicy === "Always" ? c.startupProbe : undefined;
    if (p === undefined) continue;
    max = Math.max(max, ((p.initialDelaySeconds ?? 0) + (p.periodSeconds ?? 10) * (p.failureThreshold ?? 3)) * 1000);
  }
  return max;
}

export const exitedContainerNotRestarted: InvariantInfo = {
  id: ID,
  statement:
    "Once the PLEG reports a regular container dead and the restart policy restarts it, a sync of the pod takes it up (ContainersToStart, a new sandbox, a pod kill, or an init container first) within 1.5 x syncFrequency + 2 relist periods + the sidecars' startup-probe budget, unless the pod is terminating.",
  source: "pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions; race R19 (PR #137146)",
  make: (scenario: Scenario) =>
    new Monitor(podSpecsByRuntimeKey(scenario), Math.floor(1.5 * scenario.kubelet.syncFrequencyMs) + 2 * scenario.kubelet.plegRelistPeriodMs),
};
