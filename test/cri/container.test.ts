import { describe, expect, it } from "vitest";
import { CriError, program, type ContainerProgram, type ContainerStatus } from "../../src/cri/index.ts";
import { containerConfig, harness, sandboxConfig, type RuntimeHarness } from "./helpers.ts";
import type { Proc } from "../../src/sim/index.ts";
import { sleep } from "../../src/sim/index.ts";

const images = { "nginx:1.25": { present: true, pullTime: null, fail: null } };

/** A sandbox and one started container of `web/app` running `programs`; returns their IDs. */
function* started(h: RuntimeHarness, attempt = 0): Proc<{ sb: string; c: string }> {
  const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
  const c = (yield* h.rt.CreateContainer(sb, containerConfig("app", attempt), sandboxConfig())) as string;
  const err = yield* h.rt.StartContainer(c);
  if (err !== null) throw new Error(`start failed: ${err.message}`);
  return { sb, c };
}

function withProgram(...programs: ContainerProgram[]): RuntimeHarness {
  const h = harness({ images });
  h.rt.setBehaviour("default/web", "app", programs);
  return h;
}

describe("containers: state transitions", () => {
  it("CREATED -> RUNNING -> EXITED with created/started/finished times in virtual ms", () => {
    const h = withProgram(program({ run: { kind: "exit", afterMs: 1000, code: 0 } }));
    const st = h.run(function* () {
      const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
      const c = (yield* h.rt.CreateContainer(sb, containerConfig(), sandboxConfig())) as string;
      const created = (yield* h.rt.ContainerStatus(c)) as ContainerStatus;
      yield* h.rt.StartContainer(c);
      const running = (yield* h.rt.ContainerStatus(c)) as ContainerStatus;
      yield* sleep(2000);
      const exited = (yield* h.rt.ContainerStatus(c)) as ContainerStatus;
      return [created, running, exited];
    });
    expect(st.map((s) => s.state)).toEqual(["CONTAINER_CREATED", "CONTAINER_RUNNING", "CONTAINER_EXITED"]);
    expect(st.map((s) => [s.createdAtMs, s.startedAtMs, s.finishedAtMs])).toEqual([[20, 0, 0], [20, 40, 0], [20, 40, 1040]]);
    expect(st[2]!.exitCode).toBe(0);
    expect(st[2]!.reason).toBe("Completed");
    expect(st[2]!.image.image).toBe("nginx:1.25");
    expect(st[2]!.imageRef).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(h.lines(["ContainerExited"])).toEqual(["1040:ContainerExited"]);
  });

  it.each([
    ["exit 1 is Error", program({ run: { kind: "exit", afterMs: 5, code: 1 } }), 1, "Error"],
    ["exit 0 is Completed", program({ run: { kind: "exit", afterMs: 5, code: 0 } }), 0, "Completed"],
    ["an immediate exit", program({ run: { kind: "exit", afterMs: 0, code: 2 } }), 2, "Error"],
    ["OOM is 137 OOMKilled", program({ oomAtMs: 5 }), 137, "OOMKilled"],
  ])("%s", (_name, p, code, reason) => {
    const h = withProgram(p);
    const st = h.run(function* () {
      const { c } = yield* started(h);
      yield* sleep(100);
      return (yield* h.rt.ContainerStatus(c)) as ContainerStatus;
    });
    expect([st.state, st.exitCode, st.reason]).toEqual(["CONTAINER_EXITED", code, reason]);
  });

  it("programs by attempt: attempt 0 crashes, attempt 1 runs", () => {
    const h = withProgram(program({ run: { kind: "exit", afterMs: 5, code: 1 } }), program());
    const st = h.run(function* () {
      const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
      const out: ContainerStatus[] = [];
      for (const attempt of [0, 1]) {
        const c = (yield* h.rt.CreateContainer(sb, containerConfig("app", attempt), sandboxConfig())) as string;
        yield* h.rt.StartContainer(c);
        yield* sleep(100);
        out.push((yield* h.rt.ContainerStatus(c)) as ContainerStatus);
      }
      return out;
    });
    expect(st.map((s) => [s.metadata.attempt, s.state])).toEqual([[0, "CONTAINER_EXITED"], [1, "CONTAINER_RUNNING"]]);
  });

  it("a program failing at start: StartContainer errors, the container is EXITED 128 StartError", () => {
    const h = withProgram(program({ startError: 'exec: "nope": executable file not found in $PATH' }));
    const out = h.run(function* () {
      const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
      const c = (yield* h.rt.CreateContainer(sb, containerConfig(), sandboxConfig())) as string;
      const err = yield* h.rt.StartContainer(c);
      return [err, yield* h.rt.ContainerStatus(c)] as const;
    });
    const [err, st] = out as unknown as [CriError, ContainerStatus];
    expect(err.desc).toMatch(/OCI runtime create failed: exec: "nope"/);
    expect([st.state, st.exitCode, st.reason]).toEqual(["CONTAINER_EXITED", 128, "StartError"]);
    expect(st.message).toBe(err.desc);
  });

  it.each([
    ["an unknown sandbox", "s-9", containerConfig(), /failed to find sandbox id "s-9": not found/],
    ["an absent image", "s-1", containerConfig("app", 0, "busybox"), /failed to resolve image "busybox": not found/],
  ])("CreateContainer in %s fails", (_name, sb, cfg, want) => {
    const h = harness({ images });
    const err = h.run(function* () {
      yield* h.rt.RunPodSandbox(sandboxConfig(), "");
      return yield* h.rt.CreateContainer(sb, cfg, sandboxConfig());
    });
    expect((err as CriError).desc).toMatch(want);
  });

  it("CreateContainer in a stopped sandbox, a reused name+attempt, StartContainer twice: errors", () => {
    const h = harness({ images });
    const out = h.run(function* () {
      const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
      const c = (yield* h.rt.CreateContainer(sb, containerConfig(), sandboxConfig())) as string;
      const dup = yield* h.rt.CreateContainer(sb, containerConfig(), sandboxConfig());
      yield* h.rt.StartContainer(c);
      const twice = yield* h.rt.StartContainer(c);
      yield* h.rt.StopPodSandbox(sb);
      const stopped = yield* h.rt.CreateContainer(sb, containerConfig("other"), sandboxConfig());
      return [dup, twice, stopped] as CriError[];
    });
    expect(out[0]!.desc).toMatch(/failed to reserve container name "app_web_default_uid-web_0": name .* is reserved for "c-1"/);
    expect(out[1]!.desc).toBe('container "c-1" is in CONTAINER_RUNNING state');
    expect(out[2]!.desc).toBe('sandbox "s-1" is not in ready state');
  });
});

