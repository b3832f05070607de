// pod_workers.yaml's sequences (TestUpdatePodDoesNotForgetSyncPodKill, TestSyncKnownPods,
// TestUpdatePodForRuntimePod, TestTerminalPhaseTransition, TestStaticPodExclusion and the like).
// A step is either structured ({op: UpdatePod, updateType, pod | runningPod}, SyncKnownPods,
// seedPodSyncStatus, SetTerminal, GetWork) or one of the short sentences the file writes
// ("UpdatePod SyncPodKill for every uid except "2" and "14"; even uids also carry
// deletionTimestamp=now"), each read by one pattern; a sentence no pattern reads is the vector's
// error, never skipped over. Then `then: drain` and the step's `expect`.
import { formatRFC3339 } from "../apiserver/time.ts";
import type { Pod } from "../k8s/pod.ts";
import { PodSyncStatus } from "../kubelet/pod_sync_status.ts";
import type { SyncPodType } from "../kubelet/types.ts";
import { show } from "./diff.ts";
import { timeTokenMs } from "./encodings.ts";
import { parsePart } from "./oracle2_pods.ts";
import { VectorError } from "./outcome.ts";
import { PodWorkersHarness } from "./pod_workers_harness.ts";
import { optionsOf, podFrom, updateSchema, updateTypeOf, updateTypeSchema, vectorPod } from "./pod_workers_encoding.ts";
import { checkStep } from "./pod_workers_checks.ts";

type Step = Record<string, unknown>;

/** Runs the steps on one harness; returns the diff lines. */
export function runPodWorkerSteps(steps: readonly Step[], timeIncrementing: boolean): string[] {
  const h = new PodWorkersHarness(timeIncrementing);
  const known = new Map<string, Pod>();
  const diffs: string[] = [];
  for (const [i, s] of steps.entries()) {
    const where = `steps[${i}] (${String(s["op"])})`;
    try {
      apply(h, known, s, where);
    } catch (err) {
      if (err instanceof VectorError) throw new VectorError(`${where}: ${err.message}`);
      throw err;
    }
    drainAsTold(h, s["then"], where);
    diffs.push(...checkStep(h, s["expect"], [...known.keys()]).map((d) => `${where} ${d}`));
  }
  return diffs;
}

/** then: drain | drainAll | "drain all but "5-static"" (drainWorkersExcept). */
function drainAsTold(h: PodWorkersHarness, then: unknown, where: string): void {
  if (then === undefined) return;
  if (typeof then !== "string") throw new VectorError(`${where}: cannot interpret then ${show(then)}`);
  const except = /^drain(?:All)? (?:all )?(?:but|except) (.+)$/i.exec(then);
  if (then !== "drain" && then !== "drainAll" && except === null) throw new VectorError(`${where}: cannot interpret then ${JSON.stringify(then)}`);
  const d = h.drain(except === null ? [] : quoted(except[1]!));
  if (d !== null) throw new VectorError(`${where}: ${d}`);
}

/** The most pods a sentence may name: the Go tests use 20; a bound keeps a typo from running for hours. */
const MAX_PODS = 1000;

