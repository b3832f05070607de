// pod_workers.yaml's function tables: Test_allowPodStart, Test_calculateEffectiveGracePeriod and
// Test_removeTerminatedWorker, each run on pod workers whose state is seeded as the Go test's
// struct literals set it.
import { z } from "zod";
import type { Pod } from "../k8s/pod.ts";
import { calculateEffectiveGracePeriod, PodSyncStatus } from "../kubelet/pod_sync_status.ts";
import { SyncPodSync } from "../kubelet/types.ts";
import { diffValues, show } from "./diff.ts";
import { goValue } from "./go_equal.ts";
import { parsePart } from "./oracle2_pods.ts";
import { PodWorkersHarness } from "./pod_workers_harness.ts";
import { encodeUpdate, podFrom, vectorPod } from "./pod_workers_encoding.ts";
import type { PodWorkersVector } from "./pod_workers_vectors.ts";

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
export function runAllowPodStart(v: PodWorkersVector): string[] {
  const t = parsePart(allowSchema, v, "vector");
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
export function runGracePeriod(v: PodWorkersVector): string[] {
  const t = parsePart(graceSchema, v, "vector");
  const { specTerminationGracePeriodSeconds: spec, deletionGracePeriodSeconds: deletion, gracePeriodOverride: override } = t.input;
  const pod: Pod = {
    metadata: { name: "p", ...(deletion === null ? {} : { deletionGracePeriodSeconds: deletion }) },
    spec: { containers: [], ...(spec === null ? {} : { terminationGracePeriodSeconds: spec }) },
  };
  const [got] = calculateEffectiveGracePeriod({ gracePeriod: 0 }, pod, override === null ? undefined : { PodTerminationGracePeriodSecondsOverride: override });
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
export function runRemoveTerminatedWorker(v: PodWorkersVector): string[] {
  const t = parsePart(removeSchema, v, "vector");
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
