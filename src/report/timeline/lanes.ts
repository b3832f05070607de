// The lanes of a run's timeline: one per goroutine (kernel process), grouped by the component its
// name starts with ("podworker/default/web" is in "podworker"), and a lane per component for the
// records no goroutine wrote (timer callbacks: a container's exit, a grace period's SIGKILL) and one
// for the checker's verdicts. Without the kernel's view, one lane per record component.
// In a cluster, a node's goroutines are named after it ("node-b/podworker/default/web"): each such
// lane says its node, is grouped by the component after the node's name, and the node's lanes come
// together, after the lanes of no node (the scenario, the apiserver, the scheduler, the
// controllers), in the order the nodes first appear. A one-node run has no lane with a node.
import { byString, type TraceRecord } from "../records.ts";
import type { KernelView, ProcInfo } from "./kernel_view.ts";

export interface Lane {
  id: number;
  name: string;
  /** The component group the lane is shown under. */
  group: string;
  /** The kernel process, or null for a lane of records no goroutine wrote. */
  proc: number | null;
  startMs: number;
  /** When the goroutine ended; null while it lived to the end of the run. */
  endMs: number | null;
  end: ProcInfo["end"];
  /** Not the kubelet's own: the scenario's timeline (the user), the apiserver, the containers, the checker. */
  outside: boolean;
  /** In a cluster, the node whose process this lane is (absent for every lane of a one-node run). */
  node?: string;
}

/** Groups top to bottom: who asks, the apiserver, the kubelet's loops from the top down, the runtime side. */
export const GROUP_ORDER: readonly string[] = [
  "scenario", "apiserver", "config", "kubelet", "podworker", "prober", "status-manager",
  "imagePuller", "killContainer", "pleg", "runOnce",
];

/** The component whose records are verdicts, not steps of the run. */
export const CHECK_COMPONENT = "check";
/** The kernel's own records (run, end): shown in the header, not as marks. */
export const SIM_COMPONENT = "sim";

export interface LaneIndex {
  lanes: Lane[];
  /** The lane of record seq, -1 for none (the run and end records). */
  laneOfSeq: Int32Array;
  /** The lane of a kernel process id. */
  laneOfProc: Map<number, number>;
}

export function groupOf(procName: string): string {
  const slash = procName.indexOf("/");
  return slash < 0 ? procName : procName.slice(0, slash);
}

function groupRank(group: string): number {
  const i = GROUP_ORDER.indexOf(group);
  return i < 0 ? GROUP_ORDER.length : i;
}

