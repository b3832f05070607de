// A Mermaid sequenceDiagram of a run: components as participants in a fixed order, arrows for the
// interactions their records imply (syncLoop hands work to a pod worker, the runtime manager calls
// the CRI, PLEG reports a container change, the status manager patches the apiserver), and notes
// for what a user would see change (`kubectl get` STATUS). GitHub renders it from a ```mermaid block.
//
// Steps are drawn when they happen: a CRI call's arrow where the call began (its record is written
// when it returns), a call or sync of a second or more as an activation closed by a return arrow.
// What the kubelet did not do is not drawn as if it did: a container's exit is a note on the
// runtime (the PLEG only learns of it at its next relist), and a CRI call made by someone else
// (the scenario: a garbage collector, crictl) comes from the outside actor. An invariant violation
// is a note over the participants of the records its message names, which are marked "⚠".
import { CRI_METHOD_NAMES, phrase } from "./phrases.ts";
import { byString, fieldText, num, podMatches, podOf, runInfo, str, type TraceRecord } from "./records.ts";
import { mermaidText, participantId } from "./mermaid_text.ts";
import { balanceActivations, durationText, LONG_CALL_MS, sortSteps, stepLine, stepParticipants, type Step } from "./mermaid_steps.ts";
import { isNoisy } from "./text.ts";
import { linkedRecords } from "./timeline/links.ts";
import type { KernelView } from "./timeline/kernel_view.ts";

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

/**
 * The kubelet's own lanes. In a cluster each node's are one participant, `kubelet@<node>`, and its
 * runtime another, `runtime@<node>`: a diagram of three nodes keeps three kubelets apart without
 * thirty lanes.
 */
const KUBELET_LANES: ReadonlySet<string> = new Set(["config", "syncloop", "kubelet", "podworker", "prober", "status", "kuberuntime", "pleg", "cache"]);

/** The participant that stands for everything outside the kubelet: the user, a garbage collector, crictl. */
const OUTSIDE = "user";
const DEFAULT_MAX_MESSAGES = 150;
/** A violation's note may say more than an arrow. */
const VIOLATION_CHARS = 260;

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
  /** Records written by a goroutine that is not the kubelet's (the kernel's view); empty without it. */
  outside: ReadonlySet<number>;
  /** When each open sync began and what it was, by pod: its return arrow says how long it took. */
  syncSince: Map<string, { t: number; work: string }>;
}

const short = (pod: string | undefined): string => (pod === undefined ? "" : pod.slice(pod.indexOf("/") + 1));
const failed = (rec: TraceRecord): boolean => {
  const r = rec["result"];
  return rec["error"] !== undefined || (typeof r === "string" && r !== "ok" && r !== "patched" && r !== "unchanged" && r !== "deleted");
};
const outcome = (rec: TraceRecord): string => (failed(rec) ? ` → ${fieldText(rec["error"] ?? rec["result"])}` : "");

type Arrow = "->>" | "-->>" | "-x";
const at = (rec: TraceRecord) => ({ at: rec.t, seq: rec.seq, order: 0 });
const arrow = (rec: TraceRecord, from: string, to: string, a: Arrow, text: string): Step => ({ ...at(rec), from, to, arrow: a, text });
const note = (rec: TraceRecord, over: string, text: string): Step => ({ ...at(rec), note: over, text });

/**
 * A call from `from` to `to` that began at startMs and returned when `rec` was written: one arrow at
 * its start, or, when it took a second or more, an activation from its start and a return arrow.
 */
function call(rec: TraceRecord, startMs: number, from: string, to: string, text: string): Step[] {
  const tookMs = rec.t - startMs;
  const a: Arrow = failed(rec) ? "-x" : "->>";
  const start = { at: startMs, seq: rec.seq, order: startMs < rec.t ? 1 : 0, until: rec.t };
  if (tookMs < LONG_CALL_MS) return [{ ...start, from, to, arrow: a, text: `${text}${outcome(rec)}` }];
  return [
    { ...start, from, to, arrow: "->>", act: "+", text },
    { ...at(rec), from: to, to: from, arrow: failed(rec) ? "-x" : "-->>", act: "-", text: `${text} returns after ${durationText(tookMs)}${outcome(rec)}` },
  ];
}

