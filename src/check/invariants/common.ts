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
  observe(rec: TraceRecord): Violation | null;
  /** Optional: every apiserver write, for rules about fields the trace records do not carry (conditions). */
  observeApi?(e: StoredEvent, nowMs: number): Violation | null;
}

export interface InvariantInfo {
  id: string;
  statement: string;
  source: string;
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

