// How far each pod the scenario created got, so a run never ends in a silent empty result: a pod
// that never reached the kubelet (bound to another node, a create the apiserver refused, a watch
// that never delivered it), that the kubelet rejected at admission, or that never started a
// container is named at the end of the run with the reason, in the trace (check/PodNeverRan)
// and by the CLI (a warning line). A pod the scenario deleted before it started is not reported:
// that is what the scenario asked for.
import type { TraceRecord } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { Scenario } from "../scenario/resolve.ts";
import type { RecordedEvent } from "./conditions.ts";
import type { RecordReads } from "./invariants/common.ts";

export interface PodNeverRan {
  /** The scenario's name for the pod: "namespace/name". */
  pod: string;
  reason: "not-delivered" | "rejected" | "no-container-started";
  why: string;
}

interface Progress {
  created: boolean;
  createError: string | null;
  reached: boolean;
  rejected: string | null;
  started: boolean;
  deleted: boolean;
}

const CREATE_STEPS = new Set(["create", "staticAdd"]);
const DELETE_STEPS = new Set(["delete", "forceDelete", "staticRemove", "evict"]);

/** What observe() reads, by record kind (lazy records build no others: sim/trace.ts). */
export const PROGRESS_READS: RecordReads = {
  Step: ["pod", "step"],
  StepFailed: ["pod", "step", "err"],
  ADD: ["pod", "incoming"],
  UPDATE: ["pod", "incoming"],
  RejectPod: ["pod", "reason", "message"],
  ContainerStarted: ["pod"],
};

export class PodProgress {
  private readonly byKey = new Map<string, Progress>();
  /** Runtime/config key ("ns/name", static pods node-suffixed) → scenario key. */
  private readonly scenarioKey = new Map<string, string>();
  private lastStepPod: string | null = null;

  constructor(private readonly scenario: Scenario, apiKeys: ReadonlyMap<string, string>) {
    for (const p of scenario.pods) {
      this.byKey.set(p.key, { created: false, createError: null, reached: false, rejected: null, started: false, deleted: false });
      this.scenarioKey.set(apiKeys.get(p.key) ?? p.key, p.key);
    }
  }

  observe(rec: TraceRecord): void {
    const pod = typeof rec.pod === "string" ? rec.pod : null;
    if (rec.component === "scenario") return this.step(rec, pod);
    const p = pod === null ? undefined : this.byKey.get(this.scenarioKey.get(pod) ?? "");
    if (p === undefined) return;
    if (rec.component === "config" && (rec.kind === "ADD" || rec.kind === "UPDATE") && rec.incoming !== true) p.reached = true;
    else if (rec.component === "kubelet" && rec.kind === "RejectPod") p.rejected = `${String(rec.reason)}: ${String(rec.message)}`;
    else if (rec.component === "runtime" && rec.kind === "ContainerStarted") p.started = true;
  }

  private step(rec: TraceRecord, pod: string | null): void {
    if (rec.kind === "Step" && pod !== null) {
      const p = this.byKey.get(pod);
      this.lastStepPod = pod;
      if (p === undefined) return;
      if (CREATE_STEPS.has(String(rec.step))) p.created = true;
      if (DELETE_STEPS.has(String(rec.step)) && !p.started) p.deleted = true;
    } else if (rec.kind === "StepFailed" && rec.step === "create" && this.lastStepPod !== null) {
      const p = this.byKey.get(this.lastStepPod);
      if (p !== undefined) p.createError = String(rec.err);
    }
  }

  /** The pods the scenario created that never ran, with why, in the scenario's order. */
  report(world: { pod(key: string): Pod | undefined; events(key: string): readonly RecordedEvent[] }, endMs: number): PodNeverRan[] {
    const out: PodNeverRan[] = [];
    for (const sp of this.scenario.pods) {
      const p = this.byKey.get(sp.key)!;
      if (!p.created || p.deleted || p.started) continue;
      if (!p.reached) out.push({ pod: sp.key, reason: "not-delivered", why: this.notDelivered(sp.key, p) });
      else if (p.rejected !== null) out.push({ pod: sp.key, reason: "rejected", why: `the kubelet rejected it at admission (${p.rejected})` });
      else out.push({ pod: sp.key, reason: "no-container-started", why: noContainer(world.pod(sp.key), world.events(sp.key), endMs) });
    }
    return out;
  }

  private notDelivered(key: string, p: Progress): string {
    if (p.createError !== null) return `the apiserver refused to create it: ${p.createError}`;
    const sp = this.scenario.pods.find((x) => x.key === key)!;
    const node = this.scenario.kubelet.nodeName;
    const bound = sp.manifest.spec.nodeName;
    if (sp.source === "api" && bound !== undefined && bound !== node) {
      return `it is bound to node ${bound} (spec.nodeName), and this kubelet is node ${node}: its watch selects spec.nodeName=${node}, so it never saw the pod`;
    }
    return "the kubelet never received it (no ADD from its config sources by the end of the run)";
  }
}

function noContainer(pod: Pod | undefined, events: readonly RecordedEvent[], endMs: number): string {
  const waiting = [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])]
    .flatMap((c) => (c.state?.waiting?.reason === undefined ? [] : [`${c.name} ${c.state.waiting.reason}`]));
  const warning = [...events].reverse().find((e) => e.type === "Warning");
  const parts = [`no container had started by the end of the run (${Math.round(endMs / 1000)}s)`];
  if (waiting.length > 0) parts.push(`waiting: ${waiting.join(", ")}`);
  if (warning !== undefined) parts.push(`last warning: ${warning.reason}: ${warning.message}`);
  return parts.join("; ");
}
