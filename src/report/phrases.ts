// The timeline's phrasebook: what an important record kind means, in words. A kind without a phrase
// (or a record missing the fields its phrase needs) prints as `kind key=value ...`, so a new kind
// in the trace is visible at once, just less pretty.
import { CRI_METHODS } from "../cri/methods.ts";
import { formatDuration } from "../sim/duration.ts";
import { fieldText, keyValues, num, str, type TraceRecord } from "./records.ts";

type Phrase = (rec: TraceRecord) => string | undefined;

/** The names of CRI methods, traced by the runtime with kind = method. */
export const CRI_METHOD_NAMES: ReadonlySet<string> = new Set(CRI_METHODS);

/** The pod worker's work types, as the kubelet names the sync it runs for each. */
const SYNC_OF_MODE: Readonly<Record<string, string>> = {
  sync: "SyncPod",
  terminating: "SyncTerminatingPod",
  terminated: "SyncTerminatedPod",
};

const PLEG_EVENTS = new Set(["ContainerStarted", "ContainerDied", "ContainerRemoved", "PodSync", "ContainerChanged"]);

/** " (error: ...)" when the record carries an error, else "". */
function errorSuffix(rec: TraceRecord): string {
  const e = str(rec, "error") ?? str(rec, "err");
  return e === undefined || e === "" ? "" : ` failed: ${e}`;
}

function resultSuffix(rec: TraceRecord): string {
  const r = str(rec, "result");
  if (r === undefined || r === "ok") return errorSuffix(rec);
  return ` → ${r}${errorSuffix(rec)}`;
}

const event: Phrase = (rec) => {
  const reason = str(rec, "reason");
  if (reason === undefined) return undefined;
  const object = str(rec, "object");
  const where = object === undefined ? "" : ` [${object}]`;
  return `Event ${str(rec, "type") ?? "?"} ${reason}: ${str(rec, "message") ?? ""}${where}`;
};

const podView: Phrase = (rec) => {
  const status = str(rec, "status");
  if (status === undefined) return undefined;
  const cols = `${str(rec, "ready") ?? "?"} ${status}, restarts ${str(rec, "restarts") ?? "?"}`;
  return rec["deleted"] === true ? `pod is gone from the apiserver (last seen ${cols})` : `kubectl get: ${cols}`;
};

const syncBegin: Phrase = (rec) => {
  const mode = str(rec, "mode");
  return mode === undefined ? "begins a sync" : `begins ${SYNC_OF_MODE[mode] ?? mode}`;
};

const syncEnd: Phrase = (rec) => {
  const mode = str(rec, "mode");
  const what = mode === undefined ? "the sync" : SYNC_OF_MODE[mode] ?? mode;
  const err = str(rec, "err");
  return err === undefined || err === "" ? `finished ${what}` : `finished ${what} with error: ${err}`;
};

const relist: Phrase = (rec) => {
  const err = str(rec, "err");
  if (err !== undefined) return `relist failed: ${err}`;
  const events = num(rec, "events");
  const pods = num(rec, "pods");
  if (events === undefined || pods === undefined) return undefined;
  return `relist: ${pods} pod(s), ${events} event(s)`;
};

const plegEvent: Phrase = (rec) => {
  const what = str(rec, "container") ?? str(rec, "containerID");
  const code = num(rec, "exitCode");
  const filtered = rec["filtered"] === true ? " (filtered, not sent)" : "";
  return `PLEG ${rec.kind}${what === undefined ? "" : ` ${what}`}${code === undefined ? "" : ` exit code ${code}`}${filtered}`;
};

const criCall: Phrase = (rec) => {
  const target = str(rec, "container") ?? str(rec, "image") ?? "";
  const id = str(rec, "id");
  const took = num(rec, "tookMs");
  const idText = id === undefined ? "" : ` (${id})`;
  const tookText = took === undefined ? "" : ` in ${took}ms`;
  return `CRI ${rec.kind}${target === "" ? "" : ` ${target}`}${idText}${tookText}${execPurpose(rec)}${resultSuffix(rec)}`;
};

/** What an ExecSync ran for: ": postStart hook [sh -c ...]", ": liveness probe [cat /tmp/healthy]". */
function execPurpose(rec: TraceRecord): string {
  if (rec.kind !== "ExecSync") return "";
  const cmd = str(rec, "cmd");
  const what = str(rec, "hook") !== undefined ? `${str(rec, "hook")} hook` : str(rec, "probe") !== undefined ? `${str(rec, "probe")} probe` : undefined;
  if (what === undefined) return "";
  return `: ${what}${cmd === undefined || cmd === "" ? "" : ` [${cmd}]`}`;
}

