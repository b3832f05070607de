// Runs pod_workers.yaml vectors (pod_workers_test.go): TestUpdatePod through UpdatePod and the
// workers, allowPodStart, calculateEffectiveGracePeriod and removeTerminatedWorker on seeded state,
// and the long sequences (pod_workers_steps.ts). Harness: pod_workers_harness.ts.
import { z } from "zod";
import type { Pod } from "../k8s/pod.ts";
import { calculateEffectiveGracePeriod, PodSyncStatus, type UpdatePodOptions } from "../kubelet/pod_sync_status.ts";
import { ConfigSourceAnnotationKey, SyncPodCreate, SyncPodKill, SyncPodSync, SyncPodUpdate, type SyncPodType } from "../kubelet/types.ts";
import { diffValues, show } from "./diff.ts";
import { goValue } from "./go_equal.ts";
import { parsePart } from "./oracle2_pods.ts";
import type { Outcome } from "./outcome.ts";
import { PodWorkersHarness } from "./pod_workers_harness.ts";
import { runPodWorkerSteps } from "./pod_workers_steps.ts";

export const podWorkersVectorSchema = z.looseObject({
  name: z.string(),
  id: z.string().optional(),
  harness: z.enum(["podWorkers", "timeIncrementingWorkers"]).optional(),
  function: z.string().optional(),
  steps: z.array(z.record(z.string(), z.unknown())).optional(),
  expect: z.unknown().optional(),
});

export type PodWorkersVector = z.infer<typeof podWorkersVectorSchema>;

export function runPodWorkersVector(v: PodWorkersVector): Outcome {
  const fn = v.function ?? "";
  if (fn.startsWith("allowPodStart")) return runAllowPodStart(v);
  if (fn.startsWith("calculateEffectiveGracePeriod")) return runGracePeriod(v);
  if (fn.startsWith("removeTerminatedWorker")) return runRemoveTerminatedWorker(v);
  if ((v as { update?: unknown }).update !== undefined) return runUpdatePod(v);
  if (v.steps !== undefined) return runPodWorkerSteps(v.steps, v.harness === "timeIncrementingWorkers");
  return [`vector has no function, steps or update to run`];
}

/** The vectors' pod: {uid, namespace, name, static, terminationGracePeriodSeconds, phase, labels, deletion*}. */
export const vectorPod = z.looseObject({
  uid: z.string(),
  namespace: z.string().optional(),
  name: z.string().optional(),
  static: z.boolean().optional(),
  terminationGracePeriodSeconds: z.number().int().optional(),
  phase: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  deletionTimestamp: z.string().optional(),
  deletionGracePeriodSeconds: z.number().int().optional(),
});
type VectorPod = z.infer<typeof vectorPod>;

export function podFrom(p: VectorPod): Pod {
  const metadata: Pod["metadata"] = {
    uid: p.uid,
    name: p.name ?? "",
    namespace: p.namespace ?? "",
    ...(p.labels === undefined ? {} : { labels: p.labels }),
    ...(p.static === true ? { annotations: { [ConfigSourceAnnotationKey]: "file" } } : {}),
    ...(p.deletionTimestamp === undefined ? {} : { deletionTimestamp: p.deletionTimestamp }),
    ...(p.deletionGracePeriodSeconds === undefined ? {} : { deletionGracePeriodSeconds: p.deletionGracePeriodSeconds }),
  };
  const spec: Pod["spec"] = { containers: [], ...(p.terminationGracePeriodSeconds === undefined ? {} : { terminationGracePeriodSeconds: p.terminationGracePeriodSeconds }) };
  return { metadata, spec, ...(p.phase === undefined ? {} : { status: { phase: p.phase as NonNullable<Pod["status"]>["phase"] } }) };
}

/** The pod back in the vectors' encoding, for comparison. */
function encodePod(pod: Pod | undefined): VectorPod | undefined {
  if (pod === undefined) return undefined;
  const m = pod.metadata;
  return {
    uid: m.uid ?? "",
    namespace: m.namespace ?? "",
    name: m.name,
    static: m.annotations?.[ConfigSourceAnnotationKey] === "file",
    ...(pod.spec.terminationGracePeriodSeconds == null ? {} : { terminationGracePeriodSeconds: pod.spec.terminationGracePeriodSeconds }),
    ...(pod.status?.phase === undefined ? {} : { phase: pod.status.phase }),
    ...(m.labels === undefined ? {} : { labels: m.labels }),
    ...(m.deletionTimestamp == null ? {} : { deletionTimestamp: m.deletionTimestamp }),
    ...(m.deletionGracePeriodSeconds == null ? {} : { deletionGracePeriodSeconds: m.deletionGracePeriodSeconds }),
  };
}

