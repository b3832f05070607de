// Invariant sidecar-termination-stalled: when the kubelet begins terminating a pod, each of its
// running containers gets its stop signal (CRI StopContainer) within 2 s of the moment every
// container it must wait for has exited: a regular container at once, a sidecar (restartable init
// container) once the regular containers and the later sidecars that were running have exited. A
// container that was not running is waited for by nobody. Containers with a preStop hook are left
// out (the hook runs first and may take any part of the grace period). Source: KEP-753 sidecar
// termination ordering (kuberuntime_termination_order.go, PR #120620); race R23 (issue #125880,
// fixed by PR #125935): from 1.29 until 1.29.8 / 1.30.4 / 1.31.0 a sidecar that never started held
// back every earlier sidecar until the pod's grace period ran out.
//
// The termination begins at the pod worker's first terminating sync (1.22+; sidecars exist from
// 1.28). Running containers come from the runtime's records.
import type { TraceRecord } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { callStartMs, mergeReads, podSpecsByRuntimeKey, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";
import { CALL_CONTAINER_READS, RuntimeContainers } from "./containers.ts";

const ID = "sidecar-termination-stalled";
const EPSILON_MS = 2_000;

interface Awaited {
  pod: string;
  container: string;
  id: string;
  /** Names of the running containers it waits for. */
  waitsFor: Set<string>;
  /** When the last of them exited (the termination's start when there were none). */
  readyAtMs: number;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = mergeReads(CALL_CONTAINER_READS, {
  SyncBegin: ["pod", "mode"],
  Finished: ["pod"],
  Signal: ["pod", "id"],
  StopContainer: ["pod", "id", "tookMs"],
  ContainerExited: ["pod", "id", "container"],
});

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  private readonly containers = new RuntimeContainers("call");
  /** Pod keys whose termination began, so a later terminating sync does not start it over. */
  private readonly begun = new Set<string>();
  /** Container ID → what its stop waits for, until it is signalled or exits. */
  private readonly awaited = new Map<string, Awaited>();
  /** advance judges only these (the dispatch skips it while there are none). */
  readonly deadlines = this.awaited;

  constructor(private readonly specs: Map<string, Pod>) {}

  observe(rec: TraceRecord): Violation | null {
    const late = this.overdue(rec.t);
    this.containers.observe(rec);
    const pod = typeof rec.pod === "string" ? rec.pod : null;
    if (pod !== null) this.track(rec, pod);
    return late;
  }

  /** Deadlines pass at the first record past them, read or not. */
  advance(nowMs: number): Violation | null {
    return this.overdue(nowMs);
  }

  private overdue(nowMs: number): Violation | null {
    // Most of a run awaits no stop (this runs at every record it reads).
    if (this.awaited.size === 0) return null;
    for (const [id, a] of this.awaited) {
      if (a.waitsFor.size > 0 || nowMs <= a.readyAtMs + EPSILON_MS) continue;
      this.awaited.delete(id);
      return {
        invariant: ID,
        t: nowMs,
        pod: a.pod,
        message: `container ${a.container} (${id}) could be stopped from ${a.readyAtMs}ms (every container it waits for had exited or was not running), but had no stop signal by ${nowMs}ms`,
      };
    }
    return null;
  }

  private track(rec: TraceRecord, pod: string): void {
    if (rec.component === "podworker" && rec.kind === "SyncBegin" && rec.mode === "terminating" && !this.begun.has(pod)) this.begin(pod, rec.t);
    else if (rec.component === "podworker" && rec.kind === "Finished") this.begun.delete(pod);
    // The runtime writes Signal when the stop signal reaches the process, and StopContainer when the call returns.
    else if (rec.component === "runtime" && rec.kind === "Signal" && typeof rec.id === "string") this.signalled(rec.id, rec.t);
    else if (rec.component === "runtime" && rec.kind === "StopContainer" && typeof rec.id === "string") this.signalled(rec.id, callStartMs(rec));
    else if (rec.component === "runtime" && rec.kind === "ContainerExited" && typeof rec.id === "string") this.exited(pod, rec.id, String(rec.container), rec.t);
  }

  private begin(pod: string, atMs: number): void {
    const spec = this.specs.get(pod);
    if (spec === undefined) return;
    this.begun.add(pod);
    const running = this.containers.runningOf(pod);
    const names = new Set(running.map((c) => c.container));
    const regular = spec.spec.containers.map((c) => c.name).filter((n) => names.has(n));
    const inits = spec.spec.initContainers ?? [];
    for (const c of running) {
      const def = [...spec.spec.containers, ...inits].find((x) => x.name === c.container);
      if (def === undefined || def.lifecycle?.preStop !== undefined) continue;
      const i = inits.findIndex((x) => x.name === c.container && x.restartPolicy === "Always");
      const later = i < 0 ? [] : inits.slice(i + 1).filter((x) => x.restartPolicy === "Always" && names.has(x.name)).map((x) => x.name);
      const waitsFor = new Set(i < 0 ? [] : [...regular, ...later]);
      this.awaited.set(c.id, { pod, container: c.container, id: c.id, waitsFor, readyAtMs: atMs });
    }
  }

  private signalled(id: string, atMs: number): void {
    const a = this.awaited.get(id);
    // A stop that came in time settles it; a late one is reported by the deadline check first.
    if (a !== undefined && (a.waitsFor.size > 0 || atMs <= a.readyAtMs + EPSILON_MS)) this.awaited.delete(id);
  }

  private exited(pod: string, id: string, name: string, atMs: number): void {
    this.awaited.delete(id);
    for (const a of this.awaited.values()) {
      if (a.pod !== pod || !a.waitsFor.delete(name)) continue;
      if (a.waitsFor.size === 0) a.readyAtMs = Math.max(a.readyAtMs, atMs);
    }
  }
}

export const sidecarTerminationStalled: InvariantInfo = {
  id: ID,
  statement:
    "When a pod terminates, each running container gets StopContainer within 2 s of the moment every container it waits for has exited (regular containers wait for none; a sidecar waits for the regular containers and the later sidecars that were running); containers with a preStop hook excepted.",
  source: "KEP-753, pkg/kubelet/kuberuntime/kuberuntime_termination_order.go; race R23 (#125880, PR #125935)",
  make: (scenario: Scenario) => new Monitor(podSpecsByRuntimeKey(scenario)),
};
