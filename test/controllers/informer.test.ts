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