function apiserverStep(rec: TraceRecord, ctx: Context): Step[] {
  const actor = str(rec, "actor");
  const pod = short(podOf(rec));
  if (rec.kind === "PodView") return podViewNote(rec, ctx);
  if (rec.kind === "WatchEvent" && isKubelet(actor)) return [arrow(rec, "apiserver", "config", "-->>", `watch ${fieldText(rec["type"])} ${pod}`)];
  // The kubelet's own requests are drawn from the status manager's records.
  if (actor === undefined || isKubelet(actor)) return [];
  const verb: Readonly<Record<string, string>> = { Create: "POST", Update: "PUT", Delete: "DELETE", PatchStatus: "PATCH status" };
  if (verb[rec.kind] === undefined) return [];
  const g = rec["gracePeriodSeconds"];
  // No explicit grace (null): the pod's own terminationGracePeriodSeconds applies; print nothing.
  const grace = g === undefined || g === null ? "" : ` grace ${fieldText(g)}s`;
  const who = actor === "user" ? "" : ` (${actor})`;
  return [arrow(rec, OUTSIDE, "apiserver", failed(rec) ? "-x" : "->>", `${verb[rec.kind]} ${pod}${grace}${who}${outcome(rec)}`)];
}

/** A kubelet as the apiserver's client: "kubelet", or "kubelet@<node>" in a cluster. */
const isKubelet = (actor: string | undefined): boolean => actor === "kubelet" || (actor !== undefined && actor.startsWith("kubelet@"));

/**
 * The node whose kubelet or runtime a record is about, in a cluster: the node of the process that
 * wrote it, or the kubelet the apiserver answered. None for the apiserver's own views (a PodView
 * names the pod's node, not a writer) and in a one-node run.
 */
function nodeOfRecord(rec: TraceRecord): string | undefined {
  const actor = str(rec, "actor");
  if (actor !== undefined && actor.startsWith("kubelet@")) return actor.slice("kubelet@".length);
  return rec.component === "apiserver" ? undefined : str(rec, "node");
}

/** A step's kubelet and runtime lanes as the node's participants. */
function onNode(step: Step, node: string): Step {
  const lane = (p: string) => (KUBELET_LANES.has(p) ? `kubelet@${node}` : p === "runtime" ? `runtime@${node}` : p);
  if ("note" in step) return { ...step, note: lane(step.note), ...(step.over === undefined ? {} : { over: lane(step.over) }) };
  return { ...step, from: lane(step.from), to: lane(step.to) };
}

function podViewNote(rec: TraceRecord, ctx: Context): Step[] {
  const pod = podOf(rec) ?? "";
  const status = rec["deleted"] === true ? "deleted" : `${fieldText(rec["status"])} ${fieldText(rec["ready"])}`;
  if (ctx.lastStatus.get(pod) === status) return [];
  ctx.lastStatus.set(pod, status);
  return [note(rec, "apiserver", `${short(pod)} ${status}`)];
}