const UPDATE_TYPES: Readonly<Record<string, SyncPodType>> = { SyncPodSync, SyncPodUpdate, SyncPodCreate, SyncPodKill };
export const updateTypeSchema = z.enum(["SyncPodSync", "SyncPodUpdate", "SyncPodCreate", "SyncPodKill"]);
export function updateTypeOf(name: z.infer<typeof updateTypeSchema> | undefined): SyncPodType {
  return UPDATE_TYPES[name ?? "SyncPodSync"]!;
}
function updateTypeName(t: SyncPodType): string {
  return Object.entries(UPDATE_TYPES).find(([, v]) => v === t)![0];
}

/** UpdatePodOptions in the vectors' encoding (see withZeroUpdateTypes for an absent updateType). */
function encodeUpdate(o: UpdatePodOptions | null): unknown {
  if (o === null) return undefined;
  const kill = o.KillPodOptions;
  return {
    updateType: updateTypeName(o.UpdateType),
    pod: encodePod(o.Pod),
    ...(o.RunningPod === undefined ? {} : { runningPod: { uid: o.RunningPod.id, name: o.RunningPod.name, namespace: o.RunningPod.namespace } }),
    ...(kill === undefined ? {} : { killPodOptions: { podTerminationGracePeriodSecondsOverride: kill.GracePeriodSecondsOverride, evict: kill.Evict } }),
  };
}

/** An update written without updateType has Go's zero value, SyncPodSync. */
function withZeroUpdateTypes(status: Record<string, unknown>): Record<string, unknown> {
  const out = { ...status };
  for (const key of ["activeUpdate", "pendingUpdate"]) {
    const u = out[key];
    if (typeof u === "object" && u !== null && !("updateType" in u)) out[key] = { updateType: "SyncPodSync", ...u };
  }
  return out;
}

/** podSyncStatus in the vectors' encoding: times in Unix seconds of the fake clock, zero values dropped. */
export function encodeStatus(s: PodSyncStatus | undefined): unknown {
  if (s === undefined) return null;
  const sec = PodWorkersHarness.seconds;
  return goValue({
    hasContext: s.ctx !== null,
    fullname: s.fullname,
    syncedAt: sec(s.syncedAtMs),
    startedAt: sec(s.startedAtMs),
    terminatingAt: sec(s.terminatingAtMs),
    terminatedAt: sec(s.terminatedAtMs),
    gracePeriod: s.gracePeriod,
    startedTerminating: s.startedTerminating,
    deleted: s.deleted,
    evicted: s.evicted,
    finished: s.finished,
    working: s.working,
    restartRequested: s.restartRequested,
    observedRuntime: s.observedRuntime,
    activeUpdate: encodeUpdate(s.activeUpdate),
    pendingUpdate: encodeUpdate(s.pendingUpdate),
  });
}

const updateSchema = z.looseObject({ op: z.string().optional(), updateType: updateTypeSchema.optional(), pod: vectorPod, killPodOptions: z.looseObject({ podTerminationGracePeriodSecondsOverride: z.number().int().optional(), evict: z.boolean().optional() }).optional() });
const updatePodSchema = z.looseObject({
  prepare: z.array(updateSchema).optional(),
  update: updateSchema,
  runtimeStatusDuringUpdate: z.string().optional(),
  expectBeforeWorker: z.record(z.string(), z.unknown()).optional(),
  expect: z.looseObject({ podSyncStatus: z.record(z.string(), z.unknown()).nullable(), isPodKnownTerminated: z.boolean().optional() }),
});

function optionsOf(u: z.infer<typeof updateSchema>): UpdatePodOptions {
  const kill = u.killPodOptions;
  return {
    UpdateType: updateTypeOf(u.updateType),
    Pod: podFrom(u.pod),
    ...(kill === undefined ? {} : { KillPodOptions: { ...(kill.evict === undefined ? {} : { Evict: kill.evict }), ...(kill.podTerminationGracePeriodSecondsOverride === undefined ? {} : { GracePeriodSecondsOverride: kill.podTerminationGracePeriodSecondsOverride }) } }),
  };
}

