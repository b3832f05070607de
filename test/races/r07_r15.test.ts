// Races R07 (a stale cached status makes the kubelet create a second container for a Never pod)
// and R15 (a status patch lands on a pod recreated under the same name): the pieces each race is
// made of (the docker runtime's two views, the two-way status diff, the two monitors) and what
// each side of the catalog entry shows, beyond the verdicts test/docs/races.test.ts checks.
import { describe, expect, it } from "vitest";
import { program, type CriError, type Container, type ContainerStatus } from "../../src/cri/index.ts";
import { applyStatusDiff } from "../../src/apiserver/status_patch.ts";
import { kubeletWriteToOtherUid } from "../../src/check/invariants/kubelet_write_other_uid.ts";
import { neverPolicyCreatedTwice } from "../../src/check/invariants/never_created_twice.ts";
import type { InvariantMonitor } from "../../src/check/invariants.ts";
import { RACES, raceScenario } from "../../src/races/catalog.ts";
import { simulate } from "../../src/simulate.ts";
import type { TraceRecord } from "../../src/sim/index.ts";
import { containerConfig, harness, sandboxConfig } from "../cri/helpers.ts";

const race = (id: string) => RACES.find((r) => r.id === id)!;
const run = (id: string, side: "buggy" | "fixed") => simulate(raceScenario(race(id), side));

/** Feeds records (t and seq filled in) to a monitor; returns the violations' messages. */
function feed(m: InvariantMonitor, recs: Omit<TraceRecord, "t" | "seq">[]): string[] {
  return recs.flatMap((r, i) => {
    const v = m.observe({ t: i, seq: i, ...r } as TraceRecord);
    return v === null ? [] : [v.message];
  });
}

describe("R07: docker keeps a container whose start failed in the created state", () => {
  const failing = () => {
    const h = harness({ images: { "nginx:1.25": { present: true, pullTime: null, fail: null } } }, { options: { failedStartStaysCreated: true } });
    h.rt.setBehaviour("default/web", "app", [program({ startError: 'exec: "/blarg": stat /blarg: no such file or directory' })]);
    return h;
  };

  it("ListContainers says CREATED before and after the failed start; ContainerStatus says EXITED 128 ContainerCannotRun", () => {
    const h = failing();
    const out = h.run(function* () {
      const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
      const c = (yield* h.rt.CreateContainer(sb, containerConfig(), sandboxConfig())) as string;
      const before = (yield* h.rt.ListContainers(null)) as Container[];
      const err = (yield* h.rt.StartContainer(c)) as CriError;
      const after = (yield* h.rt.ListContainers(null)) as Container[];
      const status = (yield* h.rt.ContainerStatus(c)) as ContainerStatus;
      return { before, err, after, status };
    });
    expect(out.before.map((c) => c.state)).toEqual(["CONTAINER_CREATED"]);
    expect(out.after.map((c) => c.state)).toEqual(["CONTAINER_CREATED"]);
    expect(out.err.desc).toMatch(/Error response from daemon: OCI runtime create failed: exec: "\/blarg"/);
    const s = out.status;
    expect([s.state, s.exitCode, s.reason]).toEqual(["CONTAINER_EXITED", 128, "ContainerCannotRun"]);
    expect([s.startedAtMs, s.finishedAtMs]).toEqual([s.createdAtMs, s.createdAtMs]);
    expect(h.records("ContainerExited")).toEqual([]);
  });

  it("a created container that has not been started is CREATED in both views", () => {
    const h = failing();
    const status = h.run(function* () {
      const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
      const c = (yield* h.rt.CreateContainer(sb, containerConfig(), sandboxConfig())) as string;
      return (yield* h.rt.ContainerStatus(c)) as ContainerStatus;
    });
    expect([status.state, status.exitCode]).toEqual(["CONTAINER_CREATED", 0]);
  });

  it("never-policy-created-twice counts creations per pod UID and sandbox, reset by a new sandbox or a kubelet start", () => {
    const scenario = raceScenario(race("R07"), "buggy");
    const m = () => neverPolicyCreatedTwice.make(scenario);
    const pod = "default/blarg";
    const view = { component: "apiserver", kind: "PodView", pod, uid: "A" };
    const create = (id: string) => ({ component: "runtime", kind: "CreateContainer", pod, container: "app", newId: id, result: "ok" });
    const sandbox = { component: "runtime", kind: "RunPodSandbox", pod, newId: "s-2", result: "ok" };
    const restart = { component: "kubelet", kind: "KubeletStart" };
    expect(feed(m(), [view, create("c-1"), create("c-2")])).toEqual([
      "a second container app (c-2) was created for a restartPolicy Never pod in the same sandbox; the first was c-1",
    ]);
    expect(feed(m(), [view, create("c-1"), sandbox, create("c-2")])).toEqual([]);
    expect(feed(m(), [view, create("c-1"), restart, create("c-2")])).toEqual([]);
    expect(feed(m(), [view, create("c-1"), { ...view, uid: "B" }, create("c-2")])).toEqual([]);
  });

  it("buggy: relist caches the container as created, GetNewerThan hands that entry out after the failed start, and c-2 is created", () => {
    const r = run("R07", "buggy");
    const recs = r.records!;
    const at = (component: string, kind: string) => recs.filter((x) => x.component === component && x.kind === kind && x.pod === "default/blarg");
    const creates = at("runtime", "CreateContainer");
    const failedStart = at("runtime", "ContainerStartFailed")[0]!;
    expect(creates.map((c) => c.newId)).toEqual(["c-1", "c-2"]);
    // The relist that cached the pod ran while c-1 was created and not yet started.
    const stale = at("cache", "GetNewerThan").find((g) => (g.statusTimeMs as number) < (g.minTimeMs as number))!;
    expect(stale.statusTimeMs).toBeGreaterThan(creates[0]!.t);
    expect(stale.statusTimeMs).toBeLessThan(failedStart.t);
    expect(stale.minTimeMs).toBe(failedStart.t);
    expect(creates[1]!.t).toBeGreaterThan(stale.t);
    // No container ever ran: never-policy-runs-twice cannot see this race.
    expect(at("runtime", "ContainerStarted")).toEqual([]);
    expect(r.checks.expectations.map((e) => e.ok)).toEqual([false, true]);
  });

  it("fixed (containerd): the failed start is an exit, relist reports ContainerDied and one container is created", () => {
    const r = run("R07", "fixed");
    const recs = r.records!;
    const creates = recs.filter((x) => x.component === "runtime" && x.kind === "CreateContainer");
    expect(creates.map((c) => c.newId)).toEqual(["c-1"]);
    expect(recs.some((x) => x.component === "pleg" && x.kind === "ContainerDied" && x.containerID === "c-1")).toBe(true);
    expect(r.checks.expectations.map((e) => e.ok)).toEqual([true, true]);
  });
});

