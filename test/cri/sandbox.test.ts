import { describe, expect, it } from "vitest";
import { CriError, DEFAULT_PAUSE_IMAGE } from "../../src/cri/index.ts";
import { containerConfig, harness, sandboxConfig } from "./helpers.ts";

const present = { present: true, pullTime: null, fail: null };
const nginx = { "nginx:1.25": present };

describe("sandboxes", () => {
  it("RunPodSandbox assigns pod IPs in creation order; a host-network sandbox has none", () => {
    const h = harness({ images: nginx });
    const out = h.run(function* () {
      const a = (yield* h.rt.RunPodSandbox(sandboxConfig("a"), "")) as string;
      const b = (yield* h.rt.RunPodSandbox(sandboxConfig("b"), "")) as string;
      const host = (yield* h.rt.RunPodSandbox(sandboxConfig("h", 0, true), "")) as string;
      const sa = yield* h.rt.PodSandboxStatus(a);
      const sb = yield* h.rt.PodSandboxStatus(b);
      const sh = yield* h.rt.PodSandboxStatus(host);
      return [a, b, host, sa, sb, sh];
    });
    const [a, b, host, sa, sb, sh] = out as [string, string, string, any, any, any];
    expect([a, b, host]).toEqual(["s-1", "s-2", "s-3"]);
    expect(sa.network.ip).toBe("10.244.0.2");
    expect(sb.network.ip).toBe("10.244.0.3");
    expect(sa.state).toBe("SANDBOX_READY");
    expect(sa.createdAtMs).toBe(10);
    expect(sh.network).toBeUndefined();
    expect(sh.linux.namespaces.options.network).toBe("NODE");
    expect(sa.metadata).toEqual({ name: "a", namespace: "default", uid: "uid-a", attempt: 0 });
  });

  it("the pause image is pulled first when absent (its pull time adds to RunPodSandbox)", () => {
    const h = harness({ images: { [DEFAULT_PAUSE_IMAGE]: { present: false, pullTime: { minMs: 700, maxMs: 700 }, fail: null } } });
    const ids = h.run(function* () {
      const first = yield* h.rt.RunPodSandbox(sandboxConfig(), "");
      // The second sandbox finds the image present.
      const second = yield* h.rt.RunPodSandbox(sandboxConfig("b"), "");
      return [first, second];
    });
    expect(ids).toEqual(["s-1", "s-2"]);
    expect(h.lines(["PullSandboxImage", "RunPodSandbox"])).toEqual(["710:PullSandboxImage", "710:RunPodSandbox", "720:RunPodSandbox"]);
    expect(h.records("RunPodSandbox").map((r) => r["tookMs"])).toEqual([710, 10]);
  });

  it("a failing pause image pull fails RunPodSandbox with containerd's wording", () => {
    const h = harness({ images: { [DEFAULT_PAUSE_IMAGE]: { present: false, pullTime: null, fail: { error: "notFound", message: null, times: null, fromMs: 0, toMs: null } } } });
    const err = h.run(() => h.rt.RunPodSandbox(sandboxConfig(), ""));
    expect(err).toBeInstanceOf(CriError);
    expect((err as CriError).code).toBe("NotFound");
    expect((err as CriError).desc).toMatch(/^failed to get sandbox image "registry.k8s.io\/pause:3.9": failed to pull image/);
    expect(h.rt.store.sandboxes.size).toBe(0);
  });

  it("a second sandbox with the same name and attempt is refused until the first is removed", () => {
    const h = harness();
    const out = h.run(function* () {
      const first = yield* h.rt.RunPodSandbox(sandboxConfig(), "");
      const dup = yield* h.rt.RunPodSandbox(sandboxConfig(), "");
      const next = yield* h.rt.RunPodSandbox(sandboxConfig("web", 1), "");
      yield* h.rt.RemovePodSandbox(first as string);
      const again = yield* h.rt.RunPodSandbox(sandboxConfig(), "");
      return [first, dup, next, again];
    });
    expect(out[0]).toBe("s-1");
    expect((out[1] as CriError).desc).toBe('failed to reserve sandbox name "web_default_uid-web_0": name "web_default_uid-web_0" is reserved for "s-1"');
    expect(out[2]).toBe("s-2");
    expect(out[3]).toBe("s-3");
  });

  it("StopPodSandbox kills running containers (137), tears down the network, is idempotent", () => {
    const h = harness({ images: nginx });
    const out = h.run(function* () {
      const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
      const c = (yield* h.rt.CreateContainer(sb, containerConfig(), sandboxConfig())) as string;
      yield* h.rt.StartContainer(c);
      const r1 = yield* h.rt.StopPodSandbox(sb);
      const r2 = yield* h.rt.StopPodSandbox(sb);
      return [r1, r2, yield* h.rt.PodSandboxStatus(sb), yield* h.rt.ContainerStatus(c), yield* h.rt.StopPodSandbox("s-99")];
    });
    const [r1, r2, ss, cs, missing] = out as [null, null, any, any, CriError];
    expect([r1, r2]).toEqual([null, null]);
    expect(ss.state).toBe("SANDBOX_NOTREADY");
    expect(ss.network.ip).toBe("");
    expect(cs.state).toBe("CONTAINER_EXITED");
    expect(cs.exitCode).toBe(137);
    expect(cs.reason).toBe("Error");
    expect(missing.code).toBe("NotFound");
  });

  it("RemovePodSandbox removes its containers; an unknown ID is not an error", () => {
    const h = harness({ images: nginx });
    const out = h.run(function* () {
      const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
      const c = (yield* h.rt.CreateContainer(sb, containerConfig(), sandboxConfig())) as string;
      yield* h.rt.StartContainer(c);
      const r = yield* h.rt.RemovePodSandbox(sb);
      return [r, yield* h.rt.ContainerStatus(c), yield* h.rt.PodSandboxStatus(sb), yield* h.rt.RemovePodSandbox("s-42")];
    });
    expect(out[0]).toBeNull();
    expect((out[1] as CriError).code).toBe("NotFound");
    expect((out[2] as CriError).desc).toBe('an error occurred when try to find sandbox "s-1": not found');
    expect(out[3]).toBeNull();
    expect(h.rt.store.containers.size).toBe(0);
  });

  it.each([
    ["no filter", null, ["s-1", "s-2", "s-3"]],
    ["by id", { id: "s-2" }, ["s-2"]],
    ["by state READY", { state: "SANDBOX_READY" as const }, ["s-1", "s-3"]],
    ["by state NOTREADY", { state: "SANDBOX_NOTREADY" as const }, ["s-2"]],
    ["by label", { labelSelector: { "io.kubernetes.pod.uid": "uid-c" } }, ["s-3"]],
    ["by label and state", { labelSelector: { "io.kubernetes.pod.uid": "uid-b" }, state: "SANDBOX_READY" as const }, []],
  ])("ListPodSandbox %s", (_name, filter, want) => {
    const h = harness();
    const ids = h.run(function* () {
      for (const n of ["a", "b", "c"]) yield* h.rt.RunPodSandbox(sandboxConfig(n), "");
      yield* h.rt.StopPodSandbox("s-2");
      const list = yield* h.rt.ListPodSandbox(filter);
      return (list as { id: string }[]).map((s) => s.id);
    });
    expect(ids).toEqual(want);
  });
});
