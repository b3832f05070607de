// The status manager's sync loop as a process against a fake pods client with latency: GET then
// PATCH, the batch every 10 s, the non-blocking channel, the UID checks (races.md R15), delete with
// grace 0 and a UID precondition. After status_manager_test.go (TestSyncPod*, TestStaleUpdates,
// TestDeletePod*, TestDoNotDeleteMirrorPods, TestReconcilePodStatus, TestStaticPod).
import { describe, expect, it } from "vitest";
import type { Pod, PodStatus } from "../../../src/k8s/pod.ts";
import { sleep, type Proc } from "../../../src/sim/index.ts";
import { StatusManager } from "../../../src/kubelet/status/status_manager.ts";
import { podManagerWithoutStaticPods, type PodManager } from "../../../src/kubelet/status/interfaces.ts";
import { StatusError } from "../../../src/apiserver/errors.ts";
import { FakeClient, FakeDeletionSafety, FakePodManager, getTestPod, newSim, records } from "./fakes.ts";

interface Setup {
  minor: number;
  latencyMs?: number;
  pods?: Pod[];
  podManager?: (client: FakeClient) => PodManager;
  untilMs?: number;
}

/** A status manager whose pod manager sees what the fake apiserver stores, as the kubelet's does. */
function setup(o: Setup) {
  const { sim, sink } = newSim(1, o.untilMs ?? 60_000);
  const client = new FakeClient(sim, o.latencyMs ?? 5);
  for (const p of o.pods ?? [getTestPod()]) client.put(p);
  const safety = new FakeDeletionSafety();
  const podManager = o.podManager?.(client) ?? podManagerWithoutStaticPods((uid) => [...client.pods.values()].find((p) => p.metadata.uid === uid));
  const sm = new StatusManager(sim, { kubeClient: client, podManager, podDeletionSafety: safety, version: o.minor });
  sm.Start();
  return { sim, sink, client, safety, sm };
}

/** Runs `body` as the "test" process, then the simulation to its end. */
function run(s: ReturnType<typeof setup>, body: () => Proc<void>) {
  s.sim.go("test", body);
  return s.sim.run();
}

const msg = (m: string): PodStatus => ({ message: m });

describe.each([21, 29])("kubelet 1.%i: GET then PATCH", (minor) => {
  it("a new status is written at once: GET, then PATCH with the UID precondition (TestSyncPod)", () => {
    const s = setup({ minor });
    run(s, function* () {
      s.sm.SetPodStatus(getTestPod(), msg("hello"));
    });
    expect(s.client.actions.slice(0, 2)).toEqual([
      { t: 5, verb: "get", name: "foo", ok: true },
      { t: 10, verb: "patch", name: "foo", uid: "12345678", ok: true },
    ]);
    expect(s.client.pods.get("new/foo")!.status!.message).toBe("hello");
    expect(s.sm.apiStatusVersions.get("12345678")).toBe(1);
    expect(records(s.sink, "status", "PatchStatus")).toMatchObject([{ pod: "new/foo", uid: "12345678", version: 1, result: "patched", uidPrecondition: "12345678" }]);
  });

  it("a missing pod stops at the GET, and each batch asks again until the status is orphaned (TestSyncPodIgnoresNotFound)", () => {
    const s = setup({ minor, pods: [], untilMs: 25_000 });
    run(s, function* () {
      s.sm.SetPodStatus(getTestPod(), msg("x"));
      yield* sleep(15_000);
      s.sm.RemoveOrphanedStatuses(new Set());
    });
    expect(s.client.actions.map((a) => [a.t, a.verb])).toEqual([[5, "get"], [10_005, "get"]]);
    expect(records(s.sink, "status", "GetPodFailed")).toMatchObject([{ notFound: true }, { notFound: true }]);
  });

  it("a pod recreated under the same name before the GET: skip, and forget the old status (TestSyncPodChecksMismatchedUID)", () => {
    const s = setup({ minor, pods: [getTestPod({ uid: "second" })], podManager: () => new FakePodManager() });
    run(s, function* () {
      s.sm.SetPodStatus(getTestPod({ uid: "first" }), msg("x"));
    });
    expect(s.client.verbs()).toEqual(["get"]);
    expect(s.sm.podStatuses.has("first")).toBe(false);
    expect(records(s.sink, "status", "PodRecreated")).toMatchObject([{ uid: "first", newUid: "second" }]);
  });

  it("R15: a pod recreated between GET and PATCH is not patched: the UID precondition fails", () => {
    const s = setup({ minor, latencyMs: 10 });
    run(s, function* () {
      s.sm.SetPodStatus(getTestPod(), msg("for A"));
      yield* sleep(15); // the GET answered at t=10; the PATCH lands at t=20
      s.client.pods.delete("new/foo");
      s.client.put({ ...getTestPod({ uid: "B" }), status: { message: "B's own" } });
    });
    expect(s.client.actions.slice(0, 2).map((a) => [a.verb, a.ok])).toEqual([["get", true], ["patch", false]]);
    expect(s.client.pods.get("new/foo")!.status!.message).toBe("B's own");
    expect(s.sm.apiStatusVersions.has("B")).toBe(false);
    expect(records(s.sink, "status", "PatchStatus")[0]!.result).toMatch(/Precondition failed/);
  });

  it("an apiserver error stops at the GET; the status is retried by the next batch (TestSyncPodNoDeadlock error case)", () => {
    const s = setup({ minor, untilMs: 10_100 });
    s.client.failWith = new StatusError(0, "", "intentional test error");
    run(s, function* () {
      s.sm.SetPodStatus(getTestPod(), msg("x"));
      yield* sleep(1_000);
      s.client.failWith = null;
    });
    expect(s.client.actions.map((a) => [a.t, a.verb, a.ok])).toEqual([[5, "get", false], [10_005, "get", true], [10_010, "patch", true]]);
  });
});

