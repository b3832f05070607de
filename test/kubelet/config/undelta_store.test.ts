// UndeltaStore: every change pushes the whole list, with its keys and whether its full names are distinct.
import { describe, expect, it } from "vitest";
import { freeze } from "immer";
import type { Pod } from "../../../src/k8s/pod.ts";
import { getPodFullName, podKey } from "../../../src/k8s/podutil.ts";
import { UndeltaStore } from "../../../src/kubelet/config/undelta_store.ts";
import { emptyPodStorage, merge, type SetListing } from "../../../src/kubelet/config/index.ts";
import { filterInvalidPods } from "../../../src/kubelet/config/merge.ts";

const pod = (name: string, namespace: string, uid = `${namespace}.${name}`): Pod =>
  freeze({ metadata: { name, namespace, uid }, spec: { containers: [{ name: "c", image: "i" }] } }, true);

/** A store whose pushes are kept; the map order rotates by one at each push, as a recorded choice may. */
function store() {
  const pushes: { pods: Pod[]; listing: SetListing }[] = [];
  let turn = 0;
  const s = new UndeltaStore(
    function* (pods, listing) {
      pushes.push({ pods, listing });
    },
    (keys) => { const k = turn++ % Math.max(keys.length, 1); return [...keys.slice(k), ...keys.slice(0, k)]; },
  );
  const run = (g: Generator<unknown, void, unknown>) => { for (const _ of g); };
  return { s, pushes, run };
}

describe("UndeltaStore's listing", () => {
  it("names each pushed pod by its key and says the full names distinct exactly when filterInvalidPods drops none", () => {
    const { s, pushes, run } = store();
    // "a_b" in namespace "c" and "a" in namespace "b_c" share the full name "a_b_c" (names no validation let through).
    run(s.Add(pod("a_b", "c")));
    run(s.Add(pod("x", "d")));
    run(s.Add(pod("a", "b_c")));
    run(s.Update(pod("x", "d", "d.x2")));
    run(s.Delete(pod("a_b", "c")));
    run(s.Replace([pod("a_b", "c"), pod("a", "b_c"), pod("a", "b_c", "again")], "1"));
    run(s.Delete(pod("a", "b_c")));
    run(s.Replace([], "2"));
    expect(pushes.map((p) => p.listing.fullNamesDistinct)).toEqual([true, true, false, false, true, false, true, true]);
    for (const { pods, listing } of pushes) {
      expect(listing.keys).toEqual(pods.map(podKey));
      expect(listing.fullNamesDistinct).toBe(filterInvalidPods(pods).rejected.length === 0);
      expect(new Set(pods.map(getPodFullName)).size === pods.length).toBe(listing.fullNamesDistinct);
    }
    expect(s.List().map(podKey)).toEqual([]);
  });

  it("a SET merged with its listing stores and rejects as one merged without it", () => {
    const { s, pushes, run } = store();
    run(s.Add(pod("a_b", "c")));
    run(s.Add(pod("a", "b_c")));
    run(s.Add(pod("e", "f")));
    const ctx = { nowMs: 1000, mapOrder: (keys: readonly string[]) => [...keys] };
    for (const { pods, listing } of pushes) {
      const withIt = merge(emptyPodStorage(), "api", { Op: "SET", Pods: pods, Source: "api", listing }, ctx);
      const without = merge(emptyPodStorage(), "api", { Op: "SET", Pods: pods, Source: "api" }, ctx);
      expect(withIt.rejected).toEqual(without.rejected);
      expect(withIt.adds.Pods).toEqual(without.adds.Pods);
      expect([...withIt.state.pods.get("api")!.keys()]).toEqual([...without.state.pods.get("api")!.keys()]);
    }
  });
});
