// pod_workers.yaml's encodings: its pods, update types, UpdatePodOptions and podSyncStatus, built
// into the model's objects and written back for comparison (times in Unix seconds, zero values
// dropped, an absent updateType being Go's zero value SyncPodSync).
import { z } from "zod";
import type { Pod } from "../k8s/pod.ts";
import type { PodSyncStatus, UpdatePodOptions } from "../kubelet/pod_sync_status.ts";
import { ConfigSourceAnnotationKey, SyncPodCreate, SyncPodKill, SyncPodSync, SyncPodUpdate, type SyncPodType } from "../kubelet/types.ts";
import { goValue } from "./go_equal.ts";
import { PodWorkersHarness } from "./pod_workers_harness.ts";

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
export function encodeUpdate(o: UpdatePodOptions | null): unknown {
  if (o === null) return undefined;
  const kill = o.KillPodOptions;
  return {
    updateType: updateTypeName(o.UpdateType),
    pod: encodePod(o.Pod),
    ...(o.RunningPod === undefined ? {} : { runningPod: { uid: o.RunningPod.id, name: o.RunningPod.name, namespace: o.RunningPod.namespace } }),
    ...(kill === undefined ? {} : { killPodOptions: { podTerminationGracePeriodSecondsOverride: kill.PodTerminationGracePeriodSecondsOverride, evict: kill.Evict } }),
  };
}

/** An update written without updateType has Go's zero value, SyncPodSync. */
export function withZeroUpdateTypes(status: Record<string, unknown>): Record<string, unknown> {
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