describe("containers: StopContainer", () => {
  it.each([
    ["a process without a SIGTERM handler exits at once with 143", program(), 30, 143, 0],
    ["a graceful process exits 2s after SIGTERM with 0", program({ onSigterm: { kind: "exit", afterMs: 2000, code: 0 } }), 30, 0, 2000],
    ["SIGTERM ignored: SIGKILL when the timeout runs out, 137", program({ onSigterm: { kind: "ignore" } }), 5, 137, 5000],
    ["slower than the timeout: SIGKILL at the timeout, 137", program({ onSigterm: { kind: "exit", afterMs: 9000, code: 0 } }), 3, 137, 3000],
    ["timeout 0: SIGKILL at once, 137", program({ onSigterm: { kind: "exit", afterMs: 2000, code: 0 } }), 0, 137, 0],
  ])("%s", (_name, p, timeoutSeconds, code, exitAfterMs) => {
    const h = withProgram(p);
    const out = h.run(function* () {
      const { c } = yield* started(h);
      const t0 = h.sim.nowMs;
      const err = yield* h.rt.StopContainer(c, timeoutSeconds);
      return { err, tookMs: h.sim.nowMs - t0, st: (yield* h.rt.ContainerStatus(c)) as ContainerStatus };
    });
    expect(out.err).toBeNull();
    expect(out.st.exitCode).toBe(code);
    // 10ms of call latency, then the process takes exitAfterMs to go.
    expect(out.tookMs).toBe(10 + exitAfterMs);
    expect(out.st.finishedAtMs - out.st.startedAtMs).toBe(10 + exitAfterMs);
  });

  it("the SIGTERM/SIGKILL sequence is traced", () => {
    const h = withProgram(program({ onSigterm: { kind: "ignore" } }));
    h.run(function* () {
      const { c } = yield* started(h);
      yield* h.rt.StopContainer(c, 2);
    });
    expect(h.records("Signal").map((r) => `${r.t}:${r["signal"]}`)).toEqual(["40:SIGTERM", "2040:SIGKILL"]);
  });

  it("a natural exit before the deadline cancels the SIGKILL", () => {
    const h = withProgram(program({ run: { kind: "exit", afterMs: 500, code: 4 }, onSigterm: { kind: "ignore" } }));
    const st = h.run(function* () {
      const { c } = yield* started(h);
      yield* h.rt.StopContainer(c, 30);
      return (yield* h.rt.ContainerStatus(c)) as ContainerStatus;
    });
    expect(st.exitCode).toBe(4);
    expect(h.records("Signal").map((r) => r["signal"])).toEqual(["SIGTERM"]);
  });

  it("stopping a created, an exited or an unknown container", () => {
    const h = withProgram(program({ run: { kind: "exit", afterMs: 0, code: 0 } }));
    const out = h.run(function* () {
      const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
      const c = (yield* h.rt.CreateContainer(sb, containerConfig(), sandboxConfig())) as string;
      const onCreated = yield* h.rt.StopContainer(c, 10);
      const createdState = ((yield* h.rt.ContainerStatus(c)) as ContainerStatus).state;
      yield* h.rt.StartContainer(c);
      yield* sleep(5);
      const onExited = yield* h.rt.StopContainer(c, 10);
      const unknown = yield* h.rt.StopContainer("c-77", 10);
      return [onCreated, createdState, onExited, unknown];
    });
    expect(out.slice(0, 3)).toEqual([null, "CONTAINER_CREATED", null]);
    expect((out[3] as CriError).desc).toBe('an error occurred when try to find container "c-77": not found');
  });

  it("RemoveContainer kills a running container first; removing again is fine", () => {
    const h = withProgram(program());
    const out = h.run(function* () {
      const { c } = yield* started(h);
      return [yield* h.rt.RemoveContainer(c), yield* h.rt.RemoveContainer(c), yield* h.rt.ContainerStatus(c)];
    });
    expect(out.slice(0, 2)).toEqual([null, null]);
    expect((out[2] as CriError).code).toBe("NotFound");
    expect(h.records("ContainerExited")[0]!["exitCode"]).toBe(137);
  });
});

