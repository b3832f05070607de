import { describe, expect, it } from "vitest";
import { CriError, type Image, type ImageConfig } from "../../src/cri/index.ts";
import { sleep } from "../../src/sim/index.ts";
import { harness, sandboxConfig } from "./helpers.ts";

const failing = (error: "notFound" | "unauthorized" | "failed", extra: Partial<NonNullable<ImageConfig["fail"]>> = {}): ImageConfig => ({
  present: false,
  pullTime: { minMs: 300, maxMs: 300 },
  fail: { error, message: null, times: null, fromMs: 0, toMs: null, ...extra },
});

describe("images", () => {
  it("PullImage takes the image's pull time (else the PullImage latency) and returns a stable ref", () => {
    const h = harness({ images: { "big:1": { present: false, pullTime: { minMs: 40_000, maxMs: 40_000 }, fail: null } } });
    const out = h.run(function* () {
      const t0 = h.sim.nowMs;
      const big = yield* h.rt.PullImage({ image: "big:1" }, null, sandboxConfig());
      const t1 = h.sim.nowMs;
      const small = yield* h.rt.PullImage({ image: "small" }, null, null);
      return { big, small, bigMs: t1 - t0, smallMs: h.sim.nowMs - t1, status: yield* h.rt.ImageStatus({ image: "small:latest" }) };
    });
    expect(out.bigMs).toBe(40_000);
    expect(out.smallMs).toBe(10);
    expect(out.big).toMatch(/^sha256:/);
    expect((out.status as Image).id).toBe(out.small);
    expect((out.status as Image).repoTags).toEqual(["small:latest"]);
    expect(h.records("PullImage")[0]).toMatchObject({ pod: "default/web", image: "big:1", result: "ok" });
  });

  it.each([
    ["notFound", "NotFound", 'failed to pull and unpack image "ghost:1": failed to resolve reference "ghost:1": ghost:1: not found'],
    ["unauthorized", "Unknown", 'failed to pull and unpack image "ghost:1": failed to resolve reference "ghost:1": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed'],
    ["failed", "Unknown", 'failed to pull and unpack image "ghost:1": failed to resolve reference "ghost:1": failed to do request: dial tcp: i/o timeout'],
  ] as const)("a %s pull fails with code %s and containerd's text", (kind, code, desc) => {
    const h = harness({ images: { "ghost:1": failing(kind) } });
    const err = h.run(() => h.rt.PullImage({ image: "ghost:1" }, null, null));
    expect(err).toBeInstanceOf(CriError);
    expect([(err as CriError).code, (err as CriError).desc]).toEqual([code, desc]);
    expect(h.rt.store.images.has("ghost:1")).toBe(false);
  });

  it("a failure for the first N pulls, then success; a failure only inside a window", () => {
    const h = harness({
      images: {
        "flaky:1": failing("failed", { times: 2 }),
        "window:1": failing("failed", { fromMs: 1000, toMs: 2000 }),
      },
    });
    const out = h.run(function* () {
      const flaky: boolean[] = [];
      for (let i = 0; i < 3; i++) flaky.push((yield* h.rt.PullImage({ image: "flaky:1" }, null, null)) instanceof CriError);
      const windowed: boolean[] = [];
      for (const at of [0, 1200, 2100]) {
        yield* sleep(Math.max(0, at - h.sim.nowMs));
        windowed.push((yield* h.rt.PullImage({ image: "window:1" }, null, null)) instanceof CriError);
      }
      return { flaky, windowed };
    });
    expect(out.flaky).toEqual([true, true, false]);
    expect(out.windowed).toEqual([false, true, false]);
  });

  it("ImageStatus of an absent image is null; ListImages; RemoveImage is idempotent", () => {
    const h = harness({ images: { "a:1": { present: true, pullTime: null, fail: null } } });
    const out = h.run(function* () {
      const absent = yield* h.rt.ImageStatus({ image: "b:1" });
      const all = (yield* h.rt.ListImages(null)) as Image[];
      const one = (yield* h.rt.ListImages({ image: { image: "a:1" } })) as Image[];
      yield* h.rt.RemoveImage({ image: "a:1" });
      const again = yield* h.rt.RemoveImage({ image: "a:1" });
      return { absent, all: all.map((i) => i.repoTags[0]), one: one.length, again, after: yield* h.rt.ImageStatus({ image: "a:1" }) };
    });
    expect(out).toEqual({ absent: null, all: ["registry.k8s.io/pause:3.9", "a:1"], one: 1, again: null, after: null });
  });
});
