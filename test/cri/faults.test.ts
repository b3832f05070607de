import { describe, expect, it } from "vitest";
import { CriError, FaultInjector, program, type ContainerStatus, type CriFault } from "../../src/cri/index.ts";
import { sleep, type Proc } from "../../src/sim/index.ts";
import { containerConfig, harness, sandboxConfig, type RuntimeHarness } from "./helpers.ts";

const images = { "nginx:1.25": { present: true, pullTime: null, fail: null } };

function fault(f: Partial<CriFault> & Pick<CriFault, "method">): CriFault {
  return { pod: null, container: null, call: 1, times: null, fromMs: 0, toMs: null, kind: "error", message: "injected fault", ...f };
}

describe("fault rules (pure matching)", () => {
  const site = (method: CriFault["method"], pod: string | null = "default/web", container: string | null = "app") => ({ method, pod, container });
  it.each([
    ["every call when neither call nor times is given", fault({ method: "StartContainer" }), [true, true, true, true]],
    ["the 2nd call only (call 2, times 1)", fault({ method: "StartContainer", call: 2, times: 1 }), [false, true, false, false]],
    ["from the 2nd call on, twice", fault({ method: "StartContainer", call: 2, times: 2 }), [false, true, true, false]],
    ["another pod is not matched", fault({ method: "StartContainer", pod: "default/db" }), [false, false, false, false]],
    ["another container is not matched", fault({ method: "StartContainer", container: "sidecar" }), [false, false, false, false]],
    ["another method is not matched", fault({ method: "StopContainer" }), [false, false, false, false]],
  ])("%s", (_name, f, want) => {
    const inj = new FaultInjector([f]);
    expect([0, 1, 2, 3].map((t) => inj.match(site("StartContainer"), t) !== null)).toEqual(want);
  });

  it("a window [from, to) and call counting inside it only", () => {
    const inj = new FaultInjector([fault({ method: "ListContainers", fromMs: 100, toMs: 200, call: 2, times: 1 })]);
    const at = (t: number) => inj.match(site("ListContainers", null, null), t) !== null;
    expect([at(50), at(100), at(150), at(199), at(200)]).toEqual([false, false, true, false, false]);
  });

  it("injectError: the next call fails once, counted from when it is injected", () => {
    const inj = new FaultInjector();
    expect(inj.match(site("StopContainer"), 0)).toBeNull();
    inj.injectError("StopContainer", "boom");
    expect(inj.match(site("StopContainer"), 1)?.message).toBe("boom");
    expect(inj.match(site("StopContainer"), 2)).toBeNull();
  });
});

function* started(h: RuntimeHarness): Proc<{ sb: string; c: string }> {
  const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
  const c = (yield* h.rt.CreateContainer(sb, containerConfig(), sandboxConfig())) as string;
  yield* h.rt.StartContainer(c);
  return { sb, c };
}

describe("faults in the runtime", () => {
  it("a failing StopContainer leaves the container running; the next call stops it", () => {
    const h = harness({ images, faults: [fault({ method: "StopContainer", container: "app", call: 1, times: 1, message: "failed to stop: device busy" })] });
    const out = h.run(function* () {
      const { c } = yield* started(h);
      const first = yield* h.rt.StopContainer(c, 10);
      const between = ((yield* h.rt.ContainerStatus(c)) as ContainerStatus).state;
      const second = yield* h.rt.StopContainer(c, 10);
      const after = ((yield* h.rt.ContainerStatus(c)) as ContainerStatus).state;
      return { first, between, second, after };
    });
    expect((out.first as CriError).message).toBe("rpc error: code = Unknown desc = failed to stop: device busy");
    expect(out.between).toBe("CONTAINER_RUNNING");
    expect(out.second).toBeNull();
    expect(out.after).toBe("CONTAINER_EXITED");
    expect(h.records("StopContainer").map((r) => r["error"] ?? r["result"])).toEqual(["rpc error: code = Unknown desc = failed to stop: device busy", "ok"]);
  });

  it("a failing RunPodSandbox creates nothing; InjectError fails only the next call", () => {
    const h = harness({ images });
    h.rt.injectError("RunPodSandbox", "CNI failed to set up pod network");
    const out = h.run(function* () {
      return [yield* h.rt.RunPodSandbox(sandboxConfig(), ""), yield* h.rt.RunPodSandbox(sandboxConfig(), "")];
    });
    expect((out[0] as CriError).desc).toBe("CNI failed to set up pod network");
    expect(out[1]).toBe("s-1");
  });

  it("a timeout fault hangs the call until the kubelet's request timeout, then DeadlineExceeded", () => {
    const h = harness({ faults: [fault({ method: "ListPodSandbox", kind: "timeout", times: 1 })] }, { options: { requestTimeoutMs: 120_000 } });
    const out = h.run(function* () {
      const err = yield* h.rt.ListPodSandbox(null);
      return { err, at: h.sim.nowMs };
    });
    expect((out.err as CriError).code).toBe("DeadlineExceeded");
    expect(out.at).toBe(120_000);
  });

  it("faults in a time window only", () => {
    const h = harness({ faults: [fault({ method: "ListPodSandbox", fromMs: 1000, toMs: 2000 })] });
    const out = h.run(function* () {
      const failed: boolean[] = [];
      for (const at of [0, 1000, 1500, 2000]) {
        yield* sleep(at - h.sim.nowMs);
        failed.push((yield* h.rt.ListPodSandbox(null)) instanceof CriError);
      }
      return failed;
    });
    expect(out).toEqual([false, true, true, false]);
  });
});