const containerExited: Phrase = (rec) => {
  const code = num(rec, "exitCode");
  const reason = str(rec, "reason");
  return `container ${str(rec, "container") ?? "?"} exited${code === undefined ? "" : ` with code ${code}`}${reason === undefined ? "" : ` (${reason})`}`;
};

const probeResult: Phrase = (rec) => {
  const result = str(rec, "result");
  if (result === undefined) return undefined;
  const output = str(rec, "output");
  const out = output === undefined || output === "" || result === "Success" ? "" : `: ${output}`;
  return `${str(rec, "probeType") ?? "?"} probe of ${str(rec, "container") ?? "?"}: ${result}${out}`;
};

const patchStatus: Phrase = (rec) => {
  const phase = rec["phase"];
  const by = rec.component === "apiserver" ? ` by ${str(rec, "actor") ?? "?"}` : "";
  const phaseText = phase === undefined || phase === null ? "" : ` phase=${fieldText(phase)}`;
  return `PATCH pod status${by}${phaseText}${resultSuffix(rec)}`;
};

const del: Phrase = (rec) => {
  const grace = rec["gracePeriodSeconds"];
  const by = rec.component === "apiserver" ? ` by ${str(rec, "actor") ?? "?"}` : "";
  const graceText = grace === undefined || grace === null ? "" : ` grace=${fieldText(grace)}s`;
  return `DELETE pod${by}${graceText}${resultSuffix(rec)}`;
};

const create: Phrase = (rec) => `POST pod by ${str(rec, "actor") ?? "?"}${resultSuffix(rec)}`;

const watchEvent: Phrase = (rec) => {
  const type = str(rec, "type");
  if (type === undefined) return undefined;
  return `watch ${fieldText(rec["watch"])} delivers ${type} to ${str(rec, "actor") ?? "?"}`;
};

/** The config source's PodUpdate ops (ADD, UPDATE, DELETE, REMOVE, RECONCILE, SET, RESTORE). */
const configOp: Phrase = (rec) => {
  const source = str(rec, "source") ?? "?";
  const pods = rec["pods"];
  if (rec["incoming"] === true && Array.isArray(pods)) return `receives ${rec.kind} of ${pods.length} pod(s) from ${source}`;
  if (rec["pod"] === null) return `${rec.kind} from ${source} (source ready)`;
  return `${rec.kind} from ${source} to syncLoop`;
};

/** The checker's decision; the record keeps durations in ms, the line writes them as the scenario does. */
const expectation: Phrase = (rec) => {
  const text = str(rec, "expectation");
  if (text === undefined || typeof rec["ok"] !== "boolean") return undefined;
  const written = text.replace(/^(at )(\d+)ms /, (_, at: string, ms: string) => `${at}${formatDuration(Number(ms))} `).replace(/ by (\d+)ms$/, (_, ms: string) => ` by ${formatDuration(Number(ms))}`);
  return `expectation ${fieldText(rec["index"])} ${rec["ok"] ? "held" : "failed"}: ${written}`;
};

const PHRASES: Readonly<Record<string, Phrase>> = {
  Event: event,
  PodView: podView,
  SyncBegin: syncBegin,
  SyncEnd: syncEnd,
  TerminationRequested: (rec) => `termination requested${str(rec, "why") === undefined ? "" : ` (${str(rec, "why")})`}`,
  UpdatePod: (rec) => `UpdatePod ${fieldText(rec["updateType"] ?? "")}`.trimEnd(),
  relist,
  ContainerExited: containerExited,
  ProbeResult: probeResult,
  PatchStatus: patchStatus,
  Delete: del,
  DeletePod: del,
  Create: create,
  WatchEvent: watchEvent,
  Expectation: expectation,
  PodNeverRan: (rec) => (str(rec, "why") === undefined ? undefined : `never ran: ${str(rec, "why")}`),
};

/** The words for one record: its phrase, or the generic `kind key=value ...`. */
export function phrase(rec: TraceRecord): string {
  let p: Phrase | undefined = PHRASES[rec.kind];
  if (rec.component === "runtime" && CRI_METHOD_NAMES.has(rec.kind)) p = criCall;
  else if (rec.component === "pleg" && PLEG_EVENTS.has(rec.kind)) p = plegEvent;
  else if (rec.component === "config" && /^[A-Z]+$/.test(rec.kind)) p = configOp;
  // Only the apiserver's request records have these shapes; other components reuse the names.
  if ((rec.kind === "Create" || rec.kind === "WatchEvent") && rec.component !== "apiserver") p = undefined;
  const words = p?.(rec);
  if (words !== undefined) return words;
  const kv = keyValues(rec);
  return kv === "" ? rec.kind : `${rec.kind} ${kv}`;
}
