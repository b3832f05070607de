// The containers the cluster's runtimes are running, followed from their records: a container runs
// from its CRI StartContainer that succeeded until its ContainerExited, keyed by node and container
// ID (IDs are a runtime's own). Shared by the cluster invariants that count what runs, on whichever
// node (job-running-at-most-parallelism, statefulset-identity-at-most-once).
import type { TraceRecord } from "../../sim/index.ts";

/** A container a runtime started. */
export interface StartedContainer {
  pod: string;
  node: string;
  id: string;
  container: string;
  startedAtMs: number;
}

export class RuntimeContainers<C extends StartedContainer = StartedContainer> {
  /** Running containers the caller kept (`keep`), by `<node>/<id>`. */
  readonly running = new Map<string, C>();
  private readonly exited = new Set<string>();

  /**
   * Follows one record: an exit forgets the container; a successful start of a container not yet
   * exited is returned (the caller decides with `keep` whether to count it); anything else: null.
   */
  follow(rec: TraceRecord): StartedContainer | null {
    if (rec.component !== "runtime" || typeof rec.pod !== "string" || typeof rec.id !== "string") return null;
    const node = typeof rec.node === "string" ? rec.node : "";
    const key = `${node}/${rec.id}`;
    if (rec.kind === "ContainerExited") {
      this.running.delete(key);
      this.exited.add(key);
      return null;
    }
    if (rec.kind !== "StartContainer" || rec.result !== "ok" || this.exited.has(key)) return null;
    return { pod: rec.pod, node, id: rec.id, container: String(rec.container), startedAtMs: rec.t };
  }

  keep(c: C): void {
    this.running.set(`${c.node}/${c.id}`, c);
  }
}
