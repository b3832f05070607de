// Invariant pleg-missed-container-change: after a container the PLEG knows exits or is removed at
// t, the first relist that begins after t emits a PLEG event for that container. Source: race R08
// (PR #22155, v1.2.0: "pleg didn't report any event, thus pod cache was never updated" when a
// pod's containers were exited and removed before the next relist; PR #19369, "PLEG should report
// events if a container is removed").
//
// Precisely, from the trace:
// - a container is known to the PLEG once any PLEG event (sent, filtered or dropped for a full
//   channel) named it. A container created, exited and removed within one relist period is never
//   seen, by design (generic.go's stated assumption), so only known containers are owed an event;
// - a change is the runtime's ContainerExited of the container, its removal (RemoveContainer,
//   ContainerRemovedExternally), or the removal of its pod's sandbox (RemovePodSandbox removes
//   every container of the pod: simplified, the runtime's records do not name a container's
//   sandbox, so all containers of the pod key are taken);
// - the relist that owes it is the first whose GetPods began after the change (a `relist` record
//   at t' with durationMs d began at t' - d). A failed relist (err), or one in which inspecting the
//   pod failed (a cache Set with err: the change is retried next relist, as upstream), owes
//   nothing yet; such a record may name the pod only by UID (its sandbox vanished mid-relist).
// A kubelet restart starts a new PLEG with no records: nothing is owed across it.
// In a cluster every record names its node (`node`): a node's relists owe only its own containers.
import type { TraceRecord } from "../../sim/index.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";

const ID = "pleg-missed-container-change";

const PLEG_CONTAINER_EVENTS = new Set(["ContainerStarted", "ContainerDied", "ContainerRemoved", "ContainerChanged", "EventDropped"]);

interface Owed {
  node: unknown;
  pod: string;
  container: string;
  what: string;
  atMs: number;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  // `node`: in a cluster each node's kubelet relists its own runtime, so what is owed is per node.
  KubeletStop: ["node"],
  CreateContainer: ["result", "newId", "pod", "container", "node"],
  ContainerExited: ["result", "id"],
  ContainerRemovedExternally: ["result", "id"],
  RemoveContainer: ["result", "id"],
  RemovePodSandbox: ["result", "pod"],
  Set: ["uid", "pod", "err", "node"],
  ...Object.fromEntries([...PLEG_CONTAINER_EVENTS].map((k) => [k, ["containerID"]])),
  // The runtime writes ContainerStarted too: onRuntime reads its result.
  ContainerStarted: ["containerID", "result"],
  relist: ["durationMs", "err", "node"],
};

const NO_PODS: ReadonlySet<string> = new Set();

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** Container ID → its pod key and name, for every container the runtime created. */
  private readonly containers = new Map<string, { node: unknown; pod: string; name: string }>();
  /** Container IDs the PLEG has named in an event. */
  private readonly known = new Set<string>();
  /** Container ID → the change the next relist must report. */
  private readonly owed = new Map<string, Owed>();
  /** Pod UID → pod key, from the cache's records. */
  private readonly podByUid = new Map<string, string>();
  /** Pod keys whose inspection failed since the last relist ended, by node. */
  private readonly failedInspection = new Map<unknown, Set<string>>();

  observe(rec: TraceRecord): Violation | null {
    if (rec.component === "kubelet" && rec.kind === "KubeletStop") {
      for (const [id, o] of this.owed) if (o.node === rec.node) this.owed.delete(id);
      for (const [id, c] of this.containers) if (c.node === rec.node) this.known.delete(id);
      return null;
    }
    if (rec.component === "runtime") this.onRuntime(rec);
    if (rec.component === "cache" && rec.kind === "Set") this.onCacheSet(rec);
    if (rec.component !== "pleg") return null;
    if (PLEG_CONTAINER_EVENTS.has(rec.kind) && typeof rec.containerID === "string") {
      this.known.add(rec.containerID);
      this.owed.delete(rec.containerID);
      return null;
    }
    return rec.kind === "relist" ? this.onRelist(rec) : null;
  }

  /**
   * A cache Set with err is a failed inspection. Its record may lack the pod's name (the runtime
   * no longer lists the pod when its sandbox vanished mid-relist): the UID names it then.
   */
  private onCacheSet(rec: TraceRecord): void {
    const uid = typeof rec.uid === "string" ? rec.uid : null;
    const pod = typeof rec.pod === "string" ? rec.pod : uid === null ? undefined : this.podByUid.get(uid);
    if (typeof rec.pod === "string" && uid !== null) this.podByUid.set(uid, rec.pod);
    if (rec.err === undefined || pod === undefined) return;
    const failed = this.failedInspection.get(rec.node) ?? new Set<string>();
    failed.add(pod);
    this.failedInspection.set(rec.node, failed);
  }

  private onRuntime(rec: TraceRecord): void {
    const ok = rec.result === undefined || rec.result === "ok";
    if (rec.kind === "CreateContainer" && rec.result === "ok" && typeof rec.newId === "string" && typeof rec.pod === "string") {
      this.containers.set(rec.newId, { node: rec.node, pod: rec.pod, name: String(rec.container) });
    } else if (rec.kind === "ContainerExited" && typeof rec.id === "string") {
      this.owe(rec.id, "exited", rec.t);
    } else if ((rec.kind === "ContainerRemovedExternally" || (rec.kind === "RemoveContainer" && ok)) && typeof rec.id === "string") {
      this.owe(rec.id, "was removed", rec.t);
      this.containers.delete(rec.id);
    } else if (rec.kind === "RemovePodSandbox" && rec.result === "ok" && typeof rec.pod === "string") {
      for (const [id, c] of [...this.containers]) {
        if (c.pod !== rec.pod) continue;
        this.owe(id, "was removed with its sandbox", rec.t);
        this.containers.delete(id);
      }
    }
  }

  /** A change is owed an event if the PLEG knows the container; the first change is the one reported. */
  private owe(id: string, what: string, atMs: number): void {
    const c = this.containers.get(id);
    if (c === undefined || !this.known.has(id)) return;
    const prev = this.owed.get(id);
    this.owed.set(id, prev === undefined ? { node: c.node, pod: c.pod, container: c.name, what, atMs } : { ...prev, what: `${prev.what}, then ${what}` });
  }

  private onRelist(rec: TraceRecord): Violation | null {
    const beganMs = rec.t - (typeof rec.durationMs === "number" ? rec.durationMs : 0);
    const failed = this.failedInspection.get(rec.node) ?? NO_PODS;
    this.failedInspection.delete(rec.node);
    // Most relists owe nothing (this runs at every relist of every node).
    if (rec.err !== undefined || this.owed.size === 0) return null;
    for (const [id, o] of this.owed) {
      if (o.node !== rec.node || o.atMs >= beganMs || failed.has(o.pod)) continue;
      this.owed.delete(id);
      return {
        invariant: ID,
        t: rec.t,
        pod: o.pod,
        message:
          `container ${o.container} (${id}) ${o.what} from ${o.atMs}ms; the relist that began at ${beganMs}ms ` +
          `reported no event for it, so the pod cache kept its old state`,
      };
    }
    return null;
  }
}

export const plegMissedContainerChange: InvariantInfo = {
  id: ID,
  statement:
    "After a container the PLEG knows exits or is removed, the first relist that begins afterwards emits a PLEG event for it (and so refreshes the pod cache).",
  source: "race R08 (kubernetes PR #22155, v1.2.0; PR #19369)",
  make: () => new Monitor(),
};
