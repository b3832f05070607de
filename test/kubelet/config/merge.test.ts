// podStorage.merge and checkAndUpdatePod, table-driven; the cases port pkg/kubelet/config/config_test.go.
import { describe, expect, it } from "vitest";
import { freeze } from "immer";
import type { Pod } from "../../../src/k8s/pod.ts";
import {
  checkAndUpdatePod, emptyPodStorage, incrementalNotifications, merge, type PodStorageState, type PodUpdate,
} from "../../../src/kubelet/config/index.ts";
import { isAnnotationMapEqual, recordFirstSeenTime } from "../../../src/kubelet/config/merge.ts";

const TestSource = "test";
const ctx = { nowMs: 1500, mapOrder: (keys: readonly string[]) => [...keys] };

/** CreateValidPod(name, namespace): UID is name + namespace, as upstream's helper. */
function validPod(name: string, namespace = "new", patch: (p: Pod) => void = () => {}): Pod {
  const p: Pod = {
    metadata: { name, namespace, uid: name + namespace },
    spec: { restartPolicy: "Always", dnsPolicy: "ClusterFirst", containers: [{ name: "ctr", image: "image", imagePullPolicy: "IfNotPresent" }] },
  };
  patch(p);
  return freeze(p, true);
}

const upd = (Op: PodUpdate["Op"], ...Pods: Pod[]): PodUpdate => ({ Op, Pods, Source: TestSource });

/** Runs a sequence of changes; returns the notifications of the last one, as "OP:name,name". */
function run(changes: PodUpdate[]): { sent: string[]; last: PodUpdate[]; state: PodStorageState } {
  let state = emptyPodStorage();
  let last: PodUpdate[] = [];
  for (const c of changes) {
    const seenBefore = state.sourcesSeen.has(TestSource);
    const r = merge(state, TestSource, c, ctx);
    state = r.state;
    last = incrementalNotifications(r, !seenBefore && state.sourcesSeen.has(TestSource));
  }
  return { sent: last.map((u) => `${u.Op}:${u.Pods.map((p) => p.metadata.name).join(",")}`), last, state };
}

