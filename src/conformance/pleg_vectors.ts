// Runs pleg_events.yaml vectors (pleg/generic_test.go) through GenericPLEG's relist, updateCache
// and Healthy, and the code-derived generateEvents table through generateEvents and a two-relist
// sequence.
//
// Harnesses (docs/conformance.md): the Go tests' FakeRuntime and strict runtime mock become a
// PodStatusSource answering at once from the vector (a status, an error, or both, as the mock
// returns them; a call nobody expected is a difference, as the strict mock fails the test); their
// fake clock is the kernel's virtual clock, moved by `clockStep`. A `relist` step runs
// GenericPLEG.relist in a process and drains the event channel without blocking, as the tests do.
import { z } from "zod";
import { CriError } from "../cri/errors.ts";
import { Cache } from "../kubelet/container/cache.ts";
import type { PodStatus, State, Status } from "../kubelet/container/runtime.ts";
import type { RuntimeContainer, RuntimePod } from "../kubelet/kuberuntime/running_pod.ts";
import { GenericPLEG, PodStatusFailure, type PodStatusSource } from "../kubelet/pleg/generic.ts";
import { generateEvents, type plegContainerState } from "../kubelet/pleg/generic_events.ts";
import type { PodLifecycleEvent } from "../kubelet/pleg/pleg.ts";
import { isFailureVerdict, sleep, Sim, type Proc } from "../sim/index.ts";
import { diffValues, show } from "./diff.ts";
import { timeTokenMs, unsettable } from "./encodings.ts";
import { goValue } from "./go_equal.ts";
import { notModelled, VectorError, type Outcome } from "./outcome.ts";
import { parsePart } from "./oracle2_pods.ts";
import { checkEvents, checkMetrics, checkSubset, type Ev } from "./pleg_checks.ts";

const listed = z.looseObject({ id: z.string(), state: z.enum(["running", "exited", "unknown", "created"]) });
const runtimePod = z.looseObject({ id: z.string(), name: unsettable(z.string()), namespace: unsettable(z.string()), containers: unsettable(z.array(listed)), sandboxes: unsettable(z.array(listed)) });
const event = z.looseObject({ pod: z.string(), type: z.string(), data: z.string() });
const statusSchema = z.looseObject({
  id: unsettable(z.string()),
  ips: unsettable(z.array(z.string())),
  containerStatuses: unsettable(z.array(z.looseObject({ id: z.string(), state: listed.shape.state, restartCount: unsettable(z.number().int()), exitCode: unsettable(z.number().int()) }))),
  /** PodStatus.TimeStamp, as `startTime`, `startTime+10s` or `startTime-10s`. */
  timeStamp: unsettable(z.string()),
});
const podStatusReply = z.looseObject({ status: unsettable(statusSchema), error: unsettable(z.string()) });

const stepSchema = z.looseObject({
  op: z.string(),
  repeat: unsettable(z.number().int().positive().max(1000)),
  runtimePods: unsettable(z.union([z.array(runtimePod), z.literal("unchanged")])),
  getPodStatus: unsettable(z.record(z.string(), podStatusReply)),
  expectEvents: unsettable(z.union([z.array(event), z.string()])),
  expectEventsExactly: unsettable(z.array(event)),
  expectEventCount: unsettable(z.number().int()),
  expectEventsSubsetOf: unsettable(z.array(event)),
  expectCache: unsettable(z.record(z.string(), z.looseObject({ status: unsettable(statusSchema), error: unsettable(z.string()) }))),
  expectGetPodStatusCalls: unsettable(z.array(z.string())),
  expectMetric: z.unknown().optional(),
  seconds: unsettable(z.number()),
  expect: z.unknown().optional(),
  pod: unsettable(z.string()),
  status: unsettable(statusSchema),
  modifiedAt: unsettable(z.string()),
});

const updateCacheExpect = z.looseObject({ updated: z.boolean(), error: unsettable(z.string()), cachedRestartCount: z.number().int() });

const STATES = ["running", "exited", "unknown", "non-existent"] as const;

/**
 * A status without TimeStamp under the gate: the pinned generic.go keeps its own clock for it
 * (`!status.TimeStamp.IsZero()`), a guard of the unmerged PRs #124953 and #126415 (the pin is one
 * of their commits). Released code stamps the cache with Go's zero time before 1.32 (the cache then
 * refuses the status: updated false, the old restart count) and never sees a zero stamp from 1.32
 * (#127195 stamps every status), so neither answer of the vector is a release's.
 */
