import { describe, expect, it } from "vitest";
import { CriError, program, type CriFault } from "../../../../src/cri/index.ts";
import { MemorySink, Sim, sleep } from "../../../../src/sim/index.ts";
import { SimRuntime } from "../../../../src/cri/index.ts";
import { KubeGenericRuntimeManager } from "../../../../src/kubelet/kuberuntime/kuberuntime_manager_sync.ts";
import { newContainerRestartBackOff } from "../../../../src/kubelet/util/backoff.ts";
import { ConvertPodStatusToRunningPod } from "../../../../src/kubelet/kuberuntime/running_pod.ts";
import { driver, syncEvery, webPod } from "./driver.ts";

const present = { present: true, pullTime: null, fail: null };
const fault = (f: Partial<CriFault> & Pick<CriFault, "method">): CriFault => ({
  pod: null, container: null, call: 1, times: null, fromMs: 0, toMs: null, kind: "error", message: "injected fault", ...f,
});

describe("SyncPod: sandboxes", () => {
  it("a sandbox that dies is replaced: SandboxChanged, the pod is killed, attempt 1, containers restarted", () => {
    const d = driver({ runtime: { images: { "nginx:1.25": present } } });
    let ips: string[] = [];
    d.run(function* () {
      yield* d.syncOnce(webPod());
      yield* sleep(1000);
      d.rt.sandboxDies("s-1");
      const r = yield* d.syncOnce(webPod());
      expect(r.Error()).toBeNull();
      ips = (yield* d.status(webPod())).ips;
    });
    expect(d.events().map((e) => e.replace(/^\d+ /, ""))).toContain("SandboxChanged: Pod sandbox changed, it will be killed and re-created.");
    expect(d.records("runtime", "StopPodSandbox").map((r) => r["id"])).toEqual(["s-1"]);
    expect(d.records("runtime", "RunPodSandbox").map((r) => [r["newId"], r["attempt"]])).toEqual([["s-1", 0], ["s-2", 1]]);
    expect(d.records("runtime", "CreateContainer").map((r) => r["attempt"])).toEqual([0, 1]);
    expect(ips).toEqual(["10.244.0.3"]);
  });

  it("a failing RunPodSandbox: FailedCreatePodSandBox and CreatePodSandboxError; the next sync creates it", () => {
    const d = driver({ runtime: { images: { "nginx:1.25": present }, faults: [fault({ method: "RunPodSandbox", times: 1, message: "failed to setup network for sandbox: plugin type=\"bridge\" failed" })] } });
    const errs: (string | null)[] = [];
    d.run(function* () {
      errs.push((yield* d.syncOnce(webPod())).Error());
      errs.push((yield* d.syncOnce(webPod())).Error());
    });
    expect(errs[0]).toBe(
      'failed to "CreatePodSandbox" for "web_default(uid-web)" with CreatePodSandboxError: "Failed to create sandbox for pod \\"web_default(uid-web)\\": rpc error: code = Unknown desc = failed to setup network for sandbox: plugin type=\\"bridge\\" failed"',
    );
    expect(errs[1]).toBeNull();
    expect(d.events()[0]).toBe('30 FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox: plugin type="bridge" failed');
  });

  it("a host-network pod's sandbox has no IP of its own; the pod status keeps none", () => {
    const d = driver({ runtime: { images: { "nginx:1.25": present } } });
    let ips: string[] = ["unset"];
    d.run(function* () {
      yield* d.syncOnce(webPod({ hostNetwork: true }));
      ips = (yield* d.status(webPod({ hostNetwork: true }))).ips;
    });
    expect(ips).toEqual([]);
    expect(d.records("runtime", "ContainerStarted")).toHaveLength(1);
  });
});

describe("SyncPod: init containers", () => {
  it.each([true, false])("init containers run one by one, then the app (SidecarContainers %s)", (sidecars) => {
    const d = driver({ untilMs: 20_000, runtime: { images: { "nginx:1.25": present, "busybox:1": present } }, manager: { features: { SidecarContainers: sidecars } } });
    d.rt.setBehaviour("default/web", "init-a", [program({ run: { kind: "exit", afterMs: 500, code: 0 } })]);
    d.rt.setBehaviour("default/web", "init-b", [program({ run: { kind: "exit", afterMs: 500, code: 0 } })]);
    const pod = webPod({
      initContainers: [
        { name: "init-a", image: "busybox:1" },
        { name: "init-b", image: "busybox:1" },
      ],
    });
    d.run(() => syncEvery(d, () => pod, 1000, 5000, []));
    expect(d.records("runtime", "ContainerStarted").map((r) => `${r.t}:${r["container"]}`)).toEqual(["70:init-a", "1140:init-b", "2220:app"]);
  });

  it("a failing init container is restarted (restartPolicy Always) with back-off; the app never starts", () => {
    const d = driver({ untilMs: 20_000, runtime: { images: { "nginx:1.25": present, "busybox:1": present } } });
    d.rt.setBehaviour("default/web", "init", [program({ run: { kind: "exit", afterMs: 100, code: 1 } })]);
    const pod = webPod({ initContainers: [{ name: "init", image: "busybox:1" }] });
    d.run(() => syncEvery(d, () => pod, 1000, 15_000, []));
    const started = d.records("runtime", "ContainerStarted").map((r) => r["container"]);
    expect(new Set(started)).toEqual(new Set(["init"]));
    expect(started.length).toBe(3);
    // Only the newest exited instance of the init container is kept.
    expect(d.records("kuberuntime", "RemoveInitContainer").length).toBeGreaterThan(0);
  });
});