describe("merge classifications (incremental mode)", () => {
  const withImage = (img: string) => (p: Pod) => { p.spec.containers = [{ name: "bar", image: img, imagePullPolicy: "IfNotPresent" }]; };
  const deletedAt = (ts: string, grace: number) => (p: Pod) => { p.metadata.deletionTimestamp = ts; p.metadata.deletionGracePeriodSeconds = grace; };

  it.each<[string, PodUpdate[], string[]]>([
    ["a new pod is an ADD", [upd("ADD", validPod("foo"))], ["ADD:foo"]],
    ["an identical ADD is nothing", [upd("ADD", validPod("foo")), upd("ADD", validPod("foo"))], []],
    ["an ADD with a changed spec is an UPDATE", [upd("ADD", validPod("foo")), upd("ADD", validPod("foo", "new", withImage("test")))], ["UPDATE:foo"]],
    ["a REMOVE of a known pod is a REMOVE", [upd("ADD", validPod("foo")), upd("REMOVE", validPod("foo"))], ["REMOVE:foo"]],
    ["a REMOVE of an unknown pod is nothing", [upd("REMOVE", validPod("foo"))], []],
    ["a newly set deletionTimestamp is a DELETE", [upd("ADD", validPod("foo")), upd("DELETE", validPod("foo", "new", deletedAt("2025-01-01T00:00:30Z", 30)))], ["DELETE:foo"]],
    ["an UPDATE op carrying a deletionTimestamp is still a DELETE", [upd("ADD", validPod("foo")), upd("UPDATE", validPod("foo", "new", deletedAt("2025-01-01T00:00:30Z", 30)))], ["DELETE:foo"]],
    ["a shortened grace on a deleting pod is another DELETE", [
      upd("ADD", validPod("foo", "new", deletedAt("2025-01-01T00:00:30Z", 30))),
      upd("SET", validPod("foo", "new", deletedAt("2025-01-01T00:00:10Z", 10))),
    ], ["DELETE:foo"]],
    ["a spec change on a deleting pod is a DELETE, not an UPDATE", [
      upd("ADD", validPod("foo", "new", deletedAt("2025-01-01T00:00:30Z", 30))),
      upd("SET", validPod("foo", "new", (p) => { deletedAt("2025-01-01T00:00:30Z", 30)(p); withImage("x")(p); })),
    ], ["DELETE:foo"]],
    ["a status-only change is a RECONCILE", [upd("SET", validPod("foo")), upd("SET", validPod("foo", "new", (p) => { p.status = { message: "m" }; }))], ["RECONCILE:foo"]],
    ["status and spec changed together are an UPDATE, not a RECONCILE", [
      upd("SET", validPod("foo")), upd("SET", validPod("foo", "new", (p) => { p.status = { message: "m" }; p.spec.containers[0]!.name = "n"; })),
    ], ["UPDATE:foo"]],
    ["a label change is an UPDATE", [upd("SET", validPod("foo", "new", (p) => { p.metadata.labels = { key: "value" }; })),
      upd("SET", validPod("foo", "new", (p) => { p.metadata.labels = { key: "newValue" }; }))], ["UPDATE:foo"]],
    ["a changed, added or removed non-local annotation is an UPDATE", [
      upd("SET", validPod("foo", "new", (p) => { p.metadata.annotations = { "kubernetes.io/blah": "blah" }; })),
      upd("SET", validPod("foo", "new", (p) => { p.metadata.annotations = { "kubernetes.io/blah": "superblah" }; })),
    ], ["UPDATE:foo"]],
    ["a change of a local annotation (config.mirror) alone is nothing", [
      upd("SET", validPod("foo")), upd("SET", validPod("foo", "new", (p) => { p.metadata.annotations = { "kubernetes.io/config.mirror": "x" }; })),
    ], []],
    ["a resourceVersion-only change is nothing", [
      upd("SET", validPod("foo", "new", (p) => { p.metadata.resourceVersion = "5"; })),
      upd("SET", validPod("foo", "new", (p) => { p.metadata.resourceVersion = "6"; })),
    ], []],
    ["the first SET of a source with no pods is an empty ADD (the source is ready)", [upd("SET")], ["ADD:"]],
    ["a later empty SET is nothing", [upd("SET"), upd("SET")], []],
    ["the first SET with pods is their ADD and no extra empty one", [upd("SET", validPod("foo"))], ["ADD:foo"]],
    ["a first SET with only removals still sends the empty ADD, after the REMOVE", [upd("ADD", validPod("foo")), upd("SET")], ["REMOVE:foo", "ADD:"]],
    ["a SET is split into REMOVE, ADD, UPDATE in that order", [
      upd("ADD", validPod("foo"), validPod("foo2"), validPod("foo3")),
      upd("SET", validPod("foo2", "new", withImage("test")), validPod("foo3"), validPod("foo4")),
    ], ["REMOVE:foo", "ADD:foo4", "UPDATE:foo2"]],
    ["REMOVE, ADD, UPDATE, DELETE, then RECONCILE", [
      upd("SET", validPod("r"), validPod("u"), validPod("d"), validPod("c")),
      upd("SET", validPod("a"), validPod("u", "new", withImage("x")), validPod("d", "new", deletedAt("2025-01-01T00:00:30Z", 30)),
        validPod("c", "new", (p) => { p.status = { phase: "Running" }; })),
    ], ["REMOVE:r", "ADD:a", "UPDATE:u", "DELETE:d", "RECONCILE:c"]],
    ["a SET re-adding a removed UID is an ADD again (static pod re-add, R03)", [
      upd("SET", validPod("foo")), upd("SET"), upd("SET", validPod("foo")),
    ], ["ADD:foo"]],
    ["a new UID under the same name is a REMOVE of the old and an ADD of the new (R04)", [
      upd("SET", validPod("foo")), upd("SET", validPod("foo", "new", (p) => { p.metadata.uid = "other"; })),
    ], ["REMOVE:foo", "ADD:foo"]],
  ])("%s", (_name, changes, want) => {
    expect(run(changes).sent).toEqual(want);
  });

  it("the second pod with an already seen full name in one change is dropped (filterInvalidPods)", () => {
    const r = merge(emptyPodStorage(), TestSource, upd("ADD", validPod("foo"), validPod("foo", "new", (p) => { p.metadata.uid = "dup"; })), ctx);
    expect(r.adds.Pods.map((p) => p.metadata.uid)).toEqual(["foonew"]);
    expect(r.rejected.map((p) => p.metadata.uid)).toEqual(["dup"]);
  });

  it("SET removals follow the injected Go map order", () => {
    const first = upd("SET", validPod("a"), validPod("b"), validPod("c"));
    let state = merge(emptyPodStorage(), TestSource, first, ctx).state;
    const rotate = (keys: readonly string[]) => [...keys.slice(1), keys[0]!];
    const r = merge(state, TestSource, upd("SET"), { ...ctx, mapOrder: rotate });
    expect(r.removes.Pods.map((p) => p.metadata.name)).toEqual(["b", "c", "a"]);
    state = r.state;
    expect(state.pods.get(TestSource)!.size).toBe(0);
  });

  it("only SET marks a source seen", () => {
    expect(run([upd("ADD", validPod("foo"))]).state.sourcesSeen.has(TestSource)).toBe(false);
    expect(run([upd("SET")]).state.sourcesSeen.has(TestSource)).toBe(true);
  });
});

