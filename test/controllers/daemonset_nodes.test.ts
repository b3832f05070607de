// controllers/daemonset_nodes.ts: podsShouldBeOnNode, table-driven: which daemon pods a node keeps,
// loses and gains; the failed pods' backoff (1 s doubling to 15 min per DaemonSet and node); and the
// succeeded pods' deletion since v1.26.5/v1.27.0 (#117073, #117496).
import { describe, expect, it } from "vitest";
import type { Pod } from "../../src/k8s/pod.ts";
import { Backoff } from "../../src/kubelet/util/backoff.ts";
import {
  byCreationTimestampAndPhase, deletesSucceededDaemonPods, failedPodsBackoffKey, FAILED_PODS_BACKOFF_INITIAL_MS, FAILED_PODS_BACKOFF_MAX_MS, podsShouldBeOnNode,
} from "../../src/controllers/daemonset_nodes.ts";

function pod(name: string, opts: { phase?: string; created?: string; deleting?: boolean; bound?: boolean } = {}): Pod {
  return {
    metadata: { name, namespace: "default", creationTimestamp: opts.created ?? "2026-01-01T00:00:00Z", ...(opts.deleting ? { deletionTimestamp: "2026-01-01T00:01:00Z" } : {}) },
    spec: { containers: [], ...(opts.bound === false ? {} : { nodeName: "n1" }) },
    status: { phase: opts.phase ?? "Running" },
  } as unknown as Pod;
}

function backoff(clock: { now: number }): Backoff {
  return new Backoff({ nowMs: () => clock.now }, FAILED_PODS_BACKOFF_INITIAL_MS, FAILED_PODS_BACKOFF_MAX_MS);
}

const input = (daemonPods: Pod[], shouldRun = true, shouldContinueRunning = true) => ({ nodeName: "n1", shouldRun, shouldContinueRunning, daemonPods, dsUID: "ds-uid" });
const names = (ps: readonly Pod[]) => ps.map((p) => p.metadata.name);

describe("podsShouldBeOnNode", () => {
  it.each([
    ["no daemon pod where one should run: create", input([]), true, []],
    ["no daemon pod where none should run: nothing", input([], false, false), false, []],
    ["a running pod: nothing", input([pod("a")]), false, []],
    ["a pod being deleted counts as existing: no create", input([pod("a", { deleting: true })]), false, []],
    ["shouldContinueRunning false: every pod not being deleted goes", input([pod("a"), pod("b", { deleting: true })], false, false), false, ["a"]],
    ["two running pods: all but the oldest go", input([pod("new", { created: "2026-01-01T00:00:09Z" }), pod("old")]), false, ["new"]],
    ["an unscheduled pod goes before a scheduled one", input([pod("a", { bound: false }), pod("b", { created: "2026-01-01T00:00:09Z" })]), false, ["a"]],
    ["equal creation times: by name", input([pod("b"), pod("a")]), false, ["b"]],
  ])("%s", (_what, inp, create, removed) => {
    const d = podsShouldBeOnNode(inp, backoff({ now: 0 }), 0, "1.35.0");
    expect(d.create).toBe(create);
    expect(names(d.remove)).toEqual(removed);
    expect(d.requeueAfterMs).toBeUndefined();
  });

  it("deletes a failed pod at once, then holds the next failed pod on that node for the backoff, doubling", () => {
    const clock = { now: 10_000 };
    const b = backoff(clock);
    const first = podsShouldBeOnNode(input([pod("a", { phase: "Failed" })]), b, clock.now, "1.35.0");
    expect(names(first.remove)).toEqual(["a"]);
    expect(first.events).toEqual([expect.objectContaining({ type: "Warning", reason: "FailedDaemonPod", message: "Found failed daemon pod default/a on node n1, will try to kill it" })]);
    expect(b.Get(failedPodsBackoffKey("ds-uid", "n1"))).toBe(1_000);
    // The replacement fails 500 ms later: within the 1 s window, left alone, re-enqueued after 1 s.
    clock.now += 500;
    const held = podsShouldBeOnNode(input([pod("b", { phase: "Failed" })]), b, clock.now, "1.35.0");
    expect(held.remove).toEqual([]);
    expect(held.events).toEqual([]);
    expect(held.requeueAfterMs).toBe(1_000);
    // At the requeue the window has passed: deleted, and the next window is 2 s.
    clock.now += 1_000;
    const second = podsShouldBeOnNode(input([pod("b", { phase: "Failed" })]), b, clock.now, "1.35.0");
    expect(names(second.remove)).toEqual(["b"]);
    expect(b.Get(failedPodsBackoffKey("ds-uid", "n1"))).toBe(2_000);
    // Another node has its own backoff.
    const other = podsShouldBeOnNode({ ...input([pod("c", { phase: "Failed" })]), nodeName: "n2" }, b, clock.now, "1.35.0");
    expect(names(other.remove)).toEqual(["c"]);
  });

  it("caps the failed pods' backoff at 15 minutes", () => {
    const clock = { now: 0 };
    const b = backoff(clock);
    for (let i = 0; i < 14; i++) {
      clock.now += b.Get(failedPodsBackoffKey("ds-uid", "n1"));
      expect(podsShouldBeOnNode(input([pod("a", { phase: "Failed" })]), b, clock.now, "1.35.0").remove).toHaveLength(1);
    }
    expect(b.Get(failedPodsBackoffKey("ds-uid", "n1"))).toBe(15 * 60_000);
  });

  it.each([
    ["1.35.0", true],
    ["1.27.0", true],
    ["1.26.5", true],
    ["1.26.4", false],
    ["1.25.16", false],
    ["1.19.0", false],
  ])("a succeeded daemon pod under %s is deleted: %s", (release, deleted) => {
    expect(deletesSucceededDaemonPods(release)).toBe(deleted);
    const d = podsShouldBeOnNode(input([pod("a", { phase: "Succeeded" })]), backoff({ now: 0 }), 0, release);
    expect(names(d.remove)).toEqual(deleted ? ["a"] : []);
    expect(d.events.map((e) => [e.type, e.reason])).toEqual(deleted ? [["Normal", "SucceededDaemonPod"]] : []);
    // Before the fix it counts as the node's running daemon pod: no replacement either.
    expect(d.create).toBe(false);
  });

  it("orders pods as podByCreationTimestampAndPhase: scheduled, then oldest, then by name", () => {
    const ps = [pod("z"), pod("u", { bound: false }), pod("a", { created: "2026-01-01T00:00:05Z" }), pod("b")];
    expect(names([...ps].sort(byCreationTimestampAndPhase))).toEqual(["b", "z", "a", "u"]);
  });
});
