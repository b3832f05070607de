// Runs pod_workers.yaml vectors (pod_workers_test.go): TestUpdatePod through UpdatePod and the
// workers, allowPodStart, calculateEffectiveGracePeriod and removeTerminatedWorker on seeded state,
// and the long sequences (pod_workers_steps.ts). Harness: pod_workers_harness.ts.
import { z } from "zod";
import type { UpdatePodOptions } from "../kubelet/pod_sync_status.ts";
import { diffValues } from "./diff.ts";
import { goValue } from "./go_equal.ts";
import { parsePart } from "./oracle2_pods.ts";
import type { Outcome } from "./outcome.ts";
import { PodWorkersHarness } from "./pod_workers_harness.ts";
import { runPodWorkerSteps } from "./pod_workers_steps.ts";
import { runAllowPodStart, runGracePeriod, runRemoveTerminatedWorker } from "./pod_workers_tables.ts";
import { encodeStatus, podFrom, updateTypeOf, updateTypeSchema, vectorPod, withZeroUpdateTypes } from "./pod_workers_encoding.ts";

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
    ...(kill === undefined ? {} : { KillPodOptions: { ...(kill.evict === undefined ? {} : { Evict: kill.evict }), ...(kill.podTerminationGracePeriodSecondsOverride === undefined ? {} : { PodTerminationGracePeriodSecondsOverride: kill.podTerminationGracePeriodSecondsOverride }) } }),
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