/** TestUpdatePod: prepare, one update (with the runtime answering as the vector says), the status before and after the workers ran. */
function runUpdatePod(v: PodWorkersVector): string[] {
  const t = parsePart(updatePodSchema, v, "vector");
  if (typeof t === "string") return [t];
  const h = new PodWorkersHarness(true);
  for (const p of t.prepare ?? []) {
    h.updatePod(optionsOf(p));
    const err = h.drain();
    if (err !== null) return [`prepare: ${err}`];
  }
  const notFound = /NotFound|fails/.test(t.runtimeStatusDuringUpdate ?? "");
  h.cache.notFound = notFound;
  h.updatePod(optionsOf(t.update));
  const uid = t.update.pod.uid;
  const diffs: string[] = [];
  if (t.expectBeforeWorker !== undefined) diffs.push(...diffValues(goValue(withZeroUpdateTypes(t.expectBeforeWorker)), encodeStatus(h.workers.podSyncStatuses.get(uid)), "before the worker ran"));
  // After the update the Go test resets the fake runtime to "empty status, no error".
  h.cache.notFound = false;
  const err = h.drain();
  if (err !== null) return [...diffs, err];
  const want = t.expect.podSyncStatus === null ? null : goValue(withZeroUpdateTypes(t.expect.podSyncStatus));
  diffs.push(...diffValues(want, encodeStatus(h.workers.podSyncStatuses.get(uid)), "podSyncStatus"));
  const known = h.workers.IsPodKnownTerminated(uid);
  if (t.expect.isPodKnownTerminated !== undefined && known !== t.expect.isPodKnownTerminated) diffs.push(`IsPodKnownTerminated: expected ${t.expect.isPodKnownTerminated}, got ${known}`);
  return diffs;
}

const seededStatus = z.looseObject({
  fullname: z.string().optional(),
  startedAt: z.union([z.number(), z.literal("now")]).optional(),
  terminatingAt: z.union([z.number(), z.literal("now")]).optional(),
  terminatedAt: z.union([z.number(), z.literal("now")]).optional(),
  finished: z.boolean().optional(),
  working: z.boolean().optional(),
  pendingUpdate: z.looseObject({ pod: vectorPod }).optional(),
  activeUpdate: z.looseObject({ pod: vectorPod }).optional(),
});
/** A map the Go test may leave nil ("(nil)"). */
const maybeMap = <T extends z.ZodType>(value: T) => z.union([z.record(z.string(), value), z.literal("(nil)")]);

/** A podSyncStatus as a Go test literal sets it; "now" is the harness clock. */
function seedStatus(h: PodWorkersHarness, s: z.infer<typeof seededStatus>): PodSyncStatus {
  const ms = (t: number | "now" | undefined) => (t === undefined ? -1 : t === "now" ? h.sim.nowMs : t * 1000);
  const status = new PodSyncStatus(s.fullname ?? "");
  status.startedAtMs = ms(s.startedAt);
  status.terminatingAtMs = ms(s.terminatingAt);
  status.terminatedAtMs = ms(s.terminatedAt);
  status.finished = s.finished ?? false;
  status.working = s.working ?? false;
  if (s.pendingUpdate !== undefined) status.pendingUpdate = { UpdateType: SyncPodSync, Pod: podFrom(s.pendingUpdate.pod) };
  if (s.activeUpdate !== undefined) status.activeUpdate = { UpdateType: SyncPodSync, Pod: podFrom(s.activeUpdate.pod) };
  return status;
}

function seedMaps(h: PodWorkersHarness, started: Record<string, string> | "(nil)", waiting: Record<string, string[]> | "(nil)"): void {
  for (const [k, uid] of Object.entries(started === "(nil)" ? {} : started)) h.workers.startedStaticPodsByFullname.set(k, uid);
  for (const [k, list] of Object.entries(waiting === "(nil)" ? {} : waiting)) h.workers.waitingToStartStaticPodsByFullname.set(k, [...list]);
}

/** The maps after the call, compared only when the vector states them as objects. */
function checkMaps(h: PodWorkersHarness, started: unknown, waiting: unknown): string[] {
  const diffs: string[] = [];
  if (typeof started === "object" && started !== null) diffs.push(...diffValues(started, Object.fromEntries(h.workers.startedStaticPodsByFullname), "startedStaticPodsByFullname"));
  if (typeof waiting === "object" && waiting !== null) diffs.push(...diffValues(waiting, Object.fromEntries(h.workers.waitingToStartStaticPodsByFullname), "waitingToStartStaticPodsByFullname"));
  return diffs;
}

const allowSchema = z.looseObject({
  input: z.looseObject({
    pod: vectorPod,
    podSyncStatuses: z.record(z.string(), seededStatus),
    startedStaticPodsByFullname: maybeMap(z.string()),
    waitingToStartStaticPodsByFullname: maybeMap(z.array(z.string())),
  }),
  expect: z.looseObject({ allowed: z.boolean(), allowedEver: z.boolean(), startedStaticPodsByFullname: z.unknown(), waitingToStartStaticPodsByFullname: z.unknown() }),
});

