// Invariant at-most-one-running-container: a pod never has two running containers of the same
// name at once. Source: the read-your-writes contract of the pod status cache (GetNewerThan, the
// runtime pod cache design: "a pod worker should be blocked until all expected results have been
// updated to the cache by PLEG"); races R07 (#23636) and R09 (#121003: duplicate containers in one
// sandbox with Evented PLEG).
import type { TraceRecord } from "../../sim/index.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";
import { CALL_CONTAINER_READS, RuntimeContainers } from "./containers.ts";

const ID = "at-most-one-running-container";

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads: RecordReads = CALL_CONTAINER_READS;
  // The start as the kubelet sees it (the CRI StartContainer), which the default timeline shows.
  private readonly containers = new RuntimeContainers("call");

  observe(rec: TraceRecord): Violation | null {
    const started = this.containers.observe(rec);
    if (started === null) return null;
    const twins = this.containers.runningOf(started.pod, started.uid).filter((c) => c.container === started.container && c.id !== started.id);
    if (twins.length === 0) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod: started.pod,
      message: `container ${started.container} started as ${started.id} while ${twins.map((c) => `${c.id} (started at ${c.startedAtMs}ms)`).join(", ")} still ran`,
    };
  }
}

export const atMostOneRunningContainer: InvariantInfo = {
  id: ID,
  statement: "A pod never has two running containers of the same name at the same time.",
  source: "pkg/kubelet/container/cache.go GetNewerThan (runtime pod cache design); races R07 (#23636), R09 (#121003)",
  make: () => new Monitor(),
};
