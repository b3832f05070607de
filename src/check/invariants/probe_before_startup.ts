// Invariant probe-before-startup-success: a container that has a startup probe gets no liveness or
// readiness probe run before its own startup probe (the same container ID) succeeded. Source: the
// startup probe contract ("all other probes are disabled until it succeeds"; prober/worker.go:
// "Disable other probes until container has started"); race R17 (#141155, fixed by PR #141342):
// from 1.35 a container restarted by its liveness probe inherited its predecessor's Started=true
// by name, and its liveness probe ran while it was still booting.
//
// A container that was already running when the kubelet (re)started is exempt: 1.35 keeps Started
// over a kubelet restart by design (KEP-4781), and the startup result of that container may have
// come from the previous kubelet process, which this monitor saw (results are kept for the run).
// Read from the prober's records (ProbeRun, ProbeResult, ResultSet) and the runtime's (the CRI
// StartContainer that succeeded); the prober writes container IDs as "containerd://c-3", the
// runtime as "c-3".
import type { TraceRecord } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { podSpecsByRuntimeKey, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "probe-before-startup-success";
const GATED = new Set(["liveness", "readiness"]);

/** "containerd://c-3" → "c-3"; a bare ID stays as it is. */
export function bareContainerID(id: string): string {
  const i = id.indexOf("://");
  return i < 0 ? id : id.slice(i + 3);
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  KubeletStart: [],
  StartContainer: ["result", "id"],
  ResultSet: ["probeType", "result", "containerID"],
  ProbeResult: ["probeType", "result", "containerID"],
  ProbeRun: ["probeType", "containerID", "pod", "container"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** Container IDs (bare) whose startup probe reached Success. */
  private readonly startedOk = new Set<string>();
  /** Container ID (bare) → when it started. */
  private readonly startedAtMs = new Map<string, number>();
  private kubeletStartMs = 0;
  /** One report per container. */
  private readonly reported = new Set<string>();

  constructor(private readonly specs: Map<string, Pod>) {}

  observe(rec: TraceRecord): Violation | null {
    if (rec.component === "kubelet" && rec.kind === "KubeletStart") this.kubeletStartMs = rec.t;
    else if (rec.component === "runtime" && rec.kind === "StartContainer" && rec.result === "ok" && typeof rec.id === "string") this.startedAtMs.set(rec.id, rec.t);
    else if (isStartupSuccess(rec)) this.startedOk.add(bareContainerID(String(rec.containerID)));
    else if (rec.component === "prober" && rec.kind === "ProbeRun" && GATED.has(String(rec.probeType))) return this.check(rec);
    return null;
  }

  private check(rec: TraceRecord): Violation | null {
    const id = bareContainerID(String(rec.containerID));
    if (this.startedOk.has(id) || this.reported.has(id)) return null;
    if (!hasStartupProbe(this.specs.get(String(rec.pod)), String(rec.container))) return null;
    const started = this.startedAtMs.get(id);
    // Running before this kubelet started: its Started was kept over the restart (KEP-4781).
    if (started === undefined || started < this.kubeletStartMs) return null;
    this.reported.add(id);
    return {
      invariant: ID,
      t: rec.t,
      pod: String(rec.pod),
      message:
        `${String(rec.probeType)} probe of container ${String(rec.container)} (${id}, started at ${started}ms) ran at ${rec.t}ms, ` +
        "before its startup probe had succeeded",
    };
  }
}

/**
 * A startup Success: the probe's own result (startup probes succeed at the first success) or a
 * result set without a probe (the 1.35.4 seeding of a started sidecar after a kubelet restart).
 */
function isStartupSuccess(rec: TraceRecord): boolean {
  return rec.component === "prober" && (rec.kind === "ResultSet" || rec.kind === "ProbeResult") && rec.probeType === "startup" && rec.result === "Success";
}

function hasStartupProbe(pod: Pod | undefined, name: string): boolean {
  if (pod === undefined) return false;
  return [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].some((c) => c.name === name && c.startupProbe !== undefined);
}

export const probeBeforeStartupSuccess: InvariantInfo = {
  id: ID,
  statement:
    "A container with a startup probe gets no liveness or readiness probe before its own startup probe (same container ID) succeeded, unless it was already running when the kubelet started.",
  source: "pkg/kubelet/prober/worker.go (\"Disable other probes until container has started\"); race R17 (#141155, PR #141342)",
  make: (scenario: Scenario) => new Monitor(podSpecsByRuntimeKey(scenario)),
};
