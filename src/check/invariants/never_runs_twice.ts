// Invariant never-policy-runs-twice: a container of a pod with restartPolicy Never starts at most
// once for the same pod (UID). Source: pkg/kubelet/container/helpers.go ShouldContainerBeRestarted
// (restartPolicy Never: "Check RestartPolicy for dead container"); races R22 (#51142, #83705) and
// R07 (#23636). Sidecars (restartable init containers) restart whatever the pod's policy.
import type { TraceRecord } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { podSpecsByRuntimeKey, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";
import { CALL_CONTAINER_READS, RuntimeContainers } from "./containers.ts";

const ID = "never-policy-runs-twice";

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads: RecordReads = CALL_CONTAINER_READS;
  // A start is the CRI StartContainer that succeeded: the record the default timeline shows.
  private readonly containers = new RuntimeContainers("call");
  /** "pod|uid|container" → when it first started. */
  private readonly started = new Map<string, number>();

  constructor(private readonly specs: Map<string, Pod>) {}

  observe(rec: TraceRecord): Violation | null {
    const c = this.containers.observe(rec);
    if (c === null || !runsOnce(this.specs.get(c.pod), c.container)) return null;
    const key = `${c.pod}|${c.uid}|${c.container}`;
    const first = this.started.get(key);
    if (first === undefined) {
      this.started.set(key, rec.t);
      return null;
    }
    return {
      invariant: ID,
      t: rec.t,
      pod: c.pod,
      message: `container ${c.container} of a restartPolicy Never pod started again (${c.id}); it first started at ${first}ms`,
    };
  }
}

function runsOnce(spec: Pod | undefined, container: string): boolean {
  if (spec === undefined || spec.spec.restartPolicy !== "Never") return false;
  const sidecar = (spec.spec.initContainers ?? []).some((c) => c.name === container && c.restartPolicy === "Always");
  return !sidecar;
}

export const neverPolicyRunsTwice: InvariantInfo = {
  id: ID,
  statement: "A container of a restartPolicy Never pod starts at most once for the same pod UID (sidecars excepted).",
  source: "pkg/kubelet/container/helpers.go ShouldContainerBeRestarted; races R22 (#51142, #83705), R07 (#23636)",
  make: (scenario: Scenario) => new Monitor(podSpecsByRuntimeKey(scenario)),
};