describe("annotations the kubelet adds", () => {
  it("an added pod carries config.source and config.seen (RFC3339Nano of virtual now)", () => {
    const { last } = run([upd("ADD", validPod("foo"))]);
    expect(last[0]!.Pods[0]!.metadata.annotations).toEqual({
      "kubernetes.io/config.source": TestSource,
      "kubernetes.io/config.seen": "2025-01-01T00:00:01.5Z",
    });
  });

  it("an UPDATE keeps the first-seen time and the stored pod's other metadata", () => {
    let state = merge(emptyPodStorage(), TestSource, upd("SET", validPod("foo", "new", (p) => { p.metadata.resourceVersion = "5"; })), ctx).state;
    const r = merge(state, TestSource, upd("SET", validPod("foo", "new", (p) => { p.metadata.resourceVersion = "9"; p.metadata.labels = { a: "b" }; })), { ...ctx, nowMs: 99_000 });
    state = r.state;
    const u = r.updates.Pods[0]!;
    expect(u.metadata.annotations?.["kubernetes.io/config.seen"]).toBe("2025-01-01T00:00:01.5Z");
    expect(u.metadata.labels).toEqual({ a: "b" });
    // Upstream copies only spec, labels, deletion fields, status and annotations into the stored pod.
    expect(u.metadata.resourceVersion).toBe("5");
    expect(state.pods.get(TestSource)!.get("foonew")).toBe(u);
  });

  it("the stored pods and the pods handed out are frozen", () => {
    const { last } = run([upd("ADD", validPod("foo"))]);
    expect(Object.isFrozen(last[0]!.Pods[0]!.metadata.annotations)).toBe(true);
  });
});

describe("checkAndUpdatePod", () => {
  const base = validPod("p", "ns", (p) => { p.metadata.annotations = { "kubernetes.io/config.seen": "t0", "kubernetes.io/config.source": "api" }; });
  it.each<[string, (p: Pod) => void, [boolean, boolean, boolean]]>([
    ["no change", () => {}, [false, false, false]],
    ["status only", (p) => { p.status = { phase: "Running" }; }, [false, true, false]],
    ["spec", (p) => { p.spec.activeDeadlineSeconds = 5; }, [true, false, false]],
    ["deletion timestamp", (p) => { p.metadata.deletionTimestamp = "2025-01-01T00:00:00Z"; p.metadata.deletionGracePeriodSeconds = 0; }, [false, false, true]],
    ["deletion grace only", (p) => { p.metadata.deletionGracePeriodSeconds = 3; }, [true, false, false]],
    ["local annotation only", (p) => { p.metadata.annotations = { ...p.metadata.annotations, "kubernetes.io/config.seen": "t1" }; }, [false, false, false]],
  ])("%s", (_n, change, [needUpdate, needReconcile, needGracefulDelete]) => {
    const ref = structuredClone(base) as Pod;
    change(ref);
    const r = checkAndUpdatePod(base, freeze(ref, true));
    expect([r.needUpdate, r.needReconcile, r.needGracefulDelete]).toEqual([needUpdate, needReconcile, needGracefulDelete]);
    if (!needUpdate && !needReconcile && !needGracefulDelete) expect(r.existing).toBe(base);
  });

  it.each<[string, Pod["status"]]>([
    ["a new status", { phase: "Running" }],
    ["no status", undefined],
  ])("a RECONCILE keeps the stored pod but its status: %s (shared, frozen)", (_n, status) => {
    const stored = freeze(validPod("p", "ns", (p) => {
      p.metadata.annotations = { "kubernetes.io/config.seen": "t0" };
      p.status = { phase: "Pending" };
    }), true);
    const ref = freeze({ ...structuredClone(stored), status } as Pod, true);
    const r = checkAndUpdatePod(stored, ref);
    expect(r.needReconcile).toBe(true);
    expect(r.existing.status).toBe(ref.status);
    expect({ ...r.existing, status: undefined }).toEqual({ ...stored, status: undefined });
    expect(r.existing.metadata).toBe(stored.metadata);
    expect(Object.isFrozen(r.existing)).toBe(true);
    expect(Object.keys(r.existing)).toEqual(Object.keys(stored).filter((k) => status !== undefined || k !== "status"));
  });
});

