// kuberuntime_termination_order.go: a table-driven port of kuberuntime_termination_order_test.go
// (TestTerminationOrderingSidecarStopAfterMain, ...SidecarsInReverseOrder, ...ObeysGrace) on the
// virtual clock, cases of our own for containers that are not running, and the ordering wired into
// KillPod (SidecarContainers on: sidecars after the app, in reverse order; off: all at once).
import { describe, expect, it } from "vitest";
import { program } from "../../../src/cri/index.ts";
import type { Container, Pod } from "../../../src/k8s/pod.ts";
import { Sim, sleep } from "../../../src/sim/index.ts";
import { newTerminationOrdering } from "../../../src/kubelet/kuberuntime/kuberuntime_termination_order.ts";
import { ConvertPodStatusToRunningPod } from "../../../src/kubelet/kuberuntime/running_pod.ts";
import { KubeGenericRuntimeManager } from "../../../src/kubelet/kuberuntime/kuberuntime_manager_sync.ts";
import { driver, webPod } from "./sync/driver.ts";

const sidecar = (name: string): Container => ({ name, image: "busybox", imagePullPolicy: "IfNotPresent", restartPolicy: "Always" });
const regular = (name: string): Container => ({ name, image: "busybox", imagePullPolicy: "IfNotPresent" });

function pod(initContainers: Container[], containers: Container[]): Pod {
  return { metadata: { uid: "12345678", name: "bar", namespace: "new" }, spec: { initContainers, containers } };
}

/** getContainerNames: every init and regular container, all running. */
function getContainerNames(p: Pod): string[] {
  return [...(p.spec.initContainers ?? []), ...p.spec.containers].map((c) => c.name);
}

interface Case {
  name: string;
  pod: Pod;
  /** Defaults to every container (getContainerNames). */
  running?: string[];
  /** Per container: the grace period given to waitForTurn and how long it takes to exit after its turn. */
  containers: Record<string, { grace: number; exitAfterMs: number }>;
  /** int64(waitForTurn(...)) per container. */
  expectedDelay: Record<string, number>;
}

const threeSidecars = pod([sidecar("sc1"), sidecar("sc2"), sidecar("sc3")], [regular("main")]);
const all = (grace: number, exitAfterMs: number) =>
  Object.fromEntries(["sc1", "sc2", "sc3", "main"].map((n) => [n, { grace, exitAfterMs }]));

const cases: Case[] = [
  {
    // TestTerminationOrderingSidecarStopAfterMain
    name: "a sidecar waits for the main container to exit",
    pod: pod([sidecar("init")], [regular("main")]),
    containers: { init: { grace: 30, exitAfterMs: 0 }, main: { grace: 0, exitAfterMs: 1000 } },
    expectedDelay: { init: 1, main: 0 },
  },
  {
    // TestTerminationOrderingSidecarsInReverseOrder: sc1 = main + sc3 + sc2, sc2 = main + sc3, sc3 = main.
    name: "sidecars exit in reverse order",
    pod: threeSidecars,
    containers: all(30, 1250),
    expectedDelay: { sc1: 3, sc2: 2, sc3: 1, main: 0 },
  },
  {
    // TestTerminationOrderingObeysGrace: two seconds is not long enough for all of the waits to finish.
    name: "the overall grace period limits the time waited",
    pod: threeSidecars,
    containers: all(2, 1000),
    expectedDelay: { sc1: 2, sc2: 2, sc3: 1, main: 0 },
  },
  {
    name: "a main container that is not running is not waited for",
    pod: pod([sidecar("sc1")], [regular("main"), regular("done")]),
    running: ["sc1", "main"],
    containers: { sc1: { grace: 30, exitAfterMs: 0 }, main: { grace: 30, exitAfterMs: 1500 } },
    expectedDelay: { sc1: 1, main: 0 },
  },
  {
    name: "a later sidecar that is not running is not waited for",
    pod: threeSidecars,
    running: ["sc1", "sc2", "main"],
    containers: { sc1: { grace: 30, exitAfterMs: 1250 }, sc2: { grace: 30, exitAfterMs: 1250 }, main: { grace: 30, exitAfterMs: 1250 } },
    expectedDelay: { sc1: 2, sc2: 1, main: 0 },
  },
  {
    name: "a plain init container neither waits nor is waited for",
    pod: pod([regular("migrate"), sidecar("sc1")], [regular("main")]),
    running: ["sc1", "main"],
    containers: { sc1: { grace: 30, exitAfterMs: 0 }, main: { grace: 30, exitAfterMs: 4000 } },
    expectedDelay: { sc1: 4, main: 0 },
  },
  {
    name: "no grace period: nobody waits",
    pod: threeSidecars,
    containers: all(0, 1000),
    expectedDelay: { sc1: 0, sc2: 0, sc3: 0, main: 0 },
  },
];

