// Invariant sidecar-stopped-before-main-containers: when a pod terminates, its sidecars
// (restartable init containers) are signalled only after every regular container has stopped.
// Source: KEP-753 (sidecar containers) termination ordering, kuberuntime_termination_order.go
// (v1.29+); race R23.
import type { TraceRecord } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { podSpecsByRuntimeKey, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "sidecar-stopped-before-main-containers";

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = { ContainerStarted: ["pod", "container"], ContainerExited: ["pod", "container"], Signal: ["pod", "container", "signal"] };

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** Pod key → names of its regular containers running now. */
  private readonly running = new Map<string, Set<string>>();

  constructor(private readonly specs: Map<string, Pod>) {}

  observe(rec: TraceRecord): Violation | null {
    if (rec.component !== "runtime" || typeof rec.pod !== "string") return null;
    const spec = this.specs.get(rec.pod);
    if (spec === undefined) return null;
    const name = String(rec.container);
    const regular = spec.spec.containers.some((c) => c.name === name);
    const sidecar = (spec.spec.initContainers ?? []).some((c) => c.name === name && c.restartPolicy === "Always");
    const set = this.running.get(rec.pod) ?? new Set<string>();
    this.running.set(rec.pod, set);
    if (rec.kind === "ContainerStarted" && regular) set.add(name);
    if (rec.kind === "ContainerExited" && regular) set.delete(name);
    if (!(rec.kind === "Signal" && rec.signal === "SIGTERM" && sidecar) || set.size === 0) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod: rec.pod,
      message: `sidecar ${name} got SIGTERM while regular container(s) ${[...set].sort().join(", ")} still ran`,
    };
  }
}

export const sidecarStoppedBeforeMainContainers: InvariantInfo = {
  id: ID,
  statement: "Sidecars (restartable init containers) are signalled only after every regular container has stopped.",
  source: "KEP-753 termination ordering (pkg/kubelet/kuberuntime/kuberuntime_termination_order.go); race R23",
  make: (scenario: Scenario) => new Monitor(podSpecsByRuntimeKey(scenario)),
};
