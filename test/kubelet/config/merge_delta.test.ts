// merge.ts mergeSetDelta: a keyed store's SET that changes one key since the SET merged last is
// merged for that key alone; it must give what the full loop gives (same notifications, same
// stored pods, same map-order draws), in place or on a copy, and fall back to the full loop
// whenever the list is not such a one (a Replace, a UID twice, a full name twice, a gap in pushes).
import { describe, expect, it } from "vitest";
import { freeze } from "immer";
import type { Pod } from "../../../src/k8s/pod.ts";
import { UndeltaStore } from "../../../src/kubelet/config/undelta_store.ts";
import { emptyPodStorage, merge, type MergeResult, type PodStorageState, type PodUpdate, type SetListing } from "../../../src/kubelet/config/index.ts";

const pod = (name: string, uid: string, patch: (p: Pod) => void = () => {}, namespace = "ns"): Pod => {
  const p: Pod = { metadata: { name, namespace, uid }, spec: { containers: [{ name: "c", image: "i" }] } };
  patch(p);
  return freeze(p, true);
};
const phase = (ph: string) => (p: Pod) => { p.status = { phase: ph as never }; };
const image = (img: string) => (p: Pod) => { p.spec.containers = [{ name: "c", image: img }]; };
const deleting = (p: Pod) => { p.metadata.deletionTimestamp = "2026-01-01T00:00:30Z"; p.metadata.deletionGracePeriodSeconds = 30; };

/** What a merge sent and stored, as plain data. */
function outcome(r: MergeResult, source: string): unknown {
  const stored = [...r.state.pods.get(source)!.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { sent: [r.removes, r.adds, r.updates, r.deletes, r.reconciles].map((u) => [u.Op, u.Pods]), rejected: r.rejected, stored, seen: [...r.state.sourcesSeen] };
}

/** Two storages fed the same SETs: one with the store's listing, in place, one with no listing (the full loop every time). */
function twin() {
  const pushes: { pods: Pod[]; listing: SetListing }[] = [];
  let turn = 0;
  const store = new UndeltaStore(
    function* (pods, listing) { pushes.push({ pods, listing }); },
    (keys) => { const k = turn++ % Math.max(keys.length, 1); return [...keys.slice(k), ...keys.slice(0, k)]; },
  );
  let a: PodStorageState = emptyPodStorage();
  let b: PodStorageState = emptyPodStorage();
  let inPlace = 0;
  let now = 1000;
  const drawsA: string[][] = [];
  const drawsB: string[][] = [];
  const step = (g: Generator<unknown, void, unknown>) => {
    for (const _ of g);
    const { pods, listing } = pushes.shift()!;
    now += 1000;
    const withIt: PodUpdate = { Op: "SET", Pods: pods, Source: "api", listing };
    const without: PodUpdate = { Op: "SET", Pods: pods, Source: "api" };
    const ra = merge(a, "api", withIt, { nowMs: now, mapOrder: (k) => (drawsA.push([...k]), [...k]), inPlace: true });
    const rb = merge(b, "api", without, { nowMs: now, mapOrder: (k) => (drawsB.push([...k]), [...k]) });
    if (ra.state === a) inPlace++;
    a = ra.state;
    b = rb.state;
    expect(outcome(ra, "api")).toEqual(outcome(rb, "api"));
    expect(drawsA).toEqual(drawsB);
  };
  return { store, step, inPlaceCount: () => inPlace };
}

describe("a SET merged from its one changed key", () => {
  it("sends, stores and draws as the full loop, through adds, status and spec changes, deletes and a Replace", () => {
    const { store: s, step, inPlaceCount } = twin();
    step(s.Add(pod("a", "ua")));
    step(s.Add(pod("b", "ub")));
    step(s.Add(pod("c", "uc")));
    step(s.Update(pod("b", "ub", phase("Running")))); // a RECONCILE
    step(s.Update(pod("b", "ub", phase("Running")))); // the same content, a new object: nothing
    step(s.Update(pod("a", "ua", image("j")))); // an UPDATE
    step(s.Update(pod("c", "uc", deleting))); // a DELETE
    step(s.Delete(pod("c", "uc"))); // a REMOVE
    step(s.Delete(pod("zz", "uzz"))); // a key the store does not hold: nothing
    step(s.Add(pod("c", "uc2"))); // the name again, a new UID: an ADD
    step(s.Update(pod("c", "uc3"))); // the key's UID replaced: an ADD and a REMOVE
    step(s.Update(pod("b", "ub", phase("Succeeded"))));
    step(s.Replace([pod("a", "ua", image("j")), pod("d", "ud")], "7")); // the full loop
    step(s.Update(pod("d", "ud", phase("Running"))));
    step(s.Add(pod("e", "ue")));
    step(s.Delete(pod("a", "ua")));
    expect(inPlaceCount()).toBe(14); // every step but the first SET (no map yet) and the Replace
  });

  it("falls back to the full loop for a UID another pod holds and for full names twice, and merges alike", () => {
    const { store: s, step, inPlaceCount } = twin();
    step(s.Add(pod("a", "ua")));
    step(s.Add(pod("b", "ub")));
    step(s.Update(pod("b", "ua"))); // two keys, one UID: the last one in the list wins
    step(s.Update(pod("b", "ub")));
    step(s.Add(pod("b", "ub")));
    step(s.Add(pod("x_ns", "ux", () => {}, "y"))); // full name "x_ns_y"
    step(s.Add(pod("x", "ux2", () => {}, "ns_y"))); // full name "x_ns_y" too: one is rejected
    step(s.Update(pod("a", "ua", phase("Running"))));
    step(s.Delete(pod("x", "ux2", () => {}, "ns_y")));
    step(s.Update(pod("a", "ua", phase("Succeeded"))));
    expect(inPlaceCount()).toBeGreaterThan(0);
  });

  it("leaves a state it was given as it was, unless told it may update it in place", () => {
    const pushes: { pods: Pod[]; listing: SetListing }[] = [];
    const s = new UndeltaStore(function* (pods, listing) { pushes.push({ pods, listing }); }, (k) => [...k]);
    const run = (g: Generator<unknown, void, unknown>) => { for (const _ of g); };
    run(s.Add(pod("a", "ua")));
    run(s.Add(pod("b", "ub")));
    const ctx = { nowMs: 1, mapOrder: (k: readonly string[]) => [...k] };
    const set = (i: number): PodUpdate => ({ Op: "SET", Pods: pushes[i]!.pods, Source: "api", listing: pushes[i]!.listing });
    const first = merge(merge(emptyPodStorage(), "api", set(0), ctx).state, "api", set(1), ctx).state;
    const before = [...first.pods.get("api")!.keys()];
    run(s.Delete(pod("a", "ua")));
    const second = merge(first, "api", set(2), ctx);
    expect([...first.pods.get("api")!.keys()]).toEqual(before);
    expect(second.removes.Pods.map((p) => p.metadata.uid)).toEqual(["ua"]);
    // The same SET merged again from the same state (a branch): the same result.
    expect(outcome(merge(first, "api", set(2), ctx), "api")).toEqual(outcome(second, "api"));
  });
});
