// pod_workers.yaml's encodings: its pods, update types, UpdatePodOptions and podSyncStatus, built
// into the model's objects and written back for comparison (times in Unix seconds, zero values
// dropped, an absent updateType being Go's zero value SyncPodSync).
import { z } from "zod";
import type { Pod } from "../k8s/pod.ts";
import type { PodSyncStatus, UpdatePodOptions } from "../kubelet/pod_sync_status.ts";
import type { RunningPod } from "../kubelet/types.ts";
import { ConfigSourceAnnotationKey, SyncPodCreate, SyncPodKill, SyncPodSync, SyncPodUpdate, type SyncPodType } from "../kubelet/types.ts";
import { goValue } from "./go_equal.ts";
import { unsettable } from "./encodings.ts";
import { VectorError } from "./outcome.ts";
import { consume } from "./tracked.ts";
import { PodWorkersHarness } from "./pod_workers_harness.ts";

/** The vectors' pod: {uid, namespace, name, static, terminationGracePeriodSeconds, phase, labels, deletion*}. */
export const vectorPod = z.looseObject({
  uid: z.string(),
  namespace: unsettable(z.string()),
  name: unsettable(z.string()),
  static: unsettable(z.boolean()),
  terminationGracePeriodSeconds: unsettable(z.number().int()),
  phase: unsettable(z.string()),
  labels: unsettable(z.record(z.string(), z.string())),
  deletionTimestamp: unsettable(z.string()),
  deletionGracePeriodSeconds: unsettable(z.number().int()),
});

/** A kubecontainer.Pod (RunningPod): {id (or uid), name, namespace}. */
export const runningPodSchema = z.looseObject({
  id: unsettable(z.string()),
  uid: unsettable(z.string()),
  name: unsettable(z.string()),
  namespace: unsettable(z.string()),
});

export function runningPodFrom(r: z.infer<typeof runningPodSchema>): RunningPod {
  const id = r.id ?? r.uid;
  if (id === undefined) throw new VectorError("runningPod: needs an id (or uid)");
  return { id, name: r.name ?? "", namespace: r.namespace ?? "", createdAtMs: 0, containers: [], sandboxes: [] };
}

/** UpdatePodOptions: {updateType, pod, runningPod, killPodOptions{podTerminationGracePeriodSecondsOverride, evict}}. */
export const updateSchema = z.looseObject({
  op: unsettable(z.string()),
  updateType: unsettable(updateTypeSchemaOf()),
  pod: unsettable(vectorPod),
  runningPod: unsettable(runningPodSchema),
  killPodOptions: unsettable(z.looseObject({ podTerminationGracePeriodSecondsOverride: unsettable(z.number().int()), evict: unsettable(z.boolean()) })),
});

export function optionsOf(u: z.infer<typeof updateSchema>): UpdatePodOptions {
  if (u.op !== undefined && u.op !== "UpdatePod" && u.op !== "UpdatePodForRuntimePod") throw new VectorError(`unknown op ${JSON.stringify(u.op)} (UpdatePod)`);
  if (u.pod === undefined && u.runningPod === undefined) throw new VectorError("an update needs a pod or a runningPod");
  const kill = u.killPodOptions;
  return {
    UpdateType: updateTypeOf(u.updateType),
    ...(u.pod === undefined ? {} : { Pod: podFrom(u.pod) }),
    ...(u.runningPod === undefined ? {} : { RunningPod: runningPodFrom(u.runningPod) }),
    ...(kill === undefined ? {} : { KillPodOptions: { ...(kill.evict === undefined ? {} : { Evict: kill.evict }), ...(kill.podTerminationGracePeriodSecondsOverride === undefined ? {} : { PodTerminationGracePeriodSecondsOverride: kill.podTerminationGracePeriodSecondsOverride }) } }),
  };
}
type VectorPod = z.infer<typeof vectorPod>;

/** The model's pod of a vector pod (an input: the model gets it whole). */
export function podFrom(vectorPodValue: VectorPod): Pod {
  const p = consume(vectorPodValue);
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
function updateTypeSchemaOf() {
  return z.enum(["SyncPodSync", "SyncPodUpdate", "SyncPodCreate", "SyncPodKill"]);
}
export const updateTypeSchema = updateTypeSchemaOf();
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

/**
 * An update written without updateType has Go's zero value, SyncPodSync; a runningPod's `id` is
 * the uid the comparison writes; times may be "unix:N" as well as N.
 */
export function withZeroUpdateTypes(status: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(status)) out[k] = typeof x === "string" && /^unix:\d+$/.test(x) ? Number(x.slice(5)) : x;
  for (const key of ["activeUpdate", "pendingUpdate"]) {
    const u = out[key];
    if (typeof u !== "object" || u === null) continue;
    const upd: Record<string, unknown> = { ...(u as Record<string, unknown>) };
    if (!("updateType" in upd)) upd["updateType"] = "SyncPodSync";
    const rp = upd["runningPod"];
    if (typeof rp === "object" && rp !== null && "id" in rp) {
      const { id, ...rest } = rp as Record<string, unknown>;
      upd["runningPod"] = { uid: id, ...rest };
    }
    out[key] = upd;
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

