// Runs pod_workers.yaml vectors (pod_workers_test.go): TestUpdatePod through UpdatePod and the
// workers, allowPodStart, calculateEffectiveGracePeriod and removeTerminatedWorker on seeded state,
// and the long sequences (pod_workers_steps.ts). Harness: pod_workers_harness.ts.
import { z } from "zod";
import type { UpdatePodOptions } from "../kubelet/pod_sync_status.ts";
import { diffValues, show } from "./diff.ts";
import { unsettable } from "./encodings.ts";
import { goValue } from "./go_equal.ts";
import { parsePart } from "./oracle2_pods.ts";
import { VectorError, type Outcome } from "./outcome.ts";
import { PodWorkersHarness } from "./pod_workers_harness.ts";
import { runPodWorkerSteps } from "./pod_workers_steps.ts";
import { runAllowPodStart, runGracePeriod, runRemoveTerminatedWorker } from "./pod_workers_tables.ts";
import { encodeStatus, optionsOf, updateSchema, withZeroUpdateTypes } from "./pod_workers_encoding.ts";

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
  throw new VectorError("the vector has no function, steps or update to run");
}

/** A prepare step: UpdatePod, or PauseWorkers / ReleaseWorkers (of `uid(s)`, or of the update's pod when none is named). */
const prepareSchema = z.looseObject({
  op: unsettable(z.string()),
  uid: unsettable(z.string()),
  uids: unsettable(z.array(z.string())),
  /** ReleaseWorkers written in prepare but returned as the after-update function (ReleaseWorkersUnderLock). */
  afterUpdate: unsettable(z.boolean()),
});
const afterSchema = z.union([z.string(), prepareSchema]);

const updatePodSchema = z.looseObject({
  harness: z.enum(["podWorkers", "timeIncrementingWorkers"]).optional(),
  prepare: unsettable(z.array(z.record(z.string(), z.unknown()))),
  update: updateSchema,
  afterUpdate: unsettable(z.array(afterSchema)),
  runtimeStatusDuringUpdate: unsettable(z.string()),
  expectBeforeWorker: unsettable(z.record(z.string(), z.unknown())),
  expect: z.looseObject({ podSyncStatus: z.record(z.string(), z.unknown()).nullable(), isPodKnownTerminated: unsettable(z.boolean()) }),
});
type UpdatePodVector = z.infer<typeof updatePodSchema>;

function uidOf(o: UpdatePodOptions): string {
  return o.Pod?.metadata.uid ?? o.RunningPod?.id ?? "";
}

/**
 * TestUpdatePod: prepare, one update with the runtime answering as the vector says, the after-update
 * functions (expectBeforeWorker, prepare's release, the runtime reset), the workers drained, then
 * the status and IsPodKnownTerminated.
 */
function runUpdatePod(v: PodWorkersVector): string[] {
  const t = parsePart(updatePodSchema, v, "vector");
  const h = new PodWorkersHarness(t.harness !== "podWorkers");
  const update = optionsOf(t.update);
  const uid = uidOf(update);
  const releaseAfter: string[] = [];
  for (const [i, raw] of (t.prepare ?? []).entries()) prepare(h, raw, `prepare[${i}]`, uid, releaseAfter);
  for (const [i, a] of (t.afterUpdate ?? []).entries()) releaseAfter.push(...afterUpdateUids(a, `afterUpdate[${i}]`, uid));
  h.cache.notFound = runtimeNotFound(t);
  h.updatePod(update);
  const diffs: string[] = [];
  if (t.expectBeforeWorker !== undefined) diffs.push(...diffValues(goValue(withZeroUpdateTypes(t.expectBeforeWorker)), encodeStatus(h.workers.podSyncStatuses.get(uid)), "before the worker ran"));
  h.releaseWorkers(releaseAfter);
  // After the update the Go test resets the fake runtime to "empty status, no error".
  h.cache.notFound = false;
  const err = h.drain();
  if (err !== null) throw new VectorError(err);
  const want = t.expect.podSyncStatus === null ? null : goValue(withZeroUpdateTypes(t.expect.podSyncStatus));
  diffs.push(...diffValues(want, encodeStatus(h.workers.podSyncStatuses.get(uid)), "podSyncStatus"));
  const known = h.workers.IsPodKnownTerminated(uid);
  if (t.expect.isPodKnownTerminated !== undefined && known !== t.expect.isPodKnownTerminated) diffs.push(`IsPodKnownTerminated: expected ${t.expect.isPodKnownTerminated}, got ${known}`);
  return diffs;
}

/** The runtime while UpdatePod runs: absent means the Go test's default, GetPodStatus failing NotFound. */
function runtimeNotFound(t: UpdatePodVector): boolean {
  const text = t.runtimeStatusDuringUpdate;
  if (text === undefined) return true;
  if (/NotFound|fails/.test(text)) return true;
  if (/known to the runtime|no error|\{\}/.test(text)) return false;
  throw new VectorError(`runtimeStatusDuringUpdate ${JSON.stringify(text)}: expected "GetPodStatus fails with gRPC NotFound" or "{} (known to the runtime, no error)"`);
}

/** One prepare step, run as the Go test's prepare function runs it on the time-incrementing workers. */
function prepare(h: PodWorkersHarness, raw: Record<string, unknown>, where: string, updateUid: string, releaseAfter: string[]): void {
  const op = String(raw["op"] ?? "UpdatePod");
  if (op === "UpdatePod") {
    const u = parsePart(updateSchema, raw, where);
    h.updatePod(optionsOf(u));
    const err = h.drain();
    if (err !== null) throw new VectorError(`${where}: ${err}`);
    return;
  }
  const p = parsePart(prepareSchema, raw, where);
  const uids = p.uids ?? (p.uid === undefined ? [updateUid] : [p.uid]);
  if (op === "PauseWorkers") h.pauseWorkers(uids);
  else if (/^ReleaseWorkers/.test(op)) {
    if (p.afterUpdate === true || /UnderLock|after/i.test(op)) releaseAfter.push(...uids);
    else h.releaseWorkers(uids);
  } else throw new VectorError(`${where}: unknown op ${JSON.stringify(op)} (UpdatePod, PauseWorkers, ReleaseWorkers)`);
}

/** An after-update function: ReleaseWorkers(uids), written as a step or as "ReleaseWorkersUnderLock("1")". */
function afterUpdateUids(a: z.infer<typeof afterSchema>, where: string, updateUid: string): string[] {
  if (typeof a === "string") {
    if (!/^ReleaseWorkers/.test(a)) throw new VectorError(`${where}: cannot interpret ${show(a)}`);
    const named = [...a.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    return named.length > 0 ? named : [updateUid];
  }
  if (!/^ReleaseWorkers/.test(a.op ?? "")) throw new VectorError(`${where}: unknown op ${show(a.op)} (ReleaseWorkers)`);
  return a.uids ?? (a.uid === undefined ? [updateUid] : [a.uid]);
}