const ZERO_TIMESTAMP =
  "a PodStatus without TimeStamp under EventedPLEG: the pinned generic.go (a commit of the unmerged PRs #124953/#126415) keeps the PLEG's clock for it; no release does (1.31 stamps the cache with Go's zero time and refuses the status, 1.32+ always has a stamp), see docs/conformance.md";

function hasZeroTimeStamp(s: Step): boolean {
  return s.op === "updateCache" && Object.values(s.getPodStatus ?? {}).some((r) => r.status?.timeStamp === undefined);
}

export const plegVectorSchema = z.looseObject({
  name: z.string(),
  harness: z.enum(["fakeRuntimeNoCache", "runtimeMockWithCache"]).optional(),
  featureGates: unsettable(z.record(z.string(), z.boolean())),
  eventedPLEGInUse: unsettable(z.boolean()),
  eventChannelCapacity: unsettable(z.number().int().positive()),
  relistThresholdSeconds: unsettable(z.number()),
  steps: unsettable(z.array(stepSchema)),
  /** Checks after the last step (TestRunningPodAndContainerCount's subtests). */
  expectMetric: z.unknown().optional(),
  oldState: unsettable(z.enum(STATES)),
  newState: unsettable(z.enum(STATES)),
  expect: z.unknown().optional(),
});

export type PlegVector = z.infer<typeof plegVectorSchema>;
type Step = z.infer<typeof stepSchema>;

export function runPlegVector(v: PlegVector): Outcome {
  if (v.featureGates?.["EventedPLEG"] === true && v.steps?.some(hasZeroTimeStamp)) {
    return notModelled((v.steps ?? []).flatMap((s, i) => (hasZeroTimeStamp(s) ? [`steps[${i}].expect`] : [])), ZERO_TIMESTAMP);
  }
  if (v.oldState !== undefined && v.newState !== undefined && v.expect !== undefined) return runTransition(v.oldState, v.newState, v.expect);
  if (v.steps === undefined) throw new VectorError("vector has neither steps nor an oldState/newState transition");
  const h = new PlegHarness(v);
  const diffs = h.run(v.steps);
  if (v.expectMetric !== undefined) diffs.push(...checkMetrics(v.expectMetric, h.pleg.metrics));
  return diffs;
}

/** newTestGenericPLEG (channel 100, threshold 3 min) or newTestGenericPLEGWithRuntimeMock (1000, 2 h, a cache). */
class PlegHarness implements PodStatusSource {
  readonly sim = new Sim({ seed: 1, strategy: { name: "fifo" } });
  readonly cache: Cache | null;
  readonly pleg: GenericPLEG;
  pods: RuntimePod[] = [];
  replies: Record<string, z.infer<typeof podStatusReply>> = {};
  inspected: string[] = [];
  /** Calls the strict mock has no answer for (the Go mock fails the test on them). */
  unexpected: string[] = [];

  constructor(v: PlegVector) {
    const withCache = v.harness === "runtimeMockWithCache";
    const evented = v.featureGates?.["EventedPLEG"] === true;
    this.cache = withCache ? new Cache(this.sim, evented) : null;
    const thresholdMs = (v.relistThresholdSeconds ?? (withCache ? 7200 : 180)) * 1000;
    this.pleg = new GenericPLEG(this.sim, this, this.cache, {
      relistDuration: { relistPeriodMs: 3_600_000, relistThresholdMs: thresholdMs },
      channelCapacity: v.eventChannelCapacity ?? (withCache ? 1000 : 100),
      eventedPLEG: evented,
      isEventedPLEGInUse: () => v.eventedPLEGInUse === true,
    });
  }

  *GetPods(_all: boolean): Proc<RuntimePod[] | CriError> {
    return this.pods;
  }

  *GetPodStatus(uid: string): Proc<PodStatus | CriError | PodStatusFailure> {
    this.inspected.push(uid);
    const reply = this.replies[uid];
    if (reply === undefined) {
      this.unexpected.push(uid);
      return new CriError("Unknown", `unexpected GetPodStatus(${uid}): the strict mock has no answer`);
    }
    if (reply.error !== undefined) {
      // The mock returns (status, err): the status, if the vector gives one, is stored with the error.
      return new PodStatusFailure(new Error(reply.error), reply.status === undefined ? null : podStatusFrom("", reply.status));
    }
    return podStatusFrom(uid, reply.status ?? {});
  }

