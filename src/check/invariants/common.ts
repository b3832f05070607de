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

export interface InvariantMonitor {
  readonly id: string;
  /**
   * The record kinds `observe` reads: for any other kind it returns null and changes nothing.
   * Absent: every kind (the checker then has every record built). Exploration builds only the
   * kinds some monitor reads (sim/trace.ts, lazy records), so a missing kind here is a missed bug:
   * test/check/lazy_records.test.ts compares every monitor's findings with and without.
   */
  readonly kinds?: readonly string[];
  observe(rec: TraceRecord): Violation | null;
  /**
   * For monitors that act on time passing (deadlines): time moved to nowMs at a record this
   * monitor does not read; act as `observe` would at the first record of that instant. A monitor
   * with `advance` is also shown every record that is built, whatever its kinds.
   */
  advance?(nowMs: number): Violation | null;
  /** Optional: every apiserver write, for rules about fields the trace records do not carry (conditions). */
  observeApi?(e: StoredEvent, nowMs: number): Violation | null;
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