describe("the batch: every 10 s, whatever is stale or out of step with the API", () => {
  it("1.21: statuses wait in the 1000-deep channel; a full channel drops the request (non-blocking) and the 10 s batch writes it", () => {
    const pods = Array.from({ length: 1001 }, (_, i) => getTestPod({ uid: `u${i}`, name: `p${i}` }));
    const s = setup({ minor: 21, pods, latencyMs: 0, untilMs: 10_000 });
    // Before the loop runs at all: 1001 updates from plain calls, none of which blocks.
    for (const p of pods) s.sm.SetPodStatus(p, msg("x"));
    expect(s.sm.podStatusChannel.length).toBe(1000);
    expect(records(s.sink, "status", "StatusChannelFull")).toMatchObject([{ uid: "u1000", version: 1 }]);
    s.sim.run();
    const patched = (uid: string) => s.client.actions.find((a) => a.verb === "patch" && a.uid === uid);
    expect(patched("u0")!.t).toBe(0);
    expect(patched("u999")!.t).toBe(0);
    expect(patched("u1000")!.t).toBe(10_000);
  });

  it("1.21: each queued request carries its own version, so v1, v2 and v3 are written one by one", () => {
    const s = setup({ minor: 21 });
    run(s, function* () {
      for (const m of ["initial status", "first version bump", "second version bump"]) s.sm.SetPodStatus(getTestPod(), msg(m));
    });
    expect(records(s.sink, "status", "PatchStatus").map((r) => r.version)).toEqual([1, 2, 3]);
    expect(s.client.pods.get("new/foo")!.status!.message).toBe("second version bump");
  });

  it("1.29: three updates before the loop runs make one signal and one write of the newest (TestStaleUpdates)", () => {
    const s = setup({ minor: 29 });
    run(s, function* () {
      for (const m of ["initial status", "first version bump", "second version bump"]) s.sm.SetPodStatus(getTestPod(), msg(m));
      expect(s.sm.podStatusChannel.length).toBe(1);
    });
    expect(records(s.sink, "status", "PatchStatus").map((r) => r.version)).toEqual([3]);
    expect(s.client.verbs()).toEqual(["get", "patch"]);
  });

  it("the ticker fires every 10 s; with nothing stale and the API in step, it sends nothing (TestReconcilePodStatus)", () => {
    const s = setup({ minor: 21, untilMs: 35_000 });
    run(s, function* () {
      s.sm.SetPodStatus(getTestPod(), msg("x"));
    });
    expect(records(s.sink, "status", "SyncBatch").map((r) => [r.t, r.all, (r.pods as string[]).length])).toEqual([
      [10_000, true, 0],
      [20_000, true, 0],
      [30_000, true, 0],
    ]);
    expect(s.client.verbs()).toEqual(["get", "patch"]);
  });

  it("a status changed behind the kubelet's back is written again at the next batch (needsReconcile)", () => {
    const s = setup({ minor: 21, untilMs: 25_000 });
    run(s, function* () {
      s.sm.SetPodStatus(getTestPod(), msg("mine"));
      yield* sleep(3_000);
      s.client.pods.get("new/foo")!.status = { message: "someone else's" };
    });
    expect(s.client.actions.map((a) => [a.t, a.verb])).toEqual([[5, "get"], [10, "patch"], [10_005, "get"], [10_010, "patch"]]);
    expect(records(s.sink, "status", "NeedsReconcile")).toHaveLength(1);
    expect(s.client.pods.get("new/foo")!.status!.message).toBe("mine");
  });
});