  /** Runs the steps in a kernel process; a harness that does not finish is the vector's error. */
  run(steps: readonly Step[]): string[] {
    const diffs: string[] = [];
    const self = this;
    let finished = false;
    let thrown: unknown = null;
    this.sim.go("harness", function* () {
      try {
        for (const [i, s] of steps.entries()) {
          const where = `steps[${i}] (${s.op})`;
          for (const d of yield* self.step(s, where)) diffs.push(`${where} ${d}`);
        }
        finished = true;
      } catch (err) {
        thrown = err;
      }
    });
    const run = this.sim.run();
    if (thrown !== null) throw thrown;
    if (!finished || isFailureVerdict(run.verdict)) throw new VectorError(`the PLEG harness did not finish: ${run.verdict}${run.diagnosis ? `: ${run.diagnosis}` : ""}`);
    return diffs;
  }

  private *step(s: Step, where: string): Proc<string[]> {
    switch (s.op) {
      case "relist":
        return yield* this.relist(s);
      case "healthy": {
        const ok = this.pleg.Healthy().ok;
        if (typeof s.expect !== "boolean") throw new VectorError(`${where}: expect must be true or false`);
        return ok === s.expect ? [] : [`Healthy: expected ${show(s.expect)}, got ${ok}`];
      }
      case "clockStep":
        if (s.seconds === undefined) throw new VectorError(`${where}: clockStep needs seconds`);
        yield* sleep(s.seconds * 1000);
        return [];
      case "cacheSet":
        if (this.cache === null || s.pod === undefined || s.modifiedAt === undefined) throw new VectorError(`${where}: cacheSet needs the cache harness, pod and modifiedAt`);
        this.cache.Set(s.pod, podStatusFrom(s.pod, s.status ?? {}), null, timeOf(s.modifiedAt));
        return [];
      case "updateCache":
        return yield* this.updateCache(s, where);
      default:
        throw new VectorError(`${where}: unknown op ${JSON.stringify(s.op)} (relist, healthy, clockStep, cacheSet, updateCache)`);
    }
  }

  private *relist(s: Step): Proc<string[]> {
    if (s.runtimePods !== undefined && s.runtimePods !== "unchanged") this.pods = s.runtimePods.map(runtimePodFrom);
    this.replies = s.getPodStatus ?? {};
    this.inspected = [];
    this.unexpected = [];
    let sent: PodLifecycleEvent[] = [];
    for (let k = 0; k < (s.repeat ?? 1); k++) {
      yield* this.pleg.relist();
      sent = drain(this.pleg);
    }
    const got: Ev[] = sent.map((e) => ({ pod: e.ID, type: e.Type, data: String(e.Data) }));
    const diffs: string[] = this.unexpected.map((uid) => `unexpected GetPodStatus(${uid}): the strict mock fails the test`);
    if (s.expectEvents !== undefined) diffs.push(...checkEvents(s.expectEvents, got));
    if (s.expectEventsExactly !== undefined) diffs.push(...diffValues(s.expectEventsExactly, got, "events"));
    if (s.expectEventCount !== undefined && got.length !== s.expectEventCount) diffs.push(`events: expected ${s.expectEventCount}, got ${got.length}`);
    if (s.expectEventsSubsetOf !== undefined) diffs.push(...checkSubset(s.expectEventsSubsetOf, got));
    if (s.expectGetPodStatusCalls !== undefined) diffs.push(...diffValues([...s.expectGetPodStatusCalls].sort(), [...this.inspected].sort(), "GetPodStatus calls"));
    for (const [uid, want] of Object.entries(s.expectCache ?? {})) diffs.push(...this.checkCache(uid, want));
    if (s.expectMetric !== undefined) diffs.push(...checkMetrics(s.expectMetric, this.pleg.metrics));
    return diffs;
  }

  /** TestCacheWithEventedPLEG: updateCache on a pod with one container, then what the cache holds. */
  private *updateCache(s: Step, where: string): Proc<string[]> {
    if (this.cache === null || s.pod === undefined) throw new VectorError(`${where}: updateCache needs the cache harness and pod`);
    this.replies = s.getPodStatus ?? {};
    const pod = runtimePodFrom({ id: s.pod, containers: [{ id: "c0", state: "running" }] });
    const [err, updated] = yield* this.pleg.updateCache(pod, pod.id);
    const cached = this.cache.Get(pod.id);
    const e = parsePart(updateCacheExpect, s.expect, `${where}.expect`);
    const got = { updated, error: err === null ? undefined : err.message, cachedRestartCount: cached?.containerStatuses[0]?.restartCount ?? null };
    return diffValues({ updated: e.updated, error: e.error, cachedRestartCount: e.cachedRestartCount }, got, "updateCache");
  }