describe("containers: ListContainers", () => {
  it.each([
    ["no filter", null, ["c-1", "c-2", "c-3"]],
    ["by id", { id: "c-2" }, ["c-2"]],
    ["running", { state: "CONTAINER_RUNNING" as const }, ["c-1", "c-3"]],
    ["exited", { state: "CONTAINER_EXITED" as const }, ["c-2"]],
    ["by sandbox", { podSandboxId: "s-2" }, ["c-3"]],
    ["by pod uid label", { labelSelector: { "io.kubernetes.pod.uid": "uid-web" } }, ["c-1", "c-2"]],
  ])("%s", (_name, filter, want) => {
    const h = harness({ images });
    h.rt.setBehaviour("default/web", "crash", [program({ run: { kind: "exit", afterMs: 0, code: 1 } })]);
    const ids = h.run(function* () {
      const web = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
      const db = (yield* h.rt.RunPodSandbox(sandboxConfig("db"), "")) as string;
      for (const [sb, name, pod] of [[web, "app", "web"], [web, "crash", "web"], [db, "app", "db"]] as const) {
        const c = (yield* h.rt.CreateContainer(sb, containerConfig(name, 0, "nginx:1.25", pod), sandboxConfig(pod))) as string;
        yield* h.rt.StartContainer(c);
      }
      yield* sleep(1);
      return ((yield* h.rt.ListContainers(filter)) as { id: string }[]).map((c) => c.id);
    });
    expect(ids).toEqual(want);
  });
});