/** Builds the lanes and says which lane each record goes to. */
export function buildLanes(records: readonly TraceRecord[], kernel: KernelView | undefined): LaneIndex {
  const maxSeq = records.reduce((m, r) => Math.max(m, r.seq), -1);
  const laneOfSeq = new Int32Array(maxSeq + 1).fill(-1);
  const drafts: Omit<Lane, "id">[] = [];
  const procDraft = new Map<number, number>();
  const nodes = clusterNodes(records, kernel);
  for (const p of kernel?.procs ?? []) {
    procDraft.set(p.id, drafts.length);
    const node = nodes.size === 0 ? undefined : nodeOfProc(p.name, nodes);
    const group = groupOf(node === undefined ? p.name : p.name.slice(node.length + 1));
    drafts.push({ name: p.name, group, proc: p.id, startMs: p.startMs, endMs: p.endMs, end: p.end, outside: p.group !== "kubelet" && !p.group.startsWith("kubelet@"), ...(node === undefined ? {} : { node }) });
  }
  const outsideDraft = new Map<string, number>();
  const draftOfSeq = new Int32Array(maxSeq + 1).fill(-1);
  for (const rec of records) {
    if (rec.component === SIM_COMPONENT) continue;
    const proc = rec.component === CHECK_COMPONENT ? 0 : kernel?.recordProc[rec.seq] ?? 0;
    const d = proc > 0 ? procDraft.get(proc) : undefined;
    if (d !== undefined) {
      draftOfSeq[rec.seq] = d;
      continue;
    }
    // A node's records of no goroutine (a container's exit on that node) stay with the node.
    const node = kernel !== undefined && typeof rec.node === "string" && nodes.has(rec.node) ? rec.node : undefined;
    const plain = kernel === undefined || rec.component === CHECK_COMPONENT ? rec.component : `${rec.component} (no goroutine)`;
    const name = node === undefined ? plain : `${node}/${plain}`;
    let o = outsideDraft.get(name);
    if (o === undefined) {
      o = drafts.length;
      outsideDraft.set(name, o);
      const group = kernel === undefined ? rec.component : rec.component === CHECK_COMPONENT ? "checker" : "outside";
      drafts.push({ name, group, proc: null, startMs: 0, endMs: null, end: null, outside: kernel !== undefined || rec.component === CHECK_COMPONENT, ...(node === undefined ? {} : { node }) });
    }
    draftOfSeq[rec.seq] = o;
  }
  const nodeRank = new Map([...nodes].map((n, i) => [n, i]));
  const order = drafts.map((_, i) => i).sort((a, b) => compareNodes(drafts[a]!, drafts[b]!, nodeRank) || compareDrafts(drafts[a]!, drafts[b]!, kernel !== undefined) || a - b);
  const idOfDraft = new Int32Array(drafts.length);
  const lanes = order.map((d, id) => {
    idOfDraft[d] = id;
    return { id, ...drafts[d]! };
  });
  for (let s = 0; s < draftOfSeq.length; s++) if (draftOfSeq[s]! >= 0) laneOfSeq[s] = idOfDraft[draftOfSeq[s]!]!;
  const laneOfProc = new Map<number, number>();
  for (const [proc, d] of procDraft) laneOfProc.set(proc, idOfDraft[d]!);
  return { lanes, laneOfSeq, laneOfProc };
}

/**
 * The nodes of a cluster run, in the order their processes were spawned: the values of the records'
 * `node` field that name some goroutine's prefix ("node-b/..."). Empty for a one-node run.
 */
function clusterNodes(records: readonly TraceRecord[], kernel: KernelView | undefined): Set<string> {
  const named = new Set<string>();
  for (const rec of records) if (typeof rec.node === "string") named.add(rec.node);
  const out = new Set<string>();
  if (named.size === 0) return out;
  for (const p of kernel?.procs ?? []) {
    const slash = p.name.indexOf("/");
    if (slash > 0 && named.has(p.name.slice(0, slash))) out.add(p.name.slice(0, slash));
  }
  return out;
}

function nodeOfProc(name: string, nodes: ReadonlySet<string>): string | undefined {
  const slash = name.indexOf("/");
  return slash > 0 && nodes.has(name.slice(0, slash)) ? name.slice(0, slash) : undefined;
}

/** The lanes of no node first (the checker's aside: it stays last), then each node's, nodes in order. */
function compareNodes(a: Omit<Lane, "id">, b: Omit<Lane, "id">, rank: ReadonlyMap<string, number>): number {
  if (a.group === "checker" || b.group === "checker") return 0;
  const ra = a.node === undefined ? -1 : rank.get(a.node)!;
  const rb = b.node === undefined ? -1 : rank.get(b.node)!;
  return ra - rb;
}

/** Goroutine lanes by group then spawn order; then the lanes of no goroutine; the checker last. */
function compareDrafts(a: Omit<Lane, "id">, b: Omit<Lane, "id">, byProc: boolean): number {
  const tier = (l: Omit<Lane, "id">) => (l.group === "checker" || (!byProc && l.name === CHECK_COMPONENT) ? 2 : l.proc === null && byProc ? 1 : 0);
  const t = tier(a) - tier(b);
  if (t !== 0) return t;
  const g = groupRank(a.group) - groupRank(b.group);
  if (g !== 0) return g;
  if (a.group !== b.group) return byString(a.group, b.group);
  if (a.proc !== null && b.proc !== null) return a.proc - b.proc;
  return byString(a.name, b.name);
}