function podworkerStep(rec: TraceRecord, ctx: Context): Step[] {
  const mode = str(rec, "mode");
  const work = mode === undefined ? "sync" : SYNC_OF_MODE[mode] ?? mode;
  const key = podOf(rec) ?? "";
  switch (rec.kind) {
    case "UpdatePod":
      return [arrow(rec, ctx.syncloop, "podworker", "->>", `UpdatePod ${fieldText(rec["updateType"] ?? "")}`)];
    case "SyncBegin":
      ctx.syncSince.set(key, { t: rec.t, work });
      return [{ ...at(rec), from: "podworker", to: "kubelet", arrow: "->>", act: "+", text: work }];
    case "SyncEnd": {
      const err = str(rec, "err");
      const since = ctx.syncSince.get(key);
      ctx.syncSince.delete(key);
      const name = mode === undefined ? since?.work ?? work : work;
      const took = since === undefined || rec.t - since.t < LONG_CALL_MS ? "" : ` after ${durationText(rec.t - since.t)}`;
      const text = err === undefined || err === "" ? `${name} done${took}` : `${name} error: ${err}`;
      return [{ ...at(rec), from: "kubelet", to: "podworker", arrow: "-->>", act: "-", text }];
    }
    case "TerminationRequested":
      return [note(rec, "podworker", `termination requested${rec["why"] === undefined ? "" : ` (${fieldText(rec["why"])})`}`)];
    case "UpdateDropped":
      return [note(rec, "podworker", `update dropped ${fieldText(rec["pinnedBy"] ?? "")}`)];
    default:
      return [];
  }
}

function runtimeStep(rec: TraceRecord, ctx: Context): Step[] {
  const what = str(rec, "container") ?? str(rec, "image") ?? "";
  if (CRI_METHOD_NAMES.has(rec.kind)) {
    if (isNoisy(rec)) return [];
    const outside = ctx.outside.has(rec.seq);
    const text = `${rec.kind} ${what}${outside ? " (not the kubelet)" : ""}`.replace(/ +/g, " ").trim();
    return call(rec, rec.t - (num(rec, "tookMs") ?? 0), outside ? OUTSIDE : "kuberuntime", "runtime", text);
  }
  if (rec.kind === "ContainerExited") {
    // The container's own process ends: the kubelet learns of it only when the PLEG relists.
    const code = num(rec, "exitCode");
    return [note(rec, "runtime", `${what} exited${code === undefined ? "" : ` (code ${code})`}`)];
  }
  const faults = new Set(["SandboxDied", "RuntimeRestart", "NodeReboot", "ContainerRemovedExternally"]);
  return faults.has(rec.kind) ? [note(rec, "runtime", `${rec.kind} ${what}`)] : [];
}

function kuberuntimeStep(rec: TraceRecord): Step[] {
  if (!/^(Sync|Kill)/.test(rec.kind)) return [];
  const what = `${rec.kind}${str(rec, "container") === undefined ? "" : ` ${str(rec, "container")}`}`;
  const phase = str(rec, "phase");
  if (phase === "begin") return [{ ...at(rec), from: "kubelet", to: "kuberuntime", arrow: "->>", act: "+", text: what }];
  if (phase === "end") return [{ ...at(rec), from: "kuberuntime", to: "kubelet", arrow: "-->>", act: "-", text: `${what} done` }];
  const since = num(rec, "sinceMs");
  return call(rec, since !== undefined && since < rec.t ? since : rec.t, "kubelet", "kuberuntime", what);
}

function plegStep(rec: TraceRecord, ctx: Context): Step[] {
  const sent = new Set(["ContainerStarted", "ContainerDied", "ContainerRemoved", "PodSync"]);
  if (rec.kind === "EventDropped") return [note(rec, "pleg", `event dropped ${fieldText(rec["type"])}`)];
  if (!sent.has(rec.kind)) return [];
  const code = num(rec, "exitCode");
  const what = str(rec, "container") ?? str(rec, "containerID") ?? short(podOf(rec));
  return [arrow(rec, "pleg", ctx.syncloop, "->>", `${rec.kind} ${what}${code === undefined ? "" : ` (code ${code})`}`)];
}

function proberStep(rec: TraceRecord, ctx: Context): Step[] {
  if (rec.kind !== "ProbeResult") return [];
  const probeType = fieldText(rec["probeType"]);
  const key = [podOf(rec), str(rec, "container"), probeType].join("\u0000");
  const result = fieldText(rec["result"]);
  if (ctx.lastProbe.get(key) === result) return [];
  ctx.lastProbe.set(key, result);
  // Liveness results go to syncLoop (it restarts the container); readiness and startup to status.
  return [arrow(rec, "prober", probeType === "liveness" ? ctx.syncloop : "status", "->>", `${probeType} ${fieldText(rec["container"])} ${result}`)];
}

