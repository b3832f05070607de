// controllers/informer.ts: the owner lookup and the expectations' observed add/delete, table-driven.
import { describe, expect, it } from "vitest";
import type { WatchEvent } from "../../src/apiserver/index.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import { controllerKey, observedExpectation } from "../../src/controllers/informer.ts";

function pod(opts: { owner?: { kind: string; name: string; uid: string; controller?: boolean }; deleting?: boolean } = {}): Pod {
  const o = opts.owner;
  return {
    metadata: {
      name: "web-1", namespace: "default",
      ...(o === undefined ? {} : { ownerReferences: [{ apiVersion: "apps/v1", kind: o.kind, name: o.name, uid: o.uid, controller: o.controller ?? true }] }),
      ...(opts.deleting === true ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {}),
    },
    spec: { containers: [{ name: "app", image: "nginx" }] },
  } as Pod;
}

const uids: Record<string, string> = { "default/web": "u1" };

describe("controllerKey", () => {
  it.each([
    ["the controller of that kind with the same UID", pod({ owner: { kind: "ReplicaSet", name: "web", uid: "u1" } }), "default/web"],
    ["no owner", pod(), undefined],
    ["another kind", pod({ owner: { kind: "Job", name: "web", uid: "u1" } }), undefined],
    ["an owner that is not the controller", pod({ owner: { kind: "ReplicaSet", name: "web", uid: "u1", controller: false } }), undefined],
    ["an older object of the name (another UID)", pod({ owner: { kind: "ReplicaSet", name: "web", uid: "u0" } }), undefined],
    ["an owner the controller does not know", pod({ owner: { kind: "ReplicaSet", name: "api", uid: "u1" } }), undefined],
  ])("%s", (_what, p, want) => {
    expect(controllerKey(p, "ReplicaSet", (key) => uids[key])).toBe(want);
  });
});

describe("observedExpectation", () => {
  const live = pod();
  const deleting = pod({ deleting: true });
  const ev = (type: WatchEvent["type"], object: Pod) => ({ type, object }) as WatchEvent;
  it.each([
    ["a pod first seen", ev("ADDED", live), live, undefined, "add"],
    ["an ADDED of a pod the cache had (a re-list)", ev("ADDED", live), live, live, null],
    ["a deletion of a live pod", ev("DELETED", live), live, live, "del"],
    ["a deletion of a pod already counted when its deletion began", ev("DELETED", deleting), deleting, deleting, null],
    ["a deletion timestamp newly set", ev("MODIFIED", deleting), deleting, live, "del"],
    ["a modification of a pod being deleted", ev("MODIFIED", deleting), deleting, deleting, null],
    ["a plain modification", ev("MODIFIED", live), live, live, null],
  ])("%s", (_what, e, p, before, want) => {
    expect(observedExpectation(e, p, before)).toBe(want);
  });
});

describe("ControllerLoop.owned: the cache by controller reference, with the active pods counted", () => {
  it("follows creations, deletions and a pod being deleted, in the cache's order, per owner", async () => {
    const { apiHarness, must, podManifest } = await import("../apiserver/helpers.ts");
    const { ControllerLoop } = await import("../../src/controllers/informer.ts");
    const { sleep } = await import("../../src/sim/index.ts");
    const h = apiHarness();
    const client = h.api.client("rs");
    const loop = new ControllerLoop(h.sim, client, "test", { observe: () => {}, sync: function* () {} });
    const owned = (name: string, uid: string) => {
      const o = loop.owned("ReplicaSet", "default", name, uid);
      return { pods: [...o.pods.keys()], active: o.active };
    };
    const seen: Array<ReturnType<typeof owned>> = [];
    const ownedBy = (name: string, rs: string, uid: string) => {
      const p = podManifest(name);
      return { ...p, metadata: { ...p.metadata, ownerReferences: [{ apiVersion: "apps/v1", kind: "ReplicaSet", name: rs, uid, controller: true }] } };
    };
    h.run(function* () {
      loop.start();
      yield* sleep(100);
      for (const n of ["a", "b", "c"]) must(yield* client.createPod(ownedBy(n, "web", "u1")));
      must(yield* client.createPod(ownedBy("x", "api", "u2")));
      must(yield* client.createPod(podManifest("orphan")));
      yield* sleep(100);
      seen.push(owned("web", "u1"), owned("api", "u2"), owned("web", "u0"));
      // b is being deleted (a grace period): still in the cache, no longer active.
      must(yield* client.deletePod("default", "b", { gracePeriodSeconds: 30 }));
      yield* sleep(100);
      seen.push(owned("web", "u1"));
      must(yield* client.deletePod("default", "a", { gracePeriodSeconds: 0 }));
      yield* sleep(100);
      seen.push(owned("web", "u1"));
    });
    expect(seen).toEqual([
      { pods: ["default/a", "default/b", "default/c"], active: 3 },
      { pods: ["default/x"], active: 1 },
      { pods: [], active: 0 },
      { pods: ["default/a", "default/b", "default/c"], active: 2 },
      { pods: ["default/b", "default/c"], active: 1 },
    ]);
  });
});

describe("ControllerLoop.enqueueAfter (workqueue AddAfter)", () => {
  it("adds a key once its delay has passed, keeping the earlier of two ready times for one key", async () => {
    const { apiHarness } = await import("../apiserver/helpers.ts");
    const { ControllerLoop } = await import("../../src/controllers/informer.ts");
    const { sleep } = await import("../../src/sim/index.ts");
    const h = apiHarness({}, 1, 20_000);
    const synced: Array<[string, number]> = [];
    const loop = new ControllerLoop(h.sim, h.api.client("t"), "test", { observe: () => {}, sync: function* (key) { synced.push([key, h.sim.nowMs]); } });
    h.run(function* () {
      loop.start();
      loop.enqueueAfter("later-ignored", 1_000);
      loop.enqueueAfter("later-ignored", 3_000);
      loop.enqueueAfter("moved-earlier", 3_000);
      loop.enqueueAfter("moved-earlier", 2_000);
      loop.enqueueAfter("now", 0);
      yield* sleep(5_000);
      // Once added, the key may wait again.
      loop.enqueueAfter("later-ignored", 1_000);
      yield* sleep(5_000);
    });
    expect(synced).toEqual([["now", 0], ["later-ignored", 1_000], ["moved-earlier", 2_000], ["later-ignored", 6_000]]);
  });
});