describe("node faults", () => {
  it("a runtime restart refuses calls while down; containers survive by default", () => {
    const h = harness({ images });
    const out = h.run(function* () {
      const { c } = yield* started(h);
      h.rt.restartRuntime({ downMs: 5000, containersSurvive: true });
      const refused = yield* h.rt.ContainerStatus(c);
      yield* sleep(5000);
      return { refused, st: (yield* h.rt.ContainerStatus(c)) as ContainerStatus };
    });
    expect((out.refused as CriError).code).toBe("Unavailable");
    expect(out.st.state).toBe("CONTAINER_RUNNING");
  });

  it("a runtime restart that takes containers down: EXITED 255 Unknown, sandboxes NOTREADY", () => {
    const h = harness({ images });
    const out = h.run(function* () {
      const { sb, c } = yield* started(h);
      h.rt.restartRuntime({ downMs: 0, containersSurvive: false });
      return [yield* h.rt.ContainerStatus(c), yield* h.rt.PodSandboxStatus(sb)] as const;
    });
    const [cs, ss] = out as unknown as [ContainerStatus, { state: string }];
    expect([cs.state, cs.exitCode, cs.reason]).toEqual(["CONTAINER_EXITED", 255, "Unknown"]);
    expect(ss.state).toBe("SANDBOX_NOTREADY");
  });

  it("a sandbox that loses its network namespace: NOTREADY, no IP, its containers die", () => {
    const h = harness({ images });
    const out = h.run(function* () {
      const { sb, c } = yield* started(h);
      yield* sleep(100);
      h.rt.sandboxDies(sb);
      return [yield* h.rt.PodSandboxStatus(sb), yield* h.rt.ContainerStatus(c)] as const;
    });
    const [ss, cs] = out as unknown as [{ state: string; network: { ip: string } }, ContainerStatus];
    expect([ss.state, ss.network.ip]).toEqual(["SANDBOX_NOTREADY", ""]);
    expect([cs.state, cs.exitCode, cs.finishedAtMs]).toEqual(["CONTAINER_EXITED", 137, 130]);
  });

  it("a container removed behind the kubelet's back is gone from the lists", () => {
    const h = harness({ images });
    const out = h.run(function* () {
      const { c } = yield* started(h);
      h.rt.removeContainerBehindKubelet(c);
      return [((yield* h.rt.ListContainers(null)) as unknown[]).length, yield* h.rt.ContainerStatus(c)];
    });
    expect(out[0]).toBe(0);
    expect((out[1] as CriError).code).toBe("NotFound");
    expect(h.lines(["ContainerRemovedExternally"])).toEqual(["30:ContainerRemovedExternally"]);
  });

  it.each([
    [true, 1, "CONTAINER_EXITED"],
    [false, 0, undefined],
  ])("a node reboot (keepRecords %s): everything running dies, the runtime is down meanwhile", (keepRecords, count, state) => {
    const h = harness({ images });
    h.rt.setBehaviour("default/web", "app", [program()]);
    const out = h.run(function* () {
      yield* started(h);
      h.rt.nodeReboot({ downMs: 30_000, keepRecords });
      const during = yield* h.rt.ListContainers(null);
      yield* sleep(30_000);
      const list = (yield* h.rt.ListContainers(null)) as { state: string }[];
      return { during, list };
    });
    expect((out.during as CriError).code).toBe("Unavailable");
    expect(out.list.length).toBe(count);
    expect(out.list[0]?.state).toBe(state);
  });
});
