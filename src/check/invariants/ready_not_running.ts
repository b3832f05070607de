// Invariant ready-while-container-not-running: the apiserver never shows a pod Ready=True while
// the same object shows one of its regular containers not running. It reads the API objects the
// Checker receives (PodView records do not carry conditions). Comparing against the runtime instead
// would fire on every crash, in the second before PLEG and the status manager catch up; the API
// object itself must agree with itself. Source: pkg/kubelet/status/generate.go
// (GeneratePodReadyCondition from ContainersReady; a container is ready only while running);
// race R12 (#108594, a pod left Ready while evicted or terminal).
import type { StoredEvent } from "../../apiserver/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";

const ID = "ready-while-container-not-running";

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** "pod|uid" pairs already reported, so one bad status counts once. */
  private readonly reported = new Set<string>();

  observe(): Violation | null {
    return null;
  }

  observeApi(e: StoredEvent, nowMs: number): Violation | null {
    const pod = e.object;
    const ready = pod.status?.conditions?.find((c) => c.type === "Ready")?.status === "True";
    if (!ready) return null;
    const notRunning = notRunningContainers(pod);
    if (notRunning.length === 0) return null;
    const key = `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`;
    const once = `${key}|${pod.metadata.uid ?? ""}`;
    if (this.reported.has(once)) return null;
    this.reported.add(once);
    return {
      invariant: ID,
      t: nowMs,
      pod: key,
      message: `the apiserver shows Ready=True (phase ${pod.status?.phase ?? "Pending"}) while container(s) ${notRunning.join(", ")} are not running`,
    };
  }
}

/** Regular containers whose status in the object is missing or not running, as "name (state)". */
export function notRunningContainers(pod: Pod): string[] {
  const statuses = pod.status?.containerStatuses ?? [];
  const out: string[] = [];
  for (const c of pod.spec.containers) {
    const s = statuses.find((x) => x.name === c.name);
    if (s?.state?.running !== undefined) continue;
    const state = s === undefined ? "no status" : s.state?.terminated !== undefined ? "terminated" : "waiting";
    out.push(`${c.name} (${state})`);
  }
  return out;
}

export const readyWhileContainerNotRunning: InvariantInfo = {
  id: ID,
  statement: "The apiserver never shows a pod Ready=True while the same object shows one of its regular containers not running.",
  source: "pkg/kubelet/status/generate.go (GeneratePodReadyCondition, GenerateContainersReadyCondition); race R12",
  make: () => new Monitor(),
};
