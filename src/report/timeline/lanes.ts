// The lanes of a run's timeline: one per goroutine (kernel process), grouped by the component its
// name starts with ("podworker/default/web" is in "podworker"), and a lane per component for the
// records no goroutine wrote (timer callbacks: a container's exit, a grace period's SIGKILL) and one
// for the checker's verdicts. Without the kernel's view, one lane per record component.
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
  for (const p of kernel?.procs ?? []) {
    procDraft.set(p.id, drafts.length);
    drafts.push({ name: p.name, group: groupOf(p.name), proc: p.id, startMs: p.startMs, endMs: p.endMs, end: p.end, outside: p.group !== "kubelet" && !p.group.startsWith("kubelet@") });
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
    const name = kernel === undefined || rec.component === CHECK_COMPONENT ? rec.component : `${rec.component} (no goroutine)`;
    let o = outsideDraft.get(name);
    if (o === undefined) {
      o = drafts.length;
      outsideDraft.set(name, o);
      const group = kernel === undefined ? rec.component : rec.component === CHECK_COMPONENT ? "checker" : "outside";
      drafts.push({ name, group, proc: null, startMs: 0, endMs: null, end: null, outside: kernel !== undefined || rec.component === CHECK_COMPONENT });
    }
    draftOfSeq[rec.seq] = o;
  }
  const order = drafts.map((_, i) => i).sort((a, b) => compareDrafts(drafts[a]!, drafts[b]!, kernel !== undefined) || a - b);
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
