// Invariant ready-before-readiness-success: the apiserver shows a container that has a readiness
// probe as ready, before any readiness probe of that same container (container ID) succeeded, for
// no longer than one probe period or the status manager's sync period, whichever is longer, plus
// 2 s (for the status to reach the apiserver); a partition of the kubelet from the apiserver moves
// the deadline past its end, as the API then keeps a stale status. Source: the
// readiness probe contract (prober_manager.go UpdatePodStatus: a probed container is ready when its
// readiness result is Success); race R18 (#141473, fixed by PR #141487): from 1.35 a kubelet
// restart keeps a container Ready when it started before the kubelet and the API's pod is Ready
// (setReadyStateOnKubeletRestart), which a replacement started while the kubelet could not reach
// the apiserver also passes, so it was reported Ready until its own readiness probe first ran.
//
// The period of grace is upstream's own: on a kubelet's first sync of a running pod its probe
// workers do not exist yet (syncPod adds them after generating the status), so UpdatePodStatus
// reports a probed container ready ("no readinessProbe -> always ready") until the worker's first
// pass, at most one period later, records its initial Failure. A container kept Ready over a
// kubelet restart had its Success in the earlier kubelet process, which this monitor saw:
// successes are remembered for the whole run. Regular containers and sidecars are checked.
import type { TraceRecord } from "../../sim/index.ts";
import type { StoredEvent } from "../../apiserver/index.ts";
import type { Container, Pod } from "../../k8s/pod.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";
import { bareContainerID } from "./probe_before_startup.ts";

const ID = "ready-before-readiness-success";
const SLACK_MS = 2_000;

interface Shown {
  pod: string;
  container: string;
  sinceMs: number;
  deadlineMs: number;
  graceMs: number;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = { ResultSet: ["probeType", "result", "containerID"], Partition: ["toMs", "actors"] };

class Monitor implements InvariantMonitor {
  readonly id = ID;
  /** Container IDs (bare) whose readiness probe reached Success. */
  private readonly readyOk = new Set<string>();
  /** Container ID → when the API first showed it ready without a success, and the deadline. */
  private readonly shown = new Map<string, Shown>();
  /** advance judges only these (the dispatch skips it while there are none). */
  readonly deadlines = this.shown;
  private readonly reported = new Set<string>();
  /** When the kubelet's partitions from the apiserver end. */
  private readonly partitionEnds: number[] = [];
  readonly reads = READS;

  constructor(private readonly statusSyncMs: number) {}

  observe(rec: TraceRecord): Violation | null {
    if (rec.component === "prober" && rec.kind === "ResultSet" && rec.probeType === "readiness" && rec.result === "Success") {
      const id = bareContainerID(String(rec.containerID));
      this.readyOk.add(id);
      this.shown.delete(id);
    }
    // The kubelet cannot reach the apiserver: the API keeps what it last wrote, whatever the kubelet
    // now thinks, so every clock waits for the kubelet's next chance to write after the partition.
    if (rec.component === "apiserver" && rec.kind === "Partition" && typeof rec.toMs === "number") {
      const actors = rec.actors;
      if (actors === null || actors === undefined || (Array.isArray(actors) && actors.includes("kubelet"))) this.partitionEnds.push(rec.toMs);
    }
    return this.overdue(rec.t);
  }

  /** Deadlines pass at the first record past them, read or not. */
  advance(nowMs: number): Violation | null {
    return this.overdue(nowMs);
  }

  private overdue(nowMs: number): Violation | null {
    for (const [id, s] of this.shown) {
      const deadlineMs = this.deadlineOf(s);
      if (nowMs <= deadlineMs) continue;
      this.shown.delete(id);
      this.reported.add(id);
      return {
        invariant: ID,
        t: nowMs,
        pod: s.pod,
        message:
          `the apiserver has shown container ${s.container} (${id}) ready since ${s.sinceMs}ms, and still does at ${nowMs}ms, ` +
          `although no readiness probe of that container has succeeded (grace: ${s.graceMs}ms)`,
      };
    }
    return null;
  }

  /** The deadline, moved past every partition of the kubelet that began before it (the next write comes after). */
  private deadlineOf(s: Shown): number {
    let d = s.deadlineMs;
    for (const end of this.partitionEnds) if (end > s.sinceMs) d = Math.max(d, end + s.graceMs);
    return d;
  }

  observeApi(e: StoredEvent, nowMs: number): Violation | null {
    const pod = e.object;
    const key = `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`;
    const readyNow = e.type === "DELETED" ? new Map<string, Container>() : readyProbedContainers(pod);
    // A container shown not ready (or gone) any more ends its clock.
    for (const [id, s] of this.shown) if (s.pod === key && !readyNow.has(id)) this.shown.delete(id);
    for (const [id, spec] of readyNow) {
      if (this.readyOk.has(id) || this.reported.has(id) || this.shown.has(id)) continue;
      const periodMs = (spec.readinessProbe!.periodSeconds ?? 10) * 1000;
      const graceMs = Math.max(periodMs, this.statusSyncMs) + SLACK_MS;
      this.shown.set(id, { pod: key, container: spec.name, sinceMs: nowMs, deadlineMs: nowMs + graceMs, graceMs });
    }
    return null;
  }
}

/** Bare container ID → spec, for the containers (and sidecars) with a readiness probe the object shows ready. */
function readyProbedContainers(pod: Pod): Map<string, Container> {
  const specs = [...pod.spec.containers, ...(pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === "Always")];
  const out = new Map<string, Container>();
  for (const s of [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])]) {
    const spec = specs.find((c) => c.name === s.name);
    if (s.ready === true && spec?.readinessProbe !== undefined && s.containerID) out.set(bareContainerID(s.containerID), spec);
  }
  return out;
}

export const readyBeforeReadinessSuccess: InvariantInfo = {
  id: ID,
  statement:
    "The apiserver shows a container that has a readiness probe as ready, before any readiness probe of that same container succeeded, for no longer than max(probe period, status sync period) + 2 s, counted from when it was first shown so or from the end of a partition of the kubelet from the apiserver, whichever is later.",
  source: "pkg/kubelet/prober/prober_manager.go UpdatePodStatus; race R18 (#141473, PR #141487)",
  make: (scenario) => new Monitor(scenario.kubelet.statusSyncPeriodMs),
};