describe("isAnnotationMapEqual", () => {
  const src = "kubernetes.io/config.source";
  it.each<[string, Record<string, string> | undefined, Record<string, string> | undefined, boolean]>([
    ["both nil", undefined, undefined, true],
    ["nil and empty", undefined, {}, true],
    ["equal", { a: "1" }, { a: "1" }, true],
    ["different value", { a: "1" }, { a: "2" }, false],
    ["new key", {}, { a: "1" }, false],
    ["stale key", { a: "1" }, {}, false],
    ["local keys ignored", { [src]: "api", a: "1" }, { [src]: "file", a: "1" }, true],
    ["local key only on one side", { [src]: "api" }, undefined, true],
  ])("%s", (_n, existing, candidate, want) => {
    expect(isAnnotationMapEqual(existing, candidate)).toBe(want);
  });
});

describe("a pod object sent again (a SET repeats every pod of the node)", () => {
  it("is classified and stored as an equal new object is, at every step", () => {
    const v0 = validPod("foo");
    const v1 = validPod("foo", "new", (p) => { p.status = { message: "m" }; });
    const v2 = validPod("foo", "new", (p) => { p.status = { message: "m" }; p.spec.containers[0]!.image = "other"; });
    const v3 = validPod("foo", "new", (p) => { p.spec.containers[0]!.image = "other"; p.metadata.deletionTimestamp = "2025-01-01T00:00:30Z"; p.metadata.deletionGracePeriodSeconds = 30; });
    const bar = validPod("bar");
    const steps = [[v0], [v0], [v1], [v1, bar], [v1, bar], [v2, bar], [v2], [v0], [v0], [v3], [v3], [v1]];
    const fresh = (p: Pod): Pod => freeze(JSON.parse(JSON.stringify(p)) as Pod, true);
    const trail = (copy: (p: Pod) => Pod): string[] => {
      let state = emptyPodStorage();
      const out: string[] = [];
      for (const pods of steps) {
        const r = merge(state, TestSource, upd("SET", ...pods.map(copy)), ctx);
        state = r.state;
        out.push(JSON.stringify([incrementalNotifications(r, false), [...state.pods.get(TestSource)!.values()]]));
      }
      return out;
    };
    expect(trail((p) => p)).toEqual(trail(fresh));
  });
});

describe("recordFirstSeenTime", () => {
  it.each<[string, Record<string, string> | undefined]>([
    ["a pod without annotations gets the map", undefined],
    ["a pod with annotations keeps them", { a: "1" }],
  ])("%s; the pod given is left as it was and the rest is shared", (_n, annotations) => {
    const pod = freeze(validPod("p", "ns", (p) => {
      if (annotations === undefined) delete p.metadata.annotations;
      else p.metadata.annotations = annotations;
    }), true);
    const before = structuredClone(pod);
    const seen = recordFirstSeenTime(pod, 1500);
    expect(seen.metadata.annotations).toEqual({ ...(annotations ?? {}), "kubernetes.io/config.seen": "2025-01-01T00:00:01.5Z" });
    expect(pod).toEqual(before);
    expect(seen.spec).toBe(pod.spec);
    expect(Object.isFrozen(seen) && Object.isFrozen(seen.metadata) && Object.isFrozen(seen.metadata.annotations)).toBe(true);
    expect(Object.keys(seen)).toEqual(Object.keys(pod));
  });
});