/** Each container in its own goroutine: waitForTurn, record int64(delay), sleep, containerTerminated. */
function runCase(c: Case): Record<string, number> {
  const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, bounds: { untilMs: 120_000 } });
  const to = newTerminationOrdering(sim, c.pod, c.running ?? getContainerNames(c.pod));
  const delays: Record<string, number> = {};
  for (const [name, { grace, exitAfterMs }] of Object.entries(c.containers)) {
    sim.go(`container/${name}`, function* () {
      delays[name] = Math.trunc(yield* to.waitForTurn(name, grace));
      yield* sleep(exitAfterMs);
      to.containerTerminated(name);
    });
  }
  expect(sim.run().verdict).toBe("completed");
  return delays;
}

describe("terminationOrdering", () => {
  it.each(cases)("$name", (c) => {
    expect(runCase(c)).toEqual(c.expectedDelay);
  });

  it("newTerminationOrdering: sidecars wait on every main container and the next sidecar; others wait on nothing", () => {
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" } });
    const to = newTerminationOrdering(sim, threeSidecars, getContainerNames(threeSidecars));
    const names = (n: string) => (to.prereqs.get(n) ?? []).map((ch) => ch.name);
    expect(names("sc3")).toEqual(["terminated bar/main"]);
    expect(names("sc2")).toEqual(["terminated bar/main", "terminated bar/sc3"]);
    expect(names("sc1")).toEqual(["terminated bar/main", "terminated bar/sc2"]);
    expect(names("main")).toEqual([]);
  });

  it("containerTerminated twice closes once (the channel is forgotten)", () => {
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" } });
    const to = newTerminationOrdering(sim, threeSidecars, getContainerNames(threeSidecars));
    to.containerTerminated("main");
    expect(() => to.containerTerminated("main")).not.toThrow();
    expect(to.terminated.has("main")).toBe(false);
  });
});

/** "ms name" lines by time, then name (goroutines that signal at the same instant may go in any order). */
function byTimeThenName(a: string, b: string): number {
  const [ta, na] = a.split(" ");
  const [tb, nb] = b.split(" ");
  return Number(ta) - Number(tb) || (na! < nb! ? -1 : na! > nb! ? 1 : 0);
}

describe("KillPod with sidecars", () => {
  const present = { present: true, pullTime: null, fail: null };
  const images = { "nginx:1.25": present, "fluent:3": present, "proxy:1": present };
  // Four containers: a channel of capacity 3 trips a kernel Deque bug (capacities must be powers of two).
  const sidecarPod = webPod({
    terminationGracePeriodSeconds: 30,
    initContainers: [
      { name: "proxy", image: "proxy:1", restartPolicy: "Always" },
      { name: "logs", image: "fluent:3", restartPolicy: "Always" },
    ],
    containers: [{ name: "app", image: "nginx:1.25" }, { name: "worker", image: "nginx:1.25" }],
  });

  /**
   * Starts the pod (two sidecars, then app and worker) with the gate on, kills it through a runtime
   * manager with the gate as given, and returns "ms-after-kill container" per SIGTERM and the
   * StopContainer timeouts.
   */
  function killWith(SidecarContainers: boolean): { signals: string[]; stopTimeouts: Record<string, unknown> } {
    const d = driver({ runtime: { images } });
    const exitAfter = { app: 3000, worker: 1000, logs: 1000, proxy: 500 };
    for (const [name, afterMs] of Object.entries(exitAfter)) {
      d.rt.setBehaviour("default/web", name, [program({ onSigterm: { kind: "exit", afterMs, code: 0 } })]);
    }
    const killer = new KubeGenericRuntimeManager({ sim: d.sim, runtimeService: d.rt, imageService: d.rt, network: d.rt, features: { SidecarContainers } });
    let killAtMs = 0;
    let err: string | null = "unset";
    d.run(function* () {
      for (let i = 0; i < 3; i++) yield* d.syncOnce(sidecarPod);
      const runningPod = ConvertPodStatusToRunningPod("containerd", yield* d.status(sidecarPod));
      killAtMs = d.sim.nowMs;
      err = yield* killer.KillPod(sidecarPod, runningPod, null);
    });
    expect(err).toBeNull();
    const signals = d.records("runtime", "Signal").map((r) => `${r.t - killAtMs} ${String(r["container"])}`).sort(byTimeThenName);
    const stopTimeouts = Object.fromEntries(d.records("runtime", "StopContainer").map((r) => [String(r["container"]), r["timeoutSeconds"]]));
    return { signals, stopTimeouts };
  }

  it("gate on: the regular containers first, then the later sidecar, then the earlier one; each gets the grace that is left", () => {
    const { signals, stopTimeouts } = killWith(true);
    // StopContainer takes 10 ms before the signal; app exits 3 s after it, logs 1 s after its own.
    expect(signals).toEqual(["10 app", "10 worker", "3020 logs", "4030 proxy"]);
    expect(stopTimeouts).toEqual({ app: 30, worker: 30, logs: 27, proxy: 26 });
  });

  it("gate off: every container is stopped at once, as before v1.29", () => {
    const { signals, stopTimeouts } = killWith(false);
    expect(signals.map((s) => s.split(" ")[0])).toEqual(["10", "10", "10", "10"]);
    expect(stopTimeouts).toEqual({ app: 30, worker: 30, logs: 30, proxy: 30 });
  });
});