function statusStep(rec: TraceRecord): Step[] {
  const a: Arrow = failed(rec) ? "-x" : "->>";
  if (rec.kind === "PatchStatus") {
    const phase = rec["phase"] === undefined || rec["phase"] === null ? "" : ` (${fieldText(rec["phase"])})`;
    return [arrow(rec, "status", "apiserver", a, `PATCH status${phase}${outcome(rec)}`)];
  }
  if (rec.kind === "DeletePod") return [arrow(rec, "status", "apiserver", a, `DELETE grace 0${outcome(rec)}`)];
  return [];
}

/** The steps one record draws (none, one, or a call's two). */
function stepsOf(rec: TraceRecord, ctx: Context): Step[] {
  if (rec.kind === "Event") return ctx.events ? [note(rec, rec.component, `${fieldText(rec["type"])} ${fieldText(rec["reason"])}: ${fieldText(rec["message"])}`)] : [];
  switch (rec.component) {
    case "apiserver": return apiserverStep(rec, ctx);
    case "config":
      if (rec["incoming"] === true || podOf(rec) === undefined) return [];
      return [arrow(rec, "config", ctx.syncloop, "->>", `${rec.kind} ${short(podOf(rec))}`)];
    case "podworker": return podworkerStep(rec, ctx);
    case "kuberuntime": return kuberuntimeStep(rec);
    case "runtime": return runtimeStep(rec, ctx);
    case "pleg": return plegStep(rec, ctx);
    case "prober": return proberStep(rec, ctx);
    case "status": return statusStep(rec);
    default: return [];
  }
}

/** The records written by goroutines that are not the kubelet's, by the kernel's view. */
function outsideRecords(kernel: KernelView | undefined): Set<number> {
  const out = new Set<number>();
  if (kernel === undefined) return out;
  // A cluster's kubelets are grouped per node ("kubelet@node-b", node/node_sim.ts).
  const outsideProcs = new Set(kernel.procs.filter((p) => p.group !== "kubelet" && !p.group.startsWith("kubelet@")).map((p) => p.id));
  kernel.recordProc.forEach((proc, seq) => void (outsideProcs.has(proc) && out.add(seq)));
  return out;
}

/** A violation as a note over the participants of the records it names (all of them when none draws). */
function violationNote(rec: TraceRecord, links: readonly number[], byRecord: ReadonlyMap<number, Step[]>, order: readonly string[]): Step {
  const names = new Set(links.flatMap((s) => (byRecord.get(s) ?? []).flatMap(stepParticipants)).map(participantId));
  const covered = order.filter((p) => names.has(participantId(p)));
  const first = covered[0] ?? order[0] ?? OUTSIDE;
  const last = covered[covered.length - 1] ?? order[order.length - 1] ?? first;
  return { ...at(rec), note: first, over: last, text: `❌ ${fieldText(rec["invariant"])} violated: ${fieldText(rec["message"])}`, maxChars: VIOLATION_CHARS };
}