  /** Cache.Get(uid) as the test reads it: the status (Go zero fields absent) and the error text. */
  private checkCache(uid: string, want: { status?: z.infer<typeof statusSchema> | undefined; error?: string | undefined }): string[] {
    if (this.cache === null) throw new VectorError(`expectCache[${uid}]: this harness has no cache`);
    const [status, err] = this.cache.GetWithError(uid);
    const got = {
      status: status === null ? undefined : goValue({ id: status.id, ips: status.ips, containerStatuses: status.containerStatuses.map((c) => ({ id: c.id.id, state: c.state })) }),
      error: err === null ? undefined : err.message,
    };
    const expected = { status: want.status === undefined ? undefined : goValue(want.status), error: want.error };
    return diffValues(expected, got, `cache[${uid}]`);
  }
}

/** Everything sent so far, without blocking: the tests read the channel until it is empty. */
function drain(pleg: GenericPLEG): PodLifecycleEvent[] {
  const out: PodLifecycleEvent[] = [];
  const ch = pleg.Watch();
  for (let r = ch.tryRecv(); r !== undefined && r.ok; r = ch.tryRecv()) out.push(r.value!);
  return out;
}

function container(c: z.infer<typeof listed>): RuntimeContainer {
  return { id: { type: "test", id: c.id }, name: c.id, image: "", imageID: "", hash: 0, state: c.state as State };
}

function runtimePodFrom(p: z.infer<typeof runtimePod>): RuntimePod {
  return { id: p.id, name: p.name ?? "", namespace: p.namespace ?? "", createdAtMs: 0, containers: (p.containers ?? []).map(container), sandboxes: (p.sandboxes ?? []).map(container) };
}

function podStatusFrom(uid: string, s: z.infer<typeof statusSchema>): PodStatus {
  const statuses: Status[] = (s.containerStatuses ?? []).map((c) => ({
    id: { type: "test", id: c.id }, name: c.id, state: c.state as State, createdAtMs: 0, exitCode: c.exitCode ?? 0,
    image: "", imageID: "", hash: 0, restartCount: c.restartCount ?? 0, reason: "", message: "",
  }));
  const status: PodStatus = { id: s.id ?? uid, name: "", namespace: "", ips: s.ips ?? [], containerStatuses: statuses, sandboxStatuses: [] };
  if (s.timeStamp !== undefined) status.timestampMs = timeOf(s.timeStamp);
  return status;
}

/** The Go test's times: `startTime` (time.Now() at its start, virtual 0 here), give or take seconds. */
function timeOf(text: string): number {
  const ms = timeTokenMs(text, START_TIME_MS, START_TIME_MS);
  if (ms === undefined) throw new VectorError(`unreadable time ${JSON.stringify(text)}: expected startTime or startTime±Ns`);
  return ms;
}

const START_TIME_MS = 0;

/**
 * One container going from oldState to newState: generateEvents' answer, and what two relists of a
 * cache-less PLEG send (the second relist sees the change), so the Relist filter is the model's.
 */
function runTransition(oldState: plegContainerState, newState: plegContainerState, expectRaw: unknown): string[] {
  const expect = parsePart(z.looseObject({ generated: z.array(z.string()), sentOnChannel: z.array(z.string()) }), expectRaw, "expect");
  const generated = generateEvents("pod", "c", oldState, newState).map((e) => e.Type);
  const h = new PlegHarness({ name: "transition", harness: "fakeRuntimeNoCache" });
  const podWith = (st: plegContainerState): RuntimePod => runtimePodFrom({ id: "pod", containers: st === "non-existent" ? [] : [{ id: "c", state: st }] });
  let sent: string[] = [];
  h.sim.go("harness", function* () {
    h.pods = [podWith(oldState)];
    yield* h.pleg.relist();
    drain(h.pleg);
    h.pods = [podWith(newState)];
    yield* h.pleg.relist();
    sent = drain(h.pleg).map((e) => e.Type);
  });
  const run = h.sim.run();
  if (isFailureVerdict(run.verdict)) throw new VectorError(`the PLEG harness did not finish: ${run.verdict}`);
  return [...diffValues(expect.generated, generated, "generated"), ...diffValues(expect.sentOnChannel, sent, "sentOnChannel")];
}