describe("delete with grace 0 and a UID precondition", () => {
  const deleting = (uid = "12345678") => getTestPod({ uid, deletionTimestamp: "2025-01-01T00:00:00Z" });

  it("1.21: once the pod is being deleted and its resources are reclaimed, DELETE follows the PATCH", () => {
    const s = setup({ minor: 21, pods: [deleting()] });
    run(s, function* () {
      s.sm.SetPodStatus(deleting(), { phase: "Failed" });
    });
    expect(s.client.actions.map((a) => [a.t, a.verb, a.uid ?? null])).toEqual([[5, "get", null], [10, "patch", "12345678"], [15, "delete", "12345678"]]);
    expect(s.client.pods.has("new/foo")).toBe(false);
    expect(s.sm.podStatuses.has("12345678")).toBe(false);
    expect(records(s.sink, "status", "DeletePod")).toMatchObject([{ uid: "12345678", gracePeriodSeconds: 0, result: "deleted" }]);
  });

  it("1.21: not reclaimed yet → no DELETE; the batch deletes once it is (needsUpdate via canBeDeleted)", () => {
    const s = setup({ minor: 21, pods: [deleting()], untilMs: 21_000 });
    s.safety.reclaimed = false;
    run(s, function* () {
      s.sm.SetPodStatus(deleting(), { phase: "Failed" });
      yield* sleep(12_000);
      s.safety.reclaimed = true;
    });
    // The batch's PATCH is skipped as unchanged (PatchPodStatus sends nothing), so the DELETE follows the GET.
    expect(s.client.actions.map((a) => [a.t, a.verb])).toEqual([[5, "get"], [10, "patch"], [20_005, "get"], [20_010, "delete"]]);
    expect(records(s.sink, "status", "PatchStatus").map((r) => r.result)).toEqual(["patched", "unchanged"]);
  });

  it("1.29: a deleted pod with a terminal status is not deleted before TerminatePod (TestDeletePodBeforeFinished)", () => {
    const s = setup({ minor: 29, pods: [deleting()], untilMs: 15_000 });
    run(s, function* () {
      s.sm.SetPodStatus(deleting(), { phase: "Failed" });
    });
    expect(s.client.verbs()).toEqual(["get", "patch"]);
  });

  it("1.29: TerminatePod marks the pod finished and the DELETE follows (TestDeletePodFinished)", () => {
    const s = setup({ minor: 29, pods: [deleting()] });
    run(s, function* () {
      s.sm.TerminatePod(deleting());
    });
    expect(s.client.actions.map((a) => [a.verb, a.uid ?? null])).toEqual([["get", null], ["patch", "12345678"], ["delete", "12345678"]]);
  });

  it("R15, 2016 variant: a pod recreated between PATCH and DELETE survives: the DELETE's UID precondition fails", () => {
    const s = setup({ minor: 21, pods: [deleting()], untilMs: 9_000 });
    run(s, function* () {
      s.sm.SetPodStatus(deleting(), { phase: "Failed" });
      yield* sleep(12); // PATCH answered at t=10, DELETE lands at t=15
      s.client.pods.delete("new/foo");
      s.client.put(getTestPod({ uid: "B" }));
    });
    expect(s.client.actions.map((a) => [a.verb, a.ok])).toEqual([["get", true], ["patch", true], ["delete", false]]);
    expect(s.client.pods.get("new/foo")!.metadata.uid).toBe("B");
  });

  it("mirror pods are never deleted (TestDoNotDeleteMirrorPods)", () => {
    const staticPod = getTestPod({ annotations: { "kubernetes.io/config.source": "file" } });
    const mirrorPod = getTestPod({
      uid: "mirror-12345678",
      deletionTimestamp: "2025-01-01T00:00:00Z",
      annotations: { "kubernetes.io/config.source": "api", "kubernetes.io/config.mirror": "mirror" },
    });
    const pm = new FakePodManager();
    pm.add(staticPod);
    pm.add(mirrorPod);
    const s = setup({ minor: 21, pods: [mirrorPod], podManager: () => pm, untilMs: 9_000 });
    run(s, function* () {
      s.sm.SetPodStatus(staticPod, { ...msg("x"), startTime: "2025-01-01T00:00:00Z" });
    });
    expect(s.client.verbs()).toEqual(["get", "patch"]);
    expect(s.sm.apiStatusVersions.get("mirror-12345678")).toBe(1);
  });
});

describe("static pods (TestStaticPod)", () => {
  it("a static pod without a mirror pod is not synced by the batch", () => {
    const staticPod = getTestPod({ annotations: { "kubernetes.io/config.source": "file" } });
    const pm = new FakePodManager();
    pm.add(staticPod);
    const s = setup({ minor: 29, pods: [], podManager: () => pm, untilMs: 25_000 });
    run(s, function* () {
      s.sm.SetPodStatus(staticPod, msg("x"));
    });
    expect(s.client.verbs()).toEqual([]);
  });
});

describe("determinism", () => {
  it("the same seed and strategy give the same trace", () => {
    const once = () => {
      const s = setup({ minor: 29, untilMs: 30_000, pods: [getTestPod(), getTestPod({ uid: "u2", name: "bar" })] });
      return run(s, function* () {
        s.sm.SetPodStatus(getTestPod(), msg("a"));
        s.sm.SetPodStatus(getTestPod({ uid: "u2", name: "bar" }), msg("b"));
        yield* sleep(11_000);
        s.client.pods.get("new/foo")!.status = {};
      }).traceHash;
    };
    expect(once()).toBe(once());
  });
});

