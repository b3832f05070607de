// A Mermaid sequenceDiagram of a run: components as participants in a fixed order, arrows for the
// interactions their records imply (syncLoop hands work to a pod worker, the runtime manager calls
// the CRI, PLEG reports a container exit, the status manager patches the apiserver), and notes for
// what a user would see change (`kubectl get` STATUS). GitHub renders it from a ```mermaid block.
import { CRI_METHOD_NAMES } from "./phrases.ts";
import { byString, fieldText, num, podMatches, podOf, runInfo, str, type TraceRecord } from "./records.ts";
import { mermaidText, participantId } from "./mermaid_text.ts";
import { isNoisy } from "./text.ts";

export interface MermaidOptions {
  /** Only records about this pod ("ns/name" or "name"). */
  pod?: string;
  /** The most messages and notes drawn; past it, one note says how many were left out. Default 150. */
  maxMessages?: number;
  /** Draw kubelet Events as notes. Default false (they repeat what the arrows show). */
  events?: boolean;
}

/** Left to right: who asks, the apiserver, the kubelet's loops from the top down, the runtime. */
export const PARTICIPANT_ORDER = [
  "user", "apiserver", "config", "syncloop", "kubelet", "podworker", "prober", "status",
  "kuberuntime", "runtime", "pleg", "cache", "sim",
] as const;

const DEFAULT_MAX_MESSAGES = 150;

type Step =
  | { from: string; to: string; arrow: "->>" | "-->>" | "-x"; text: string }
  | { note: string; text: string };

const SYNC_OF_MODE: Readonly<Record<string, string>> = {
  sync: "SyncPod",
  terminating: "SyncTerminatingPod",
  terminated: "SyncTerminatedPod",
};

/** What the drawing remembers between records (to draw changes only) and the lanes present. */
interface Context {
  /** Where syncLoop's records go: the "syncloop" lane when the trace has one, else "kubelet". */
  syncloop: string;
  events: boolean;
  lastProbe: Map<string, string>;
  lastStatus: Map<string, string>;
}

const short = (pod: string | undefined): string => (pod === undefined ? "" : pod.slice(pod.indexOf("/") + 1));
const failed = (rec: TraceRecord): boolean => {
  const r = rec["result"];
  return rec["error"] !== undefined || (typeof r === "string" && r !== "ok" && r !== "patched" && r !== "unchanged" && r !== "deleted");
};
const outcome = (rec: TraceRecord): string => (failed(rec) ? ` → ${fieldText(rec["error"] ?? rec["result"])}` : "");

function apiserverStep(rec: TraceRecord, ctx: Context): Step | undefined {
  const actor = str(rec, "actor");
  const pod = short(podOf(rec));
  if (rec.kind === "PodView") return podViewNote(rec, ctx);
  if (rec.kind === "WatchEvent" && actor === "kubelet") {
    return { from: "apiserver", to: "config", arrow: "-->>", text: `watch ${fieldText(rec["type"])} ${pod}` };
  }
  // The kubelet's own requests are drawn from the status manager's records.
  if (actor === undefined || actor === "kubelet") return undefined;
  const verb: Readonly<Record<string, string>> = { Create: "POST", Update: "PUT", Delete: "DELETE", PatchStatus: "PATCH status" };
  if (verb[rec.kind] === undefined) return undefined;
  const g = rec["gracePeriodSeconds"];
  // No explicit grace (null): the pod's own terminationGracePeriodSeconds applies; print nothing.
  const grace = g === undefined || g === null ? "" : ` grace ${fieldText(g)}s`;
  const who = actor === "user" ? "" : ` (${actor})`;
  return { from: "user", to: "apiserver", arrow: failed(rec) ? "-x" : "->>", text: `${verb[rec.kind]} ${pod}${grace}${who}${outcome(rec)}` };
}

