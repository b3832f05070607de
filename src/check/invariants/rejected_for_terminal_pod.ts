// Invariant rejected-for-resources-of-terminal-pod: the kubelet never rejects a pod for lack of a
// resource (OutOfcpu, OutOfmemory, OutOfpods) that the pods still active in the apiserver leave
// free. The scheduler's node accounting drops pods whose phase is Succeeded or Failed and binds
// other pods into their room at once; a kubelet that still counts such a pod as active rejects a
// pod the scheduler placed correctly, and the rejection is final (phase Failed). Source:
// pkg/kubelet/lifecycle/predicate.go (the predicate admit handler, "OutOf<resource>") against
// kubelet_pods.go filterOutInactivePods; issues #106884, #104560 and #108733; fixed by PR #108366
// (1.24; cherry-picks #108723 to 1.23.6, #108749 to 1.22.9), which holds the terminal phase back
// until the pod worker has terminated the pod; race R11. It reads the apiserver's phases from the
// PodView records and each pod's requests from the scenario (every pod of a scenario is bound to
// its one node).
import type { Pod } from "../../k8s/pod.ts";
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { canAdmitPod, type AdmitContext } from "../../kubelet/lifecycle/admission.ts";
import { nodeOf } from "../../scenario/resolve_node.ts";
import { podSpecsByRuntimeKey, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "rejected-for-resources-of-terminal-pod";

const isTerminal = (phase: string) => phase === "Succeeded" || phase === "Failed";

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = { PodView: ["pod", "deleted", "phase"], RejectPod: ["pod", "reason"] };

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** Pod key → its phase in the apiserver and when the view showed it, for pods that exist. */
  private readonly phases = new Map<string, { phase: string; atMs: number }>();

  constructor(
    private readonly admit: AdmitContext,
    private readonly specs: ReadonlyMap<string, Pod>,
  ) {}

  observe(rec: TraceRecord): Violation | null {
    if (typeof rec.pod !== "string") return null;
    if (rec.component === "apiserver" && rec.kind === "PodView") {
      if (rec.deleted === true) this.phases.delete(rec.pod);
      else if (this.phases.get(rec.pod)?.phase !== rec.phase) this.phases.set(rec.pod, { phase: String(rec.phase), atMs: rec.t });
      return null;
    }
    if (rec.component !== "kubelet" || rec.kind !== "RejectPod" || !/^OutOf/.test(String(rec.reason))) return null;
    const pod = this.specs.get(rec.pod);
    if (pod === undefined) return null;
    const others = [...this.phases.entries()].filter(([key]) => key !== rec.pod);
    // The pods the scheduler counts: every other pod of the node whose phase is not terminal.
    const active = others.filter(([, p]) => !isTerminal(p.phase)).flatMap(([key]) => this.specs.get(key) ?? []);
    if (!canAdmitPod(this.admit, active, pod).Admit) return null;
    const terminal = others.filter(([, p]) => isTerminal(p.phase)).map(([key, p]) => `${key} (${p.phase} in the PodView at ${p.atMs}ms)`);
    return {
      invariant: ID,
      t: rec.t,
      pod: rec.pod,
      message: `RejectPod ${String(rec.reason)} although the pods active in the apiserver leave room for it; the kubelet still counted ${terminal.join(", ") || "a pod the apiserver no longer shows"}`,
    };
  }
}

export const rejectedForResourcesOfTerminalPod: InvariantInfo = {
  id: ID,
  statement:
    "The kubelet never rejects a pod for lack of a resource (OutOfcpu, OutOfmemory, OutOfpods) that the pods whose phase in the apiserver is not terminal leave free.",
  source: "pkg/kubelet/lifecycle/predicate.go, kubelet_pods.go filterOutInactivePods (issues #106884, #104560; PR #108366); race R11",
  make: (s: Scenario) =>
    new Monitor(
      { node: nodeOf(s.node, s.kubelet.maxPods), version: { minor: s.kubelet.minor, patch: s.kubelet.patch }, sidecars: s.kubelet.featureGates.SidecarContainers },
      podSpecsByRuntimeKey(s),
    ),
};