describe("R15: a status patch without a UID precondition lands on the recreated pod", () => {
  it("applyStatusDiff applies only what changed between base and next, whole fields at a time", () => {
    const target = { phase: "Pending" as const, message: "new pod" };
    expect(applyStatusDiff(target, { phase: "Failed" }, { phase: "Failed" })).toEqual(target);
    expect(applyStatusDiff(target, { phase: "Running" }, { phase: "Failed", reason: "Evicted" })).toEqual({ phase: "Failed", message: "new pod", reason: "Evicted" });
    expect(applyStatusDiff(target, { message: "old" }, {})).toEqual({ phase: "Pending" });
  });

  it("kubelet-write-to-other-uid: a kubelet write must land on the UID it read or preconditioned", () => {
    const m = () => kubeletWriteToOtherUid.make(raceScenario(race("R15"), "buggy"));
    const pod = "default/web-0";
    const get = { component: "apiserver", kind: "Get", actor: "kubelet", pod, uid: "A", result: "ok" };
    const patch = (uid: string, pre: string | null) => ({ component: "apiserver", kind: "PatchStatus", actor: "kubelet", pod, uid, uidPrecondition: pre, result: "ok" });
    expect(feed(m(), [get, patch("B", null)])).toHaveLength(1);
    expect(feed(m(), [get, patch("A", null)])).toEqual([]);
    expect(feed(m(), [get, patch("A", "A")])).toEqual([]);
    expect(feed(m(), [get, { ...patch("B", "A"), result: "Invalid", uid: undefined }])).toEqual([]);
    expect(feed(m(), [get, { ...get, actor: "user", uid: "B" }, patch("B", null)])).toHaveLength(1);
    const del = { component: "apiserver", kind: "Delete", actor: "kubelet", pod, uid: "B", uidPrecondition: null, result: "ok" };
    expect(feed(m(), [get, del])).toHaveLength(1);
  });

  it("buggy: the PATCH meant for A lands on B, and B's own Pending and Running are skipped until the 10s reconcile", () => {
    const r = run("R15", "buggy");
    const recs = r.records!;
    const patches = recs.filter((x) => x.component === "apiserver" && x.kind === "PatchStatus" && x.t > 5_100);
    const created = recs.find((x) => x.component === "apiserver" && x.kind === "Create" && x.t > 5_000)!;
    expect(patches[0]!.uid).toBe(created.uid);
    expect(patches[0]!.uidPrecondition).toBeNull();
    // The next write to B is the batch's reconcile: B's versions 1 and 2 were taken as written.
    expect(patches[1]!.t).toBeGreaterThanOrEqual(10_000);
    expect(r.checks.expectations.map((e) => e.ok)).toEqual([false, false]);
  });

  it("fixed: the PATCH carries A's UID and fails with 422; B's statuses are written as they come", () => {
    const r = run("R15", "fixed");
    const recs = r.records!;
    const patches = recs.filter((x) => x.component === "apiserver" && x.kind === "PatchStatus" && x.t > 5_100);
    expect(patches[0]!.result).toBe("Invalid");
    expect(String(patches[0]!.error)).toMatch(/metadata\.uid: Invalid value: .*field is immutable/);
    expect(r.checks.expectations.map((e) => e.ok)).toEqual([true, true]);
  });
});
