// pod_workers.yaml's long sequences (TestUpdatePodDoesNotForgetSyncPodKill, TestSyncKnownPods and
// the like), whose steps are written as short sentences: "UpdatePod SyncPodKill for every uid
// except "2" and "14"; even uids also carry deletionTimestamp=now". Each sentence form is read by
// one pattern below; a sentence no pattern reads fails the vector instead of being skipped over.
import { formatRFC3339 } from "../apiserver/time.ts";
import type { Pod } from "../k8s/pod.ts";
import type { SyncPodType } from "../kubelet/types.ts";
import { diffValues, show } from "./diff.ts";
import { goValue } from "./go_equal.ts";
import { PodWorkersHarness, type SyncRecord } from "./pod_workers_harness.ts";
import { podFrom, updateTypeOf, updateTypeSchema } from "./pod_workers_encoding.ts";

type Step = Record<string, unknown>;

/** Runs the steps on one harness; returns the diff lines. */
export function runPodWorkerSteps(steps: readonly Step[], timeIncrementing: boolean): string[] {
  const h = new PodWorkersHarness(timeIncrementing);
  const known = new Map<string, Pod>();
  const diffs: string[] = [];
  for (const [i, s] of steps.entries()) {
    const where = `steps[${i}] (${String(s["op"])})`;
    const err = apply(h, known, s);
    if (err !== null) {
      diffs.push(`${where}: ${err}`);
      break;
    }
    const then = s["then"];
    if (then === "drain" || then === "drainAll") {
      const d = h.drain();
      if (d !== null) diffs.push(`${where}: ${d}`);
    } else if (then !== undefined) {
      diffs.push(`${where}: cannot interpret then ${JSON.stringify(then)}`);
    }
    diffs.push(...check(h, s["expect"], [...known.keys()]).map((d) => `${where} ${d}`));
  }
  return diffs;
}