/** Renders the diagram; with the kernel's view, calls made outside the kubelet come from the outside. */
export function renderMermaid(records: readonly TraceRecord[], opts: MermaidOptions = {}, kernel?: KernelView): string {
  const max = opts.maxMessages ?? DEFAULT_MAX_MESSAGES;
  const lanes = new Set(records.map((r) => r.component));
  const violations = records.filter((r) => r.component === "check" && r.kind === "InvariantViolated");
  const linked = new Set(violations.flatMap((v) => linkedRecords(v, records)));
  const ctx: Context = {
    syncloop: lanes.has("syncloop") ? "syncloop" : "kubelet", events: opts.events ?? false, lastProbe: new Map(), lastStatus: new Map(),
    outside: outsideRecords(kernel), syncSince: new Map(),
  };
  const byRecord = new Map<number, Step[]>();
  for (const rec of records) {
    if (!linked.has(rec.seq) && opts.pod !== undefined && !podMatches(podOf(rec), opts.pod)) continue;
    let steps = stepsOf(rec, ctx);
    const node = steps.length === 0 ? undefined : nodeOfRecord(rec);
    if (node !== undefined) steps = steps.map((st) => onNode(st, node));
    // A record a violation names is drawn even when it is no interaction: a relist that saw
    // nothing is exactly the missing event.
    if (linked.has(rec.seq)) {
      const bare = () => { const n = note(rec, rec.component, phrase(rec)); const on = nodeOfRecord(rec); return on === undefined ? n : onNode(n, on); };
      steps = (steps.length > 0 ? steps : [bare()]).map((s) => ({ ...s, text: `⚠ ${s.text}` }));
    }
    if (steps.length > 0) byRecord.set(rec.seq, steps);
  }
  const steps = sortSteps([...byRecord.values()].flat());
  const drawn = balanceActivations(steps.slice(0, max));
  const order = participants(drawn);
  for (const v of violations) {
    if (opts.pod !== undefined && !podMatches(podOf(v), opts.pod)) continue;
    const n = violationNote(v, linkedRecords(v, records), byRecord, order);
    if (drawn.length < max) drawn.push(n);
  }
  return lines(records, sortSteps(drawn), steps.length - Math.min(max, steps.length), max).join("\n") + "\n";
}

/** The participants by name, in the fixed order; a cluster's nodes after it, each node's kubelet then its runtime. */
function participants(steps: readonly Step[]): string[] {
  const used = new Map<string, string>();
  for (const s of steps) for (const p of stepParticipants(s)) used.set(participantId(p), p);
  const order: string[] = PARTICIPANT_ORDER.filter((p) => used.has(p));
  const rest = [...used.entries()].filter(([id]) => !order.includes(id)).map(([, name]) => name);
  const nodeKey = (name: string) => {
    const at = name.indexOf("@");
    return at < 0 ? null : `${name.slice(at + 1)}\u0000${name.startsWith("kubelet@") ? 0 : 1}`;
  };
  const onNodes = rest.filter((n) => nodeKey(n) !== null).sort((a, b) => byString(nodeKey(a)!, nodeKey(b)!));
  const others = rest.filter((n) => nodeKey(n) === null).sort((a, b) => byString(participantId(a), participantId(b)));
  return [...order, ...onNodes, ...others];
}

function lines(records: readonly TraceRecord[], steps: readonly Step[], omitted: number, max: number): string[] {
  const order = participants(steps);
  const out = ["sequenceDiagram"];
  const run = runInfo(records);
  if (run !== undefined) out.push(`    %% kubelet-sim ${mermaidText(`scenario ${run.scenario} seed ${run.seed} strategy ${run.strategy}`)}`);
  // The outside (a user, a garbage collector, crictl) is an actor, not one of the kubelet's loops.
  // A name that is not an id (kubelet@node-a) is shown through an alias.
  const declare = (p: string) => (participantId(p) === p ? p : `${participantId(p)} as ${p}`);
  for (const p of order) out.push(p === OUTSIDE ? `    actor ${p}` : `    participant ${declare(p)}`);
  for (const s of steps) out.push(stepLine(s));
  if (omitted > 0) {
    const ids = order.map(participantId);
    const span = ids.length > 1 ? `${ids[0]},${ids[ids.length - 1]}` : ids[0] ?? "apiserver";
    if (order.length === 0) out.push(`    participant ${span}`);
    out.push(`    Note over ${span}: ${mermaidText(`${omitted} more step(s) not shown (maxMessages ${max})`)}`);
  }
  return out;
}