/** Test_allowPodStart on seeded statuses and static pod maps. */
function runAllowPodStart(v: PodWorkersVector): string[] {
  const t = parsePart(allowSchema, v, "vector");
  if (typeof t === "string") return [t];
  const h = new PodWorkersHarness(false);
  for (const [uid, s] of Object.entries(t.input.podSyncStatuses)) h.workers.podSyncStatuses.set(uid, seedStatus(h, s));
  seedMaps(h, t.input.startedStaticPodsByFullname, t.input.waitingToStartStaticPodsByFullname);
  const [allowed, allowedEver] = h.workers.allowPodStart(podFrom(t.input.pod));
  const diffs: string[] = [];
  if (allowed !== t.expect.allowed) diffs.push(`canStart: expected ${t.expect.allowed}, got ${allowed}`);
  if (allowedEver !== t.expect.allowedEver) diffs.push(`canEverStart: expected ${t.expect.allowedEver}, got ${allowedEver}`);
  return [...diffs, ...checkMaps(h, t.expect.startedStaticPodsByFullname, t.expect.waitingToStartStaticPodsByFullname)];
}

const graceSchema = z.looseObject({
  input: z.looseObject({
    specTerminationGracePeriodSeconds: z.number().int().nullable(),
    deletionGracePeriodSeconds: z.number().int().nullable(),
    gracePeriodOverride: z.number().int().nullable(),
  }),
  expect: z.looseObject({ gracePeriod: z.number().int() }),
});

/** Test_calculateEffectiveGracePeriod: a fresh status (grace period 0). */
function runGracePeriod(v: PodWorkersVector): string[] {
  const t = parsePart(graceSchema, v, "vector");
  if (typeof t === "string") return [t];
  const { specTerminationGracePeriodSeconds: spec, deletionGracePeriodSeconds: deletion, gracePeriodOverride: override } = t.input;
  const pod: Pod = {
    metadata: { name: "p", ...(deletion === null ? {} : { deletionGracePeriodSeconds: deletion }) },
    spec: { containers: [], ...(spec === null ? {} : { terminationGracePeriodSeconds: spec }) },
  };
  const [got] = calculateEffectiveGracePeriod({ gracePeriod: 0 }, pod, override === null ? undefined : { GracePeriodSecondsOverride: override });
  return got === t.expect.gracePeriod ? [] : [`gracePeriod: expected ${t.expect.gracePeriod}, got ${got}`];
}

const removeSchema = z.looseObject({
  input: z.looseObject({
    orphan: z.boolean(),
    podSyncStatus: seededStatus,
    queuedSignals: z.number().int().min(0).max(1),
    startedStaticPodsByFullname: maybeMap(z.string()),
    waitingToStartStaticPodsByFullname: maybeMap(z.array(z.string())),
  }),
  expect: z.looseObject({
    removed: z.boolean(),
    pendingUpdate: z.looseObject({ pod: vectorPod }).nullable().optional(),
    working: z.boolean().optional(),
    queuedSignals: z.number().int().optional(),
    startedStaticPodsByFullname: z.unknown().optional(),
    waitingToStartStaticPodsByFullname: z.unknown().optional(),
  }),
});

/** Test_removeTerminatedWorker for uid "pod-uid", with its worker channel holding the queued signals. */
function runRemoveTerminatedWorker(v: PodWorkersVector): string[] {
  const t = parsePart(removeSchema, v, "vector");
  if (typeof t === "string") return [t];
  const uid = "pod-uid";
  const h = new PodWorkersHarness(false);
  const status = seedStatus(h, t.input.podSyncStatus);
  h.workers.podSyncStatuses.set(uid, status);
  const ch = h.sim.chan<true>(`podUpdates/${uid}`, 1);
  for (let i = 0; i < t.input.queuedSignals; i++) ch.offer(true);
  h.workers.podUpdates.set(uid, ch);
  seedMaps(h, t.input.startedStaticPodsByFullname, t.input.waitingToStartStaticPodsByFullname);
  const removed = h.workers.removeTerminatedWorker(uid, status, t.input.orphan);
  const diffs: string[] = [];
  if (removed !== t.expect.removed) diffs.push(`removed: expected ${t.expect.removed}, got ${removed}`);
  if (t.expect.pendingUpdate !== undefined) {
    const want = t.expect.pendingUpdate === null ? undefined : goValue({ updateType: "SyncPodSync", ...t.expect.pendingUpdate });
    diffs.push(...diffValues(want, goValue(encodeUpdate(status.pendingUpdate)), "pendingUpdate"));
  }
  if (t.expect.working !== undefined && status.working !== t.expect.working) diffs.push(`working: expected ${t.expect.working}, got ${status.working}`);
  const queued = h.workers.podUpdates.get(uid)?.length ?? 0;
  if (t.expect.queuedSignals !== undefined && queued !== t.expect.queuedSignals) diffs.push(`queued signals: expected ${t.expect.queuedSignals}, got ${show(queued)}`);
  return [...diffs, ...checkMaps(h, t.expect.startedStaticPodsByFullname, t.expect.waitingToStartStaticPodsByFullname)];
}