const RANGE = /^uid "(\d+)"\.\."(\d+)" \(name "([^"]*)", ns "([^"]*)"\)$/;
const EVERY_EXCEPT = /^every uid except ((?:"[^"]+"(?:, | and )?)+?)(; even uids also carry deletionTimestamp=now)?$/;
const LIST = /^((?:"[^"]+"(?:, | and )?)+)$/;

function apply(h: PodWorkersHarness, known: Map<string, Pod>, s: Step): string | null {
  const op = String(s["op"] ?? "");
  if (op === "forEachPod") return forEachPod(h, known, s);
  if (op === "SyncKnownPods") {
    const desired = (s["desired"] as unknown[] | undefined) ?? [];
    h.workers.SyncKnownPods(desired.map((uid) => known.get(String(uid)) ?? podFrom({ uid: String(uid), name: "name", namespace: "ns", terminationGracePeriodSeconds: 30 })));
    return null;
  }
  const m = /^UpdatePod(?: (SyncPod\w+))? for (.+)$/.exec(op);
  if (m === null) return "cannot interpret op";
  const typeName = updateTypeSchema.safeParse(m[1] ?? s["updateType"]);
  if (!typeName.success) return `unknown update type ${show(m[1] ?? s["updateType"])}`;
  const targets = targetsOf(m[2]!, known, h.sim.nowMs);
  if (typeof targets === "string") return targets;
  for (const pod of targets) {
    known.set(pod.metadata.uid!, pod);
    h.updatePod({ UpdateType: updateTypeOf(typeName.data), Pod: pod });
  }
  return null;
}

/** The pods a sentence names: a numbered range, "every uid except ...", or a quoted list of known uids. */
function targetsOf(text: string, known: Map<string, Pod>, nowMs: number): Pod[] | string {
  const range = RANGE.exec(text);
  if (range !== null) {
    const [from, to] = [Number(range[1]), Number(range[2])];
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
    return missing.length === 0 ? uids.map((u) => known.get(u)!) : `unknown uids ${show(missing)}`;
  }
  return `cannot interpret the pods ${JSON.stringify(text)}`;
}

function quoted(text: string): string[] {
  return [...text.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

/** forEachPod: for each pod of 'uid/name "0".."19", namespace ns', the sequence of UpdatePod calls. */
function forEachPod(h: PodWorkersHarness, known: Map<string, Pod>, s: Step): string | null {
  const m = /^uid\/name "(\d+)"\.\."(\d+)", namespace (\S+)$/.exec(String(s["pods"] ?? ""));
  if (m === null) return `cannot interpret pods ${show(s["pods"])}`;
  const sequence = (s["sequence"] as unknown[] | undefined) ?? [];
  const types: SyncPodType[] = [];
  for (const item of sequence) {
    const t = /^UpdatePod (SyncPod\w+)$/.exec(String(item));
    const parsed = updateTypeSchema.safeParse(t?.[1]);
    if (!parsed.success) return `cannot interpret sequence item ${show(item)}`;
    types.push(updateTypeOf(parsed.data));
  }
  for (let n = Number(m[1]); n <= Number(m[2]); n++) {
    const pod = podFrom({ uid: String(n), name: String(n), namespace: m[3]!, terminationGracePeriodSeconds: 30 });
    known.set(pod.metadata.uid!, pod);
    for (const t of types) h.updatePod({ UpdateType: t, Pod: pod });
  }
  return null;
}

/** The expectations a step may state, each against the workers as they are now. */
function check(h: PodWorkersHarness, expect: unknown, knownUids: readonly string[]): string[] {
  if (expect === undefined || expect === null) return [];
  const e = expect as Record<string, unknown>;
  const w = h.workers;
  const diffs: string[] = [];
  const eq = (field: string, want: unknown, got: unknown) => diffs.push(...diffValues(want, got, field));
  const queries: Record<string, (uid: string) => boolean> = {
    ShouldPodContainersBeTerminating: (u) => w.ShouldPodContainersBeTerminating(u),
    IsPodTerminationRequested: (u) => w.IsPodTerminationRequested(u),
    CouldHaveRunningContainers: (u) => w.CouldHaveRunningContainers(u),
    ShouldPodContentBeRemoved: (u) => w.ShouldPodContentBeRemoved(u),
    ShouldPodRuntimeBeRemoved: (u) => w.ShouldPodRuntimeBeRemoved(u),
    IsPodKnownTerminated: (u) => w.IsPodKnownTerminated(u),
  };
  for (const [key, want] of Object.entries(e)) {
    if (key in queries) {
      for (const [uid, v] of Object.entries(want as Record<string, unknown>)) eq(`${key}(${uid})`, v, queries[key]!(uid));
    } else if (key === "openWorkerChannels") eq(key, want, w.podUpdates.size);
    else if (key === "workerChannelsFor") eq(key, [...(want as string[])].sort(), [...w.podUpdates.keys()].sort());
    else if (key === "trackedPodSyncStatuses") eq(key, want, w.podSyncStatuses.size);
    else if (key === "processedPods") eq(key, want, h.syncer.processed.size);
    else if (key === "historyPerPodIsOneOf") diffs.push(...checkHistories(h, want as unknown[][], knownUids));
    else diffs.push(`cannot check ${key}`);
  }
  return diffs;
}

/** Every pod's recorded calls must equal one of the allowed histories (names are per pod, so left out). */
function checkHistories(h: PodWorkersHarness, allowed: readonly unknown[][], uids: readonly string[]): string[] {
  const encode = (r: SyncRecord) => goValue({ fn: r.fn, updateType: r.updateType === undefined ? undefined : typeName(r.updateType), gracePeriod: r.gracePeriod, terminated: r.terminated });
  const options = allowed.map((hist) => goValue(hist));
  return uids.flatMap((uid) => {
    const got = (h.syncer.processed.get(uid) ?? []).map(encode);
    return options.some((o) => diffValues(o, got).length === 0) ? [] : [`history of pod ${uid}: ${show(got)} is none of the allowed ones`];
  });
}

function typeName(t: SyncPodType): string {
  return { sync: "SyncPodSync", update: "SyncPodUpdate", create: "SyncPodCreate", kill: "SyncPodKill" }[t];
}