function podViewNote(rec: TraceRecord, ctx: Context): Step | undefined {
  const pod = podOf(rec) ?? "";
  const status = rec["deleted"] === true ? "deleted" : `${fieldText(rec["status"])} ${fieldText(rec["ready"])}`;
  if (ctx.lastStatus.get(pod) === status) return undefined;
  ctx.lastStatus.set(pod, status);
  return { note: "apiserver", text: `${short(pod)} ${status}` };
}

function podworkerStep(rec: TraceRecord, ctx: Context): Step | undefined {
  const mode = str(rec, "mode");
  const work = mode === undefined ? "sync" : SYNC_OF_MODE[mode] ?? mode;
  switch (rec.kind) {
    case "UpdatePod":
      return { from: ctx.syncloop, to: "podworker", arrow: "->>", text: `UpdatePod ${fieldText(rec["updateType"] ?? "")}` };
    case "SyncBegin":
      return { from: "podworker", to: "kubelet", arrow: "->>", text: work };
    case "SyncEnd": {
      const err = str(rec, "err");
      return { from: "kubelet", to: "podworker", arrow: "-->>", text: err === undefined || err === "" ? `${work} done` : `${work} error: ${err}` };
    }
    case "TerminationRequested":
      return { note: "podworker", text: `termination requested${rec["why"] === undefined ? "" : ` (${fieldText(rec["why"])})`}` };
    case "UpdateDropped":
      return { note: "podworker", text: `update dropped ${fieldText(rec["pinnedBy"] ?? "")}` };
    default:
      return undefined;
  }
}

function runtimeStep(rec: TraceRecord): Step | undefined {
  const what = str(rec, "container") ?? str(rec, "image") ?? "";
  if (CRI_METHOD_NAMES.has(rec.kind)) {
    if (isNoisy(rec)) return undefined;
    return { from: "kuberuntime", to: "runtime", arrow: failed(rec) ? "-x" : "->>", text: `${rec.kind} ${what}${outcome(rec)}` };
  }
  if (rec.kind === "ContainerExited") {
    const code = num(rec, "exitCode");
    return { from: "runtime", to: "pleg", arrow: "-->>", text: `${what} exited${code === undefined ? "" : ` (code ${code})`}` };
  }
  const faults = new Set(["SandboxDied", "RuntimeRestart", "NodeReboot", "ContainerRemovedExternally"]);
  return faults.has(rec.kind) ? { note: "runtime", text: `${rec.kind} ${what}` } : undefined;
}

function plegStep(rec: TraceRecord, ctx: Context): Step | undefined {
  const sent = new Set(["ContainerStarted", "ContainerDied", "ContainerRemoved", "PodSync"]);
  if (rec.kind === "EventDropped") return { note: "pleg", text: `event dropped ${fieldText(rec["type"])}` };
  if (!sent.has(rec.kind)) return undefined;
  const code = num(rec, "exitCode");
  const what = str(rec, "container") ?? str(rec, "containerID") ?? short(podOf(rec));
  const text = `${rec.kind} ${what}${code === undefined ? "" : ` (code ${code})`}`;
  return { from: "pleg", to: ctx.syncloop, arrow: "->>", text };
}

function proberStep(rec: TraceRecord, ctx: Context): Step | undefined {
  if (rec.kind !== "ProbeResult") return undefined;
  const probeType = fieldText(rec["probeType"]);
  const key = [podOf(rec), str(rec, "container"), probeType].join("\u0000");
  const result = fieldText(rec["result"]);
  if (ctx.lastProbe.get(key) === result) return undefined;
  ctx.lastProbe.set(key, result);
  // Liveness results go to syncLoop (it restarts the container); readiness and startup to status.
  const to = probeType === "liveness" ? ctx.syncloop : "status";
  return { from: "prober", to, arrow: "->>", text: `${probeType} ${fieldText(rec["container"])} ${result}` };
}