const RANGE = /^uid "(\d+)"\.\."(\d+)" \(name "([^"]*)", ns "([^"]*)"\)$/;
const EVERY_EXCEPT = /^every uid except ((?:"[^"]+"(?:, | and )?)+?)(; even uids also carry deletionTimestamp=now)?$/;
const LIST = /^((?:"[^"]+"(?:, | and )?)+)$/;

function apply(h: PodWorkersHarness, known: Map<string, Pod>, s: Step, where: string): void {
  const op = String(s["op"] ?? "");
  if (op === "forEachPod") return forEachPod(h, known, s);
  if (op === "SyncKnownPods") return syncKnownPods(h, known, s);
  if (op === "seedPodSyncStatus") return seed(h, s);
  if (op === "SetTerminal") {
    for (const uid of uidsOf(s)) h.syncer.terminal.add(uid);
    return;
  }
  if (op === "GetWork") {
    h.queue.takeAll();
    return;
  }
  if ((op === "UpdatePod" || op === "UpdatePodForRuntimePod") && (s["pod"] !== undefined || s["runningPod"] !== undefined)) {
    const o = optionsOf(parsePart(updateSchema, s, where));
    if (o.Pod !== undefined) known.set(o.Pod.metadata.uid!, o.Pod);
    h.updatePod(o);
    return;
  }
  const m = /^UpdatePod(?: (SyncPod\w+))? for (.+)$/.exec(op);
  if (m === null) throw new VectorError(`cannot interpret op ${JSON.stringify(op)}`);
  const typeName = updateTypeSchema.safeParse(m[1] ?? s["updateType"]);
  if (!typeName.success) throw new VectorError(`unknown update type ${show(m[1] ?? s["updateType"])}`);
  for (const pod of targetsOf(m[2]!, known, h.sim.nowMs)) {
    known.set(pod.metadata.uid!, pod);
    h.updatePod({ UpdateType: updateTypeOf(typeName.data), Pod: pod });
  }
}

/** The UIDs a step names: `uid` or `uids`. */
function uidsOf(s: Step): string[] {
  const one = s["uid"];
  const many = s["uids"];
  if (typeof one === "string") return [one];
  if (Array.isArray(many) && many.every((u) => typeof u === "string")) return many as string[];
  throw new VectorError("name the pod: uid or uids");
}

/** SyncKnownPods(desired): the desired pods as UIDs of known pods, or as pods. */
function syncKnownPods(h: PodWorkersHarness, known: Map<string, Pod>, s: Step): void {
  const desired = (s["desired"] as unknown[] | undefined) ?? [];
  const pods = desired.map((d) => {
    if (typeof d === "string") return known.get(d) ?? podFrom({ uid: d, name: "name", namespace: "ns", terminationGracePeriodSeconds: 30 });
    return podFrom(parsePart(vectorPod, d, "desired"));
  });
  h.lastSync = h.workers.SyncKnownPods(pods);
}

/**
 * The Go tests' time.Now() in a status they seed by hand: the wall clock, well after the fake clock's
 * Unix(1); here one hour of virtual time, so "now-2s" is a set (non-zero) time.
 */
const WALL_CLOCK_MS = 3_600_000;

/** A podSyncStatus set by hand, as TestUpdatePodForTerminatedRuntimePod seeds one; times are tokens against the wall clock. */
function seed(h: PodWorkersHarness, s: Step): void {
  const status = s["podSyncStatus"];
  if (typeof status !== "object" || status === null) throw new VectorError("seedPodSyncStatus needs podSyncStatus");
  for (const uid of uidsOf(s)) {
    const st = status as Record<string, unknown>;
    const p = new PodSyncStatus(typeof st["fullname"] === "string" ? st["fullname"] : "");
    const ms = (k: string): number => {
      const v = st[k];
      if (v === undefined) return -1;
      if (typeof v === "number") return v * 1000;
      const t = typeof v === "string" ? timeTokenMs(v, WALL_CLOCK_MS) : undefined;
      if (t === undefined) throw new VectorError(`podSyncStatus.${k}: not a time ${show(v)}`);
      return t;
    };
    p.startedAtMs = ms("startedAt");
    p.terminatingAtMs = ms("terminatingAt");
    p.terminatedAtMs = ms("terminatedAt");
    p.startedTerminating = st["startedTerminating"] === true;
    p.finished = st["finished"] === true;
    if (typeof st["gracePeriod"] === "number") p.gracePeriod = st["gracePeriod"];
    h.workers.podSyncStatuses.set(uid, p);
  }
}

/** The pods a sentence names: a numbered range, "every uid except ...", or a quoted list of known uids. */
function targetsOf(text: string, known: Map<string, Pod>, nowMs: number): Pod[] {
  const range = RANGE.exec(text);
  if (range !== null) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    if (to - from >= MAX_PODS) throw new VectorError(`the range "${from}".."${to}" names more than ${MAX_PODS} pods`);
    return Array.from({ length: to - from + 1 }, (_, k) => podFrom({ uid: String(from + k), name: range[3]!, namespace: range[4]!, terminationGracePeriodSeconds: 30 }));
  }
  const except = EVERY_EXCEPT.exec(text);
  if (except !== null) {
    const skip = new Set(quoted(except[1]!));
    const evenDeleted = except[2] !== undefined;
    return [...known.values()]
      .filter((p) => !skip.has(p.metadata.uid!))
      .map((p) => (evenDeleted && Number(p.metadata.uid) % 2 === 0 ? { ...p, metadata: { ...p.metadata, deletionTimestamp: formatRFC3339(nowMs) } } : p));
  }
  const list = LIST.exec(text);
  if (list !== null) {
    const uids = quoted(list[1]!);
    const missing = uids.filter((u) => !known.has(u));
    if (missing.length > 0) throw new VectorError(`unknown uids ${show(missing)}`);
    return uids.map((u) => known.get(u)!);
  }
  throw new VectorError(`cannot interpret the pods ${JSON.stringify(text)}`);
}

export function quoted(text: string): string[] {
  return [...text.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

/** forEachPod: for each pod of 'uid/name "0".."19", namespace ns', the sequence of UpdatePod calls. */
function forEachPod(h: PodWorkersHarness, known: Map<string, Pod>, s: Step): void {
  const m = /^uid\/name "(\d+)"\.\."(\d+)", namespace (\S+)$/.exec(String(s["pods"] ?? ""));
  if (m === null) throw new VectorError(`cannot interpret pods ${show(s["pods"])}`);
  const sequence = (s["sequence"] as unknown[] | undefined) ?? [];
  const types: SyncPodType[] = [];
  for (const item of sequence) {
    const t = /^UpdatePod (SyncPod\w+)$/.exec(String(item));
    const parsed = updateTypeSchema.safeParse(t?.[1]);
    if (!parsed.success) throw new VectorError(`cannot interpret sequence item ${show(item)}`);
    types.push(updateTypeOf(parsed.data));
  }
  if (Number(m[2]) - Number(m[1]) >= MAX_PODS) throw new VectorError(`the range names more than ${MAX_PODS} pods`);
  for (let n = Number(m[1]); n <= Number(m[2]); n++) {
    const pod = podFrom({ uid: String(n), name: String(n), namespace: m[3]!, terminationGracePeriodSeconds: 30 });
    known.set(pod.metadata.uid!, pod);
    for (const t of types) h.updatePod({ UpdateType: t, Pod: pod });
  }
}
