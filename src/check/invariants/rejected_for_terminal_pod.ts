// Invariant rejected-for-resources-of-terminal-pod: the kubelet never rejects a pod for lack of a
// resource (OutOfcpu, OutOfmemory, OutOfpods) that the pods still active in the apiserver leave
// free. The scheduler's node accounting drops pods whose phase is Succeeded or Failed and binds
// other pods into their room at once; a kubelet that still counts such a pod as active rejects a
// pod the scheduler placed correctly, and the rejection is final (phase Failed). Source:
// pkg/kubelet/lifecycle/predicate.go (the predicate admit handler, "OutOf<resource>") against
// kubelet_pods.go filterOutInactivePods; issues #106884, #104560 and #108733; fixed by PR #108366
// (1.24; cherry-picks #108723 to 1.23.6, #108749 to 1.22.9), which holds the terminal phase back
// until the pod worker has terminated the pod; race R11.
import type { StoredEvent } from "../../apiserver/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { canAdmitPod } from "../../kubelet/lifecycle/admission.ts";
import type { InvariantInfo, InvariantMonitor, Violation } from "./common.ts";

const ID = "rejected-for-resources-of-terminal-pod";

const keyOf = (pod: Pod) => `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`;
const isTerminal = (pod: Pod) => pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly kinds: readonly string[] = ["RejectPod"];
  /** The apiserver's pods bound to this node, by key, as last written. */
  private readonly pods = new Map<string, Pod>();

  constructor(
    private readonly node: { maxPods: number; cpuMilli: number; memoryBytes: number },
    private readonly nodeName: string,
  ) {}

  observeApi(e: StoredEvent): Violation | null {
    const key = keyOf(e.object);
    if (e.type === "DELETED") this.pods.delete(key);
    else if (e.object.spec.nodeName === this.nodeName) this.pods.set(key, e.object);
    return null;
  }

  observe(rec: TraceRecord): Violation | null {
    if (rec.component !== "kubelet" || rec.kind !== "RejectPod" || typeof rec.pod !== "string") return null;
    if (!/^OutOf/.test(String(rec.reason))) return null;
    const pod = this.pods.get(rec.pod);
    if (pod === undefined) return null;
    // The pods the scheduler counts: every other pod of the node whose phase is not terminal.
    const active = [...this.pods.values()].filter((p) => keyOf(p) !== rec.pod && !isTerminal(p));
    if (!canAdmitPod(this.node, active, pod).Admit) return null;
    const terminal = [...this.pods.values()].filter((p) => keyOf(p) !== rec.pod && isTerminal(p)).map((p) => `${keyOf(p)} (${p.status!.phase})`);
    return {
      invariant: ID,
      t: rec.t,
      pod: rec.pod,
      message: `rejected with ${String(rec.reason)} although the pods active in the apiserver leave room for it; the kubelet still counted ${terminal.join(", ") || "a pod the apiserver no longer shows"}`,
    };
  }
}

export const rejectedForResourcesOfTerminalPod: InvariantInfo = {
  id: ID,
  statement:
    "The kubelet never rejects a pod for lack of a resource (OutOfcpu, OutOfmemory, OutOfpods) that the pods whose phase in the apiserver is not terminal leave free.",
  source: "pkg/kubelet/lifecycle/predicate.go, kubelet_pods.go filterOutInactivePods (issues #106884, #104560; PR #108366); race R11",
  make: (s: Scenario) =>
    new Monitor({ maxPods: s.kubelet.maxPods, cpuMilli: s.kubelet.allocatable.cpuMilli, memoryBytes: s.kubelet.allocatable.memoryBytes }, s.kubelet.nodeName),
};
