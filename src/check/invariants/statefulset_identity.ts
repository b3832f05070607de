// Invariant statefulset-identity-at-most-once: a StatefulSet's identity <set>-<ordinal> runs as at
// most one pod in the whole cluster. Source: the StatefulSet docs' "at most one" semantics
// ("StatefulSet Pods: Force Delete StatefulSet Pods": "StatefulSet ensures that, at any time, there
// is at most one Pod with a given identity running in a cluster"), which the controller keeps by
// waiting for the old pod's deletion (stateful_set_control.go, "waiting for Pod to be deleted") and
// which a force delete bypasses; KEP-2268 (non-graceful node shutdown) is the safe procedure.
// Race R26.
//
// "Running" is what the runtimes say: a container of the identity started (the CRI StartContainer
// that succeeded) and not exited. Two pods of one identity run at once when a container of it
// starts on one node while one of it still runs on another node, or on the same node under another
// API UID. A pod that is Terminating but whose containers have stopped is not running.
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { RuntimeContainers } from "./runtime_containers.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";
import { getOrdinal } from "../../controllers/statefulset.ts";

const ID = "statefulset-identity-at-most-once";

interface Running {
  node: string;
  uid: string;
  container: string;
  startedAtMs: number;
}

/** The StatefulSets of a scenario, as "namespace/name" (the owner of a workload entry's pod). */
export function statefulSetsOf(scenario: Scenario): string[] {
  const out: string[] = [];
  for (const p of scenario.pods) {
    const ref = p.manifest.metadata.ownerReferences?.find((r) => r.controller === true);
    if (ref?.kind === "StatefulSet") out.push(`${p.namespace}/${ref.name}`);
  }
  return out;
}

/** The StatefulSet whose identity the pod key is, if any. */
function setOf(sets: readonly string[], pod: string): string | undefined {
  const slash = pod.indexOf("/");
  const ns = pod.slice(0, slash);
  const name = pod.slice(slash + 1);
  return sets.find((s) => s.startsWith(`${ns}/`) && getOrdinal(s.slice(ns.length + 1), name) >= 0);
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts); one object for every run, so the dispatch table compiled from it is kept. */
const READS: RecordReads = {
  PodView: ["pod", "deleted", "uid"],
  StartContainer: ["pod", "id", "result", "container", "node"],
  ContainerExited: ["pod", "id", "node"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads: RecordReads = READS;
  private readonly uidByPod = new Map<string, string>();
  /** The identities' running containers, each with its pod's UID when it started. */
  private readonly containers = new RuntimeContainers<Running & { pod: string; id: string }>();

  constructor(private readonly sets: readonly string[]) {}

  observe(rec: TraceRecord): Violation | null {
    if (this.sets.length === 0 || typeof rec.pod !== "string") return null;
    if (rec.kind === "PodView") {
      if (rec.deleted !== true && typeof rec.uid === "string") this.uidByPod.set(rec.pod, rec.uid);
      return null;
    }
    const started = this.containers.follow(rec);
    if (started === null || setOf(this.sets, started.pod) === undefined) return null;
    const c = { ...started, uid: this.uidByPod.get(started.pod) ?? "" };
    const others = [...this.containers.running.values()].filter((o) => o.pod === c.pod && (o.node !== c.node || (o.uid !== "" && c.uid !== "" && o.uid !== c.uid)));
    this.containers.keep(c);
    if (others.length === 0) return null;
    const where = (r: Running) => `${r.node === "" ? "" : `on ${r.node} `}(uid ${r.uid || "?"})`;
    return {
      invariant: ID,
      t: rec.t,
      pod: c.pod,
      message: `container ${c.container} started ${where(c)} while its container ${others.map((o) => `${o.container} ${where(o)}, started at ${o.startedAtMs}ms,`).join(" and ")} still ran: the identity runs twice`,
    };
  }
}

export const statefulSetIdentityAtMostOnce: InvariantInfo = {
  id: ID,
  statement: "A StatefulSet's identity (<set>-<ordinal>) runs as at most one pod in the cluster: no container of it starts while a container of another pod of that identity (on another node, or of another UID) still runs.",
  source: "StatefulSet docs, Force Delete StatefulSet Pods (\"at most one Pod with a given identity\"); pkg/controller/statefulset/stateful_set_control.go; KEP-2268; race R26",
  make: (scenario) => new Monitor(statefulSetsOf(scenario)),
};
