// pkg/kubelet/reason_cache.go: the last start failure per (pod UID, container name), LRU-bounded.
import { describe, expect, it } from "vitest";
import { ReasonCache, maxReasonCacheEntries } from "../../src/kubelet/reason_cache.ts";
import { NewSyncResult, PodSyncResult, type SyncAction, type SyncResult } from "../../src/kubelet/kuberuntime/sync_result.ts";

function result(action: SyncAction, name: string, err: string | null, message = ""): SyncResult {
  const r = NewSyncResult(action, name);
  if (err !== null) r.Fail(err, message);
  return r;
}
const start = (name: string, err: string | null, message = ""): SyncResult => result("StartContainer", name, err, message);
function sync(...results: SyncResult[]): PodSyncResult {
  const p = new PodSyncResult();
  p.AddSyncResult(...results);
  return p;
}

describe("ReasonCache", () => {
  it("TestReasonCache (ported): only a failed StartContainer is recorded; Remove forgets it", () => {
    const c = new ReasonCache();
    c.Update("pod_1", sync(start("container_1", "RunContainerError", "message_1"), start("container_2", null), result("KillContainer", "container_3", "KillContainerError", "message_3")));
    expect(c.Get("pod_1", "container_1")).toEqual({ Err: "RunContainerError", Message: "message_1" });
    expect(c.Get("pod_1", "container_2")).toBeUndefined();
    expect(c.Get("pod_1", "container_3")).toBeUndefined();
    c.Remove("pod_1", "container_1");
    expect(c.Get("pod_1", "container_1")).toBeUndefined();
  });

  it("Update records StartContainer failures, clears successes, ignores other actions", () => {
    const c = new ReasonCache();
    c.Update(
      "uid",
      sync(
        start("a", "CrashLoopBackOff", "back-off 10s restarting failed container=a"),
        start("b", "ImagePullBackOff", 'Back-off pulling image "x"'),
        result("KillContainer", "c", "KillContainerError"),
      ),
    );
    expect(c.Get("uid", "a")).toEqual({ Err: "CrashLoopBackOff", Message: "back-off 10s restarting failed container=a" });
    expect(c.Get("uid", "b")?.Err).toBe("ImagePullBackOff");
    expect(c.Get("uid", "c")).toBeUndefined();
    c.Update("uid", sync(start("a", null)));
    expect(c.Get("uid", "a")).toBeUndefined();
    expect(c.Get("other", "b")).toBeUndefined(); // keyed by pod UID and container name
    c.Remove("uid", "b");
    expect(c.size).toBe(0);
  });

  it("a later failure replaces the earlier reason (ErrImagePull → ImagePullBackOff)", () => {
    const c = new ReasonCache();
    c.Update("uid", sync(start("app", "ErrImagePull", "pull failed")));
    c.Update("uid", sync(start("app", "ImagePullBackOff", "back-off")));
    expect(c.Get("uid", "app")).toEqual({ Err: "ImagePullBackOff", Message: "back-off" });
    expect(c.size).toBe(1);
  });

  it("is an LRU of maxReasonCacheEntries (1000): the least recently used entry goes first", () => {
    expect(maxReasonCacheEntries).toBe(1000);
    const c = new ReasonCache(3);
    for (const n of ["a", "b", "c"]) c.Update("u", sync(start(n, "E")));
    c.Get("u", "a"); // a becomes the most recently used
    c.Update("u", sync(start("d", "E")));
    expect(["a", "b", "c", "d"].map((n) => c.Get("u", n) !== undefined)).toEqual([true, false, true, true]);
    const big = new ReasonCache();
    for (let i = 0; i <= 1000; i++) big.Update(`u${i}`, sync(start("x", "E")));
    expect(big.size).toBe(1000);
    expect(big.Get("u0", "x")).toBeUndefined();
    expect(big.Get("u1000", "x")).toBeDefined();
  });
});
