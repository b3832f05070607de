// Invariant init-containers-out-of-order: (regular, non-sidecar) init containers run one at a time
// in order, each to a successful exit, before any regular container starts. Source: the
// InitContainers API contract (pkg/kubelet/kuberuntime/kuberuntime_container.go
// findNextInitContainerToRun); races R20, R21.
import type { TraceRecord } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { callStartMs, isOkCall, podSpecsByRuntimeKey, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "init-containers-out-of-order";

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  RunPodSandbox: ["pod", "result"],
  ContainerExited: ["pod", "exitCode", "container"],
  StartContainer: ["pod", "result", "container", "tookMs"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** Pod key → the init containers that exited 0 in the current sandbox. */
  private readonly done = new Map<string, Set<string>>();

  constructor(private readonly specs: Map<string, Pod>) {}

  observe(rec: TraceRecord): Violation | null {
    if (rec.component !== "runtime" || typeof rec.pod !== "string") return null;
    const spec = this.specs.get(rec.pod);
    if (spec === undefined) return null;
    const inits = (spec.spec.initContainers ?? []).filter((c) => c.restartPolicy !== "Always").map((c) => c.name);
    if (inits.length === 0) return null;
    // A new sandbox starts the pod over: init containers run again from the first.
    if (isOkCall(rec, "RunPodSandbox")) this.done.set(rec.pod, new Set());
    if (rec.kind === "ContainerExited" && rec.exitCode === 0 && inits.includes(String(rec.container))) {
      this.doneOf(rec.pod).add(String(rec.container));
    }
    if (!isOkCall(rec, "StartContainer")) return null;
    const name = String(rec.container);
    const idx = inits.indexOf(name);
    const mustBeDone = idx >= 0 ? inits.slice(0, idx) : isRegular(spec, name) ? inits : [];
    const missing = mustBeDone.filter((n) => !this.doneOf(rec.pod as string).has(n));
    if (missing.length === 0) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod: rec.pod,
      message: `container ${name} started at ${callStartMs(rec)}ms before init container(s) ${missing.join(", ")} completed`,
    };
  }

  private doneOf(pod: string): Set<string> {
    let s = this.done.get(pod);
    if (s === undefined) this.done.set(pod, (s = new Set()));
    return s;
  }
}

function isRegular(pod: Pod, name: string): boolean {
  return pod.spec.containers.some((c) => c.name === name);
}

export const initContainersOutOfOrder: InvariantInfo = {
  id: ID,
  statement: "Init containers complete in order, each successfully, before any regular container starts (sidecars excepted).",
  source: "pkg/kubelet/kuberuntime/kuberuntime_container.go (findNextInitContainerToRun); races R20, R21",
  make: (scenario: Scenario) => new Monitor(podSpecsByRuntimeKey(scenario)),
};