describe("KillPod", () => {
  it("with no pod spec: grace periods and the preStop hook come back from the container's annotations", () => {
    const d = driver({ runtime: { images: { "nginx:1.25": present } } });
    d.rt.setBehaviour("default/web", "app", [program({ onSigterm: { kind: "ignore" }, hooks: { preStop: { durationMs: 3000, error: null } } })]);
    const pod = webPod({
      terminationGracePeriodSeconds: 10,
      containers: [{ name: "app", image: "nginx:1.25", lifecycle: { preStop: { exec: { command: ["/drain"] } } } }],
    });
    let err: string | null = "unset";
    d.run(function* () {
      yield* d.syncOnce(pod);
      err = yield* d.manager.KillPod(null, ConvertPodStatusToRunningPod("containerd", yield* d.status(pod)), null);
    });
    expect(err).toBeNull();
    expect(d.records("runtime", "ExecSync")[0]).toMatchObject({ hook: "preStop", cmd: "/drain" });
    expect(d.records("runtime", "StopContainer")[0]!["timeoutSeconds"]).toBe(7);
    expect(d.records("runtime", "StopPodSandbox")).toHaveLength(1);
  });

  it("a grace period override replaces the pod's grace (a hard kill)", () => {
    const d = driver({ runtime: { images: { "nginx:1.25": present } } });
    d.run(function* () {
      yield* d.syncOnce(webPod());
      yield* d.manager.KillPod(webPod(), ConvertPodStatusToRunningPod("containerd", yield* d.status(webPod())), 0);
    });
    // killContainer's minimum 2 s applies after the override.
    expect(d.records("runtime", "StopContainer")[0]!["timeoutSeconds"]).toBe(2);
  });

  it("a StopPodSandbox failure is KillPodSandboxError; GetPods lists what runs", () => {
    const d = driver({ runtime: { images: { "nginx:1.25": present }, faults: [fault({ method: "StopPodSandbox", times: 1, message: "netns busy" })] } });
    let err: string | null = null;
    let pods: unknown;
    d.run(function* () {
      yield* d.syncOnce(webPod());
      pods = yield* d.manager.GetPods(false);
      err = yield* d.manager.KillPod(webPod(), ConvertPodStatusToRunningPod("containerd", yield* d.status(webPod())), null);
    });
    expect(err).toBe('failed to "KillPodSandbox" for "uid-web" with KillPodSandboxError: "rpc error: code = Unknown desc = netns busy"');
    expect(pods).toMatchObject([{ id: "uid-web", name: "web", containers: [{ name: "app", state: "running" }], sandboxes: [{ state: "running" }] }]);
  });
});

describe("determinism", () => {
  /** A crash-looping pod with ranged latencies and a flaky pull; returns the run's trace hash. */
  function traceHash(seed: number): string {
    const sink = new MemorySink();
    const sim = new Sim({ seed, strategy: { name: "random" }, sinks: [sink], bounds: { untilMs: 45_000 } });
    const rt = new SimRuntime(sim, {
      latency: { RunPodSandbox: { minMs: 200, maxMs: 800 }, CreateContainer: { minMs: 20, maxMs: 90 }, StartContainer: { minMs: 30, maxMs: 150 }, PullImage: { minMs: 500, maxMs: 3000 } },
      images: { "nginx:1.25": { present: false, pullTime: null, fail: { error: "failed", message: null, times: 1, fromMs: 0, toMs: null } } },
    });
    rt.setBehaviour("default/web", "app", [program({ run: { kind: "exit", afterMs: 2000, code: 1 } }), program()]);
    const manager = new KubeGenericRuntimeManager({ sim, runtimeService: rt, imageService: rt, network: rt });
    const backOff = newContainerRestartBackOff({ nowMs: () => sim.nowMs });
    for (const name of ["web", "db"]) {
      const pod = webPod({}, { name, uid: `uid-${name}` });
      sim.go(`podworker/${name}`, function* () {
        for (;;) {
          const st = yield* manager.GetPodStatus(pod.metadata.uid!, name, "default");
          if (!(st instanceof CriError)) yield* manager.SyncPod(pod, st, [], backOff);
          yield* sleep(1000);
        }
      });
    }
    return sim.run().traceHash;
  }

  it("the same seed gives the same trace hash; another seed another one", () => {
    const a = traceHash(42);
    expect(traceHash(42)).toBe(a);
    expect(traceHash(43)).not.toBe(a);
  });
});
