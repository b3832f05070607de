// What every invariant monitor shares: the types, and helpers to read runtime records.
import type { TraceRecord } from "../../sim/index.ts";
import type { StoredEvent } from "../../apiserver/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { Scenario } from "../../scenario/resolve.ts";

export interface Violation {
  invariant: string;
  t: number;
  pod: string;
  message: string;
}

/**
 * What a monitor reads of the trace: per record kind, the fields it reads besides t, seq, component
 * and kind (those every record has). Only records of these kinds reach its `observe`, and in
 * exploration no other kind is built at all (sim/trace.ts, lazy records).
 */
export type RecordReads = Readonly<Record<string, readonly string[]>>;

export interface InvariantMonitor {
  readonly id: string;
  /**
   * The record kinds `observe` reads, each with the fields it reads: for any other kind it would
   * return null and change nothing. A kind missing here is a missed bug, so every bundled scenario
   * holds the dispatched runs to runs that show every monitor every record
   * (test/check/lazy_records.test.ts), and a read of an undeclared field is caught
   * (test/check/dispatch.test.ts).
   */
  readonly reads?: RecordReads;
  /**
   * The coarser, older form (monitors written before `reads`): the kinds only, any of their
   * fields. With neither, the monitor is shown every record and every record is built.
   */
  readonly kinds?: readonly string[];
  observe(rec: TraceRecord): Violation | null;
  /**
   * For monitors that act on time passing (deadlines): time moved to nowMs at a record this
   * monitor does not read; act as `observe` would on such a record. Called again at the same
   * instant only after it returned a violation or the monitor saw something since.
   */
  advance?(nowMs: number): Violation | null;
  /**
   * Optional, with `advance`: what advance judges (the deadlines it holds), the same object for the
   * monitor's life. While its size is 0, advance returns null and changes nothing, so the dispatch
   * does not call it: most of a run holds no deadline, and a size read costs a fraction of a call
   * through a bound function (scripts/monitor-noops.ts: 2,300 advance calls an explore run, none
   * of them acting). A size that overstates is safe (advance is called and judges); one that
   * understates misses a violation.
   */
  readonly deadlines?: { readonly size: number };
  /** Optional: every apiserver write, for rules about fields the trace records do not carry (conditions). */
  observeApi?(e: StoredEvent, nowMs: number): Violation | null;
  /**
   * Optional: how close the run came so far to breaking the invariant, in the monitor's own unit
   * (documented in its file), 0 once broken; null while nothing measured it. Guided exploration
   * (explore/guided_distance.ts) favours the runs that came closest (directed feedback, after
   * AFLGo). Must not write trace records or change what observe returns.
   */
  distance?(): number | null;
}

export interface InvariantInfo {
  id: string;
  statement: string;
  source: string;
  /**
   * Checked only when named (`--invariants ID`, `- never: ID`), never as part of `all`: a contract
   * that no released kubelet keeps and that the docs do not promise (race R25's first-crash back-off).
   */
  optIn?: boolean;
  make: (scenario: Scenario) => InvariantMonitor;
}

/** When a CRI call began: its record is written when it returns, tookMs later. */
export function callStartMs(rec: TraceRecord): number {
  return rec.t - (typeof rec.tookMs === "number" ? rec.tookMs : 0);
}

export function isOkCall(rec: TraceRecord, method: string): boolean {
  return rec.component === "runtime" && rec.kind === method && rec.result === "ok" && typeof rec.pod === "string";
}

/** The pods of the scenario by the key the runtime uses ("ns/name", static pods node-suffixed). */
export function podSpecsByRuntimeKey(scenario: Scenario): Map<string, Pod> {
  const out = new Map<string, Pod>();
  for (const p of scenario.pods) {
    const name = p.source === "file" ? `${p.name}-${scenario.kubelet.nodeName.toLowerCase()}` : p.name;
    out.set(`${p.namespace}/${name}`, p.manifest as Pod);
  }
  return out;
}


/**
 * A SyncPod of a pod UID begins: the pod worker's SyncBegin in mode sync, or the kubelet's SyncPod
 * record (either one: a view that hides one of them still attributes the runtime's calls).
 */
export function isSyncPodBegin(rec: TraceRecord): boolean {
  return (rec.component === "podworker" && rec.kind === "SyncBegin" && rec.mode === "sync") || (rec.component === "kubelet" && rec.kind === "SyncPod");
}

/** The runtime keys ("ns/name-node") of the scenario's static pods: their API objects are mirror pods. */
export function staticPodKeys(scenario: Scenario): Set<string> {
  const node = scenario.kubelet.nodeName.toLowerCase();
  return new Set(scenario.pods.filter((p) => p.source === "file").map((p) => `${p.namespace}/${p.name}-${node}`));
}

/** Declarations merged: every kind of each, with the union of their fields. */
export function mergeReads(...parts: RecordReads[]): RecordReads {
  const out: Record<string, string[]> = {};
  for (const p of parts) for (const [kind, fields] of Object.entries(p)) out[kind] = [...new Set([...(out[kind] ?? []), ...fields])];
  return out;
}