function statusStep(rec: TraceRecord): Step | undefined {
  const arrow = failed(rec) ? "-x" : "->>";
  if (rec.kind === "PatchStatus") {
    const phase = rec["phase"] === undefined || rec["phase"] === null ? "" : ` (${fieldText(rec["phase"])})`;
    return { from: "status", to: "apiserver", arrow, text: `PATCH status${phase}${outcome(rec)}` };
  }
  if (rec.kind === "DeletePod") return { from: "status", to: "apiserver", arrow, text: `DELETE grace 0${outcome(rec)}` };
  return undefined;
}

/** The step one record draws, or undefined when it draws nothing. */
function stepOf(rec: TraceRecord, ctx: Context): Step | undefined {
  if (rec.kind === "Event") {
    if (!ctx.events) return undefined;
    return { note: rec.component, text: `${fieldText(rec["type"])} ${fieldText(rec["reason"])}: ${fieldText(rec["message"])}` };
  }
  switch (rec.component) {
    case "apiserver": return apiserverStep(rec, ctx);
    case "config": {
      if (rec["incoming"] === true || podOf(rec) === undefined) return undefined;
      return { from: "config", to: ctx.syncloop, arrow: "->>", text: `${rec.kind} ${short(podOf(rec))}` };
    }
    case "podworker": return podworkerStep(rec, ctx);
    case "kuberuntime":
      return /^(Sync|Kill)/.test(rec.kind) ? { from: "kubelet", to: "kuberuntime", arrow: "->>", text: rec.kind } : undefined;
    case "runtime": return runtimeStep(rec);
    case "pleg": return plegStep(rec, ctx);
    case "prober": return proberStep(rec, ctx);
    case "status": return statusStep(rec);
    default: return undefined;
  }
}

/** Renders the diagram. */
export function renderMermaid(records: readonly TraceRecord[], opts: MermaidOptions = {}): string {
  const max = opts.maxMessages ?? DEFAULT_MAX_MESSAGES;
  const lanes = new Set(records.map((r) => r.component));
  const ctx: Context = { syncloop: lanes.has("syncloop") ? "syncloop" : "kubelet", events: opts.events ?? false, lastProbe: new Map(), lastStatus: new Map() };
  const steps: Step[] = [];
  let omitted = 0;
  for (const rec of records) {
    if (opts.pod !== undefined && !podMatches(podOf(rec), opts.pod)) continue;
    const step = stepOf(rec, ctx);
    if (step === undefined) continue;
    if (steps.length < max) steps.push(step);
    else omitted++;
  }
  return lines(records, steps, omitted, max).join("\n") + "\n";
}

function lines(records: readonly TraceRecord[], steps: readonly Step[], omitted: number, max: number): string[] {
  const used = new Set<string>();
  for (const s of steps) for (const p of "note" in s ? [s.note] : [s.from, s.to]) used.add(participantId(p));
  const order: string[] = PARTICIPANT_ORDER.filter((p) => used.has(p));
  for (const p of [...used].sort(byString)) if (!order.includes(p)) order.push(p);
  const out = ["sequenceDiagram"];
  const run = runInfo(records);
  if (run !== undefined) out.push(`    %% kubelet-sim ${mermaidText(`scenario ${run.scenario} seed ${run.seed} strategy ${run.strategy}`)}`);
  for (const p of order) out.push(`    participant ${p}`);
  for (const s of steps) {
    out.push("note" in s
      ? `    Note over ${participantId(s.note)}: ${mermaidText(s.text)}`
      : `    ${participantId(s.from)}${s.arrow}${participantId(s.to)}: ${mermaidText(s.text)}`);
  }
  if (omitted > 0) {
    const span = order.length > 1 ? `${order[0]},${order[order.length - 1]}` : order[0] ?? "apiserver";
    if (order.length === 0) out.push(`    participant ${span}`);
    out.push(`    Note over ${span}: ${mermaidText(`${omitted} more step(s) not shown (maxMessages ${max})`)}`);
  }
  return out;
}
