// pkg/kubelet/reason_cache.go: the last start failure per (pod UID, container name), LRU-bounded.
import { describe, expect, it } from "vitest";
import { ReasonCache, StartContainer, maxReasonCacheEntries, type SyncResult } from "../../src/kubelet/reason_cache.ts";

const start = (name: string, err: string | null, message = ""): SyncResult => ({ Action: StartContainer, Target: name, Error: err, Message: message });

describe("ReasonCache", () => {
  it("TestReasonCache (ported): only a failed StartContainer is recorded; Remove forgets it", () => {
    const c = new ReasonCache();
    const results: SyncResult[] = [
      start("container_1", "RunContainerError", "message_1"),
      start("container_2", null),
      { Action: "StopContainer", Target: "container_3", Error: "StopContainerError", Message: "message_3" },
    ];
    c.Update("pod_1", { SyncResults: results });
    expect(c.Get("pod_1", "container_1")).toEqual({ Err: "RunContainerError", Message: "message_1" });
    expect(c.Get("pod_1", "container_2")).toBeUndefined();
    expect(c.Get("pod_1", "container_3")).toBeUndefined();
    c.Remove("pod_1", "container_1");
    expect(c.Get("pod_1", "container_1")).toBeUndefined();
  });

  it("Update records StartContainer failures, clears successes, ignores other actions", () => {
    const c = new ReasonCache();
    c.Update("uid", {
      SyncResults: [
        start("a", "CrashLoopBackOff", "back-off 10s restarting failed container=a"),
        start("b", "ImagePullBackOff", 'Back-off pulling image "x"'),
        { Action: "KillContainer", Target: "c", Error: "KillContainerError", Message: "" },
      ],
    });
    expect(c.Get("uid", "a")).toEqual({ Err: "CrashLoopBackOff", Message: "back-off 10s restarting failed container=a" });
    expect(c.Get("uid", "b")?.Err).toBe("ImagePullBackOff");
    expect(c.Get("uid", "c")).toBeUndefined();
    c.Update("uid", { SyncResults: [start("a", null)] });
    expect(c.Get("uid", "a")).toBeUndefined();
    expect(c.Get("other", "b")).toBeUndefined(); // keyed by pod UID and container name
    c.Remove("uid", "b");
    expect(c.size).toBe(0);
  });

  it("a later failure replaces the earlier reason (ErrImagePull → ImagePullBackOff)", () => {
    const c = new ReasonCache();
    c.Update("uid", { SyncResults: [start("app", "ErrImagePull", "pull failed")] });
    c.Update("uid", { SyncResults: [start("app", "ImagePullBackOff", "back-off")] });
    expect(c.Get("uid", "app")).toEqual({ Err: "ImagePullBackOff", Message: "back-off" });
    expect(c.size).toBe(1);
  });

  it("is an LRU of maxReasonCacheEntries (1000): the least recently used entry goes first", () => {
    expect(maxReasonCacheEntries).toBe(1000);
    const c = new ReasonCache(3);
    for (const n of ["a", "b", "c"]) c.Update("u", { SyncResults: [start(n, "E")] });
    c.Get("u", "a"); // a becomes the most recently used
    c.Update("u", { SyncResults: [start("d", "E")] });
    expect(["a", "b", "c", "d"].map((n) => c.Get("u", n) !== undefined)).toEqual([true, false, true, true]);
    const big = new ReasonCache();
    for (let i = 0; i <= 1000; i++) big.Update(`u${i}`, { SyncResults: [start("x", "E")] });
    expect(big.size).toBe(1000);
    expect(big.Get("u0", "x")).toBeUndefined();
    expect(big.Get("u1000", "x")).toBeDefined();
  });
});
