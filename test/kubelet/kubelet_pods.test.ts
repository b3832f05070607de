// pkg/kubelet/kubelet_pods.go: getPhase tables ported from kubelet_pods_test.go (TestPodPhaseWith*),
// container statuses and waiting reasons, and generateAPIPodStatus across the releases.
import { describe, expect, it } from "vitest";
import type { Container, ContainerStatus, Pod, PodStatus as APIPodStatus } from "../../src/k8s/pod.ts";
import type { PodStatus, Status } from "../../src/kubelet/container/runtime.ts";
import {
  convertToAPIContainerStatuses,
  generateAPIPodStatus,
  GetNodeHostIPs,
  getPhase,
  sortPodIPs,
  kubeletPodsEra,
  type GenerateAPIPodStatusDeps,
} from "../../src/kubelet/kubelet_pods.ts";
import { ReasonCache } from "../../src/kubelet/reason_cache.ts";

// The state helpers of kubelet_pods_test.go.
const runningState = (name: string): ContainerStatus => ({ name, state: { running: {} } });
const startedState = (name: string): ContainerStatus => ({ name, state: { running: {} }, started: true });
const stoppedState = (name: string): ContainerStatus => ({ name, state: { terminated: { exitCode: 0 } } });
const succeededState = stoppedState;
const failedState = (name: string): ContainerStatus => ({ name, state: { terminated: { exitCode: -1 } } });
const waitingState = (name: string): ContainerStatus => ({ name, state: { waiting: { reason: "ContainerCreating" } } });
const waitingStateWithLastTermination = (name: string): ContainerStatus => ({ ...waitingState(name), lastState: { terminated: { exitCode: 0 } } });
const waitingStateWithNonZeroTermination = (name: string): ContainerStatus => ({ ...waitingState(name), lastState: { terminated: { exitCode: -1 } } });

type Policy = "Always" | "Never" | "OnFailure";
function mkPod(policy: Policy, containers: string[], init: (string | [string, "Always"])[] = [], status: APIPodStatus = {}): Pod {
  const initContainers: Container[] = init.map((x) => (typeof x === "string" ? { name: x } : { name: x[0], restartPolicy: "Always" }));
  return {
    metadata: { name: "my-pod", namespace: "default", uid: "uid-1" },
    spec: { containers: containers.map((name) => ({ name })), initContainers, restartPolicy: policy },
    status,
  };
}

const v130 = kubeletPodsEra(30);

describe("getPhase (TestPodPhaseWith*, 1.30 form)", () => {
  const AB = ["containerA", "containerB"];
  type Row = [string, Policy, (string | [string, "Always"])[], ContainerStatus[], boolean, string];
  const X: [string, "Always"] = ["containerX", "Always"];
  const rows: Row[] = [
    // TestPodPhaseWithRestartAlways
    ["waiting", "Always", [], [], false, "Pending"],
    ["all running", "Always", [], [runningState("containerA"), runningState("containerB")], false, "Running"],
    ["all stopped with restart always", "Always", [], [stoppedState("containerA"), stoppedState("containerB")], false, "Running"],
    ["all succeeded with restart always, but the pod is terminal", "Always", [], [succeededState("containerA"), succeededState("containerB")], true, "Succeeded"],
    ["all stopped with restart always, but the pod is terminal", "Always", [], [succeededState("containerA"), failedState("containerB")], true, "Failed"],
    ["mixed state #1 with restart always", "Always", [], [runningState("containerA"), stoppedState("containerB")], false, "Running"],
    ["mixed state #2 with restart always", "Always", [], [runningState("containerA")], false, "Pending"],
    ["mixed state #3 with restart always", "Always", [], [runningState("containerA"), waitingState("containerB")], false, "Pending"],
    ["backoff crashloop container with restart always", "Always", [], [runningState("containerA"), waitingStateWithLastTermination("containerB")], false, "Running"],
    // TestPodPhaseWithRestartAlwaysInitContainers
    ["init: empty, waiting", "Always", ["containerX"], [], false, "Pending"],
    ["init container running", "Always", ["containerX"], [runningState("containerX")], false, "Pending"],
    ["init container terminated non-zero", "Always", ["containerX"], [failedState("containerX")], false, "Pending"],
    ["init container waiting, terminated zero", "Always", ["containerX"], [waitingStateWithLastTermination("containerX")], false, "Pending"],
    ["init container waiting, terminated non-zero", "Always", ["containerX"], [waitingStateWithNonZeroTermination("containerX")], false, "Pending"],
    ["init container waiting, not terminated", "Always", ["containerX"], [waitingState("containerX")], false, "Pending"],
    ["init container succeeded", "Always", ["containerX"], [succeededState("containerX"), runningState("containerA"), runningState("containerB")], false, "Running"],
    // TestPodPhaseWithRestartAlwaysRestartableInitContainers
    ["restartable init container running", "Always", [X], [runningState("containerX")], false, "Pending"],
    ["restartable init container stopped", "Always", [X], [stoppedState("containerX")], false, "Pending"],
    ["restartable init container waiting, terminated zero", "Always", [X], [waitingStateWithLastTermination("containerX")], false, "Pending"],
    ["restartable init container waiting, not terminated", "Always", [X], [waitingState("containerX")], false, "Pending"],
    ["restartable init container started, 1/2 regular container running", "Always", [X], [startedState("containerX"), runningState("containerA")], false, "Pending"],
    ["restartable init container started, all regular containers running", "Always", [X], [startedState("containerX"), runningState("containerA"), runningState("containerB")], false, "Running"],
    ["restartable init container running, all regular containers running", "Always", [X], [runningState("containerX"), runningState("containerA"), runningState("containerB")], false, "Running"],
    ["restartable init container stopped, all regular containers running", "Always", [X], [stoppedState("containerX"), runningState("containerA"), runningState("containerB")], false, "Running"],
    ["backoff crashloop restartable init container, all regular containers running", "Always", [X], [waitingStateWithLastTermination("containerX"), runningState("containerA"), runningState("containerB")], false, "Running"],
    ["all regular containers succeeded and restartable init container failed, terminal", "Always", [X], [failedState("containerX"), succeededState("containerA"), succeededState("containerB")], true, "Succeeded"],
    // TestPodPhaseWithRestartNever
    ["never: waiting", "Never", [], [], false, "Pending"],
    ["all running with restart never", "Never", [], [runningState("containerA"), runningState("containerB")], false, "Running"],
    ["all succeeded with restart never", "Never", [], [succeededState("containerA"), succeededState("containerB")], false, "Succeeded"],
    ["all failed with restart never", "Never", [], [failedState("containerA"), failedState("containerB")], false, "Failed"],
    ["mixed state #1 with restart never", "Never", [], [runningState("containerA"), succeededState("containerB")], false, "Running"],
    ["mixed state #2 with restart never", "Never", [], [runningState("containerA")], false, "Pending"],
    ["mixed state #3 with restart never", "Never", [], [runningState("containerA"), waitingState("containerB")], false, "Pending"],
    // TestPodPhaseWithRestartNeverInitContainers
    ["never init container running", "Never", ["containerX"], [runningState("containerX")], false, "Pending"],
    ["never init container terminated non-zero", "Never", ["containerX"], [failedState("containerX")], false, "Failed"],
    ["never init container waiting, terminated zero", "Never", ["containerX"], [waitingStateWithLastTermination("containerX")], false, "Pending"],
    ["never init container waiting, terminated non-zero", "Never", ["containerX"], [waitingStateWithNonZeroTermination("containerX")], false, "Failed"],
    ["never init container succeeded", "Never", ["containerX"], [succeededState("containerX"), runningState("containerA"), runningState("containerB")], false, "Running"],
    // TestPodPhaseWithRestartNeverRestartableInitContainers
    ["never restartable init started, main containers succeeded", "Never", [X], [startedState("containerX"), succeededState("containerA"), succeededState("containerB")], false, "Running"],
    ["never all containers succeeded", "Never", [X], [succeededState("containerX"), succeededState("containerA"), succeededState("containerB")], false, "Succeeded"],
    ["never restartable init terminated non-zero, main succeeded", "Never", [X], [failedState("containerX"), succeededState("containerA"), succeededState("containerB")], false, "Succeeded"],
    ["never backoff crashloop restartable init, main succeeded", "Never", [X], [waitingStateWithNonZeroTermination("containerX"), succeededState("containerA"), succeededState("containerB")], false, "Succeeded"],
    // TestPodPhaseWithRestartOnFailure
    ["onfailure: waiting", "OnFailure", [], [], false, "Pending"],
    ["all succeeded with restart onfailure", "OnFailure", [], [succeededState("containerA"), succeededState("containerB")], false, "Succeeded"],
    ["all failed with restart onfailure", "OnFailure", [], [failedState("containerA"), failedState("containerB")], false, "Running"],
    ["mixed state #1 with restart onfailure", "OnFailure", [], [runningState("containerA"), succeededState("containerB")], false, "Running"],
    ["backoff crashloop container with restart onfailure", "OnFailure", [], [runningState("containerA"), waitingStateWithLastTermination("containerB")], false, "Running"],
  ];
  it.each(rows)("%s", (_name, policy, init, info, podIsTerminal, phase) => {
    expect(getPhase(mkPod(policy, AB, init), info, podIsTerminal, v130)).toBe(phase);
  });

  it("TestPodPhaseWithRestartAlwaysAndPodHasRun, in the 1.28–1.30 form", () => {
    const pod = mkPod("Always", ["containerA"], ["containerX", ["containerY", "Always"]]);
    const phase = (info: ContainerStatus[]) => getPhase(pod, info, false, v130);
    expect(phase([succeededState("containerX"), runningState("containerY"), stoppedState("containerA")])).toBe("Running");
    expect(phase([succeededState("containerX"), runningState("containerY"), runningState("containerA")])).toBe("Running");
    // Upstream's test (added with the fix #126653, after 1.30) expects Pending for these two: a
    // regular init container running again after the app has run (#126650, e.g. after a node
    // reboot). The 1.28–1.30 guard HasAnyRegularContainerStarted says Running.
    expect(phase([runningState("containerX"), runningState("containerY"), runningState("containerA")])).toBe("Running");
    expect(phase([runningState("containerX"), runningState("containerY"), stoppedState("containerA")])).toBe("Running");
  });

  it("TestPodPhaseWithRestartAlwaysAndPodHasRun from 1.32 (#126653): a running regular init container keeps the pod Pending", () => {
    const pod = mkPod("Always", ["containerA"], ["containerX", ["containerY", "Always"]]);
    const phase = (info: ContainerStatus[]) => getPhase(pod, info, false, kubeletPodsEra(32));
    expect(phase([succeededState("containerX"), runningState("containerY"), stoppedState("containerA")])).toBe("Running");
    expect(phase([succeededState("containerX"), runningState("containerY"), runningState("containerA")])).toBe("Running");
    expect(phase([runningState("containerX"), runningState("containerY"), runningState("containerA")])).toBe("Pending");
    expect(phase([runningState("containerX"), runningState("containerY"), stoppedState("containerA")])).toBe("Pending");
    // A restartable init container not yet started is still excused once a regular container ran.
    expect(phase([succeededState("containerX"), waitingState("containerY"), runningState("containerA")])).toBe("Pending");
    expect(phase([succeededState("containerX"), runningState("containerY"), stoppedState("containerA")])).toBe("Running");
  });
});

describe("getPhase across releases", () => {
  it("podIsTerminal counts from 1.27 (#115331): all-succeeded Always pod is Running before, Succeeded after", () => {
    const pod = mkPod("Always", ["a"]);
    expect(getPhase(pod, [succeededState("a")], true, kubeletPodsEra(26))).toBe("Running");
    expect(getPhase(pod, [succeededState("a")], true, kubeletPodsEra(27))).toBe("Succeeded");
  });

  it("a static pod never gets a terminal phase from podIsTerminal (TODO #116484 upstream)", () => {
    const pod = mkPod("Always", ["a"]);
    pod.metadata.annotations = { "kubernetes.io/config.source": "file" };
    expect(getPhase(pod, [succeededState("a")], true, v130)).toBe("Running");
  });

  it("before 1.28 a restartable init container is just an init container that keeps the pod Pending", () => {
    const pod = mkPod("Always", ["a"], [["sidecar", "Always"]]);
    const info = [startedState("sidecar"), runningState("a")];
    expect(getPhase(pod, info, false, kubeletPodsEra(27))).toBe("Pending");
    expect(getPhase(pod, info, false, kubeletPodsEra(28))).toBe("Running");
  });
});

// ---- container statuses ------------------------------------------------------------------

function rt(name: string, state: Status["state"], extra: Partial<Status> = {}): Status {
  return {
    id: { type: "containerd", id: `${name}-${extra.createdAtMs ?? 0}` },
    name,
    state,
    createdAtMs: 0,
    exitCode: 0,
    image: "img:1",
    imageID: "sha256:1",
    hash: 0,
    restartCount: 0,
    reason: "",
    message: "",
    ...extra,
  };
}
function runtimeStatus(containerStatuses: Status[], extra: Partial<PodStatus> = {}): PodStatus {
  return { id: "uid-1", name: "my-pod", namespace: "default", ips: [], containerStatuses, sandboxStatuses: [], ...extra };
}
const api = (s: Partial<ContainerStatus> & { name: string }): ContainerStatus => ({
  state: {},
  lastState: {},
  ready: false,
  restartCount: 0,
  image: "",
  imageID: "",
  ...s,
});
const deps = (minor = 30, reasonCache = new ReasonCache()) => ({ era: kubeletPodsEra(minor), reasonCache });
const convert = (pod: Pod, ps: PodStatus, prev: ContainerStatus[], minor = 30, rc = new ReasonCache()) =>
  convertToAPIContainerStatuses(pod, ps, prev, pod.spec.containers, (pod.spec.initContainers ?? []).length > 0, false, deps(minor, rc));

describe("convertToAPIContainerStatuses", () => {
  const lostRunning = (restartCount: number) =>
    api({
      name: "containerA",
      state: { waiting: { reason: "ContainerCreating" } },
      lastState: {
        terminated: {
          reason: "ContainerStatusUnknown",
          message: "The container could not be located when the pod was deleted.  The container used to be Running",
          exitCode: 137,
        },
      },
      restartCount,
    });

  it.each([
    ["with previous statuses and deletion", true, 0],
    ["with previous statuses and no deletion", false, 1],
  ])("TestConvertToAPIContainerStatuses: no current status, %s", (_n, deleted, restarts) => {
    const pod = mkPod("Always", ["containerA", "containerB"]);
    if (deleted) pod.metadata.deletionTimestamp = "2025-01-01T00:00:00Z";
    const got = convert(pod, runtimeStatus([]), [runningState("containerA"), runningState("containerB")]);
    expect(got).toEqual([lostRunning(restarts), { ...lostRunning(restarts), name: "containerB" }]);
  });

  it("defaults to Waiting ContainerCreating, or PodInitializing when the pod has init containers", () => {
    expect(convert(mkPod("Always", ["a"]), runtimeStatus([]), [])[0]!.state).toEqual({ waiting: { reason: "ContainerCreating" } });
    expect(convert(mkPod("Always", ["a"], ["i"]), runtimeStatus([]), [])[0]!.state).toEqual({ waiting: { reason: "PodInitializing" } });
  });

  it("the newest container gives state, the one before it lastState, older ones nothing", () => {
    const got = convert(
      mkPod("Always", ["a"]),
      runtimeStatus([
        rt("a", "exited", { createdAtMs: 1_000, exitCode: 2, reason: "Error", startedAtMs: 1_000, finishedAtMs: 3_000 }),
        rt("a", "running", { createdAtMs: 5_000, restartCount: 1, startedAtMs: 5_000 }),
        rt("a", "exited", { createdAtMs: 0, exitCode: 9 }),
      ]),
      [],
    );
    expect(got).toEqual([
      api({
        name: "a",
        image: "img:1",
        imageID: "sha256:1",
        containerID: "containerd://a-5000",
        restartCount: 1,
        state: { running: { startedAt: "2025-01-01T00:00:05Z" } },
        lastState: {
          terminated: {
            exitCode: 2,
            reason: "Error",
            startedAt: "2025-01-01T00:00:01Z",
            finishedAt: "2025-01-01T00:00:03Z",
            containerID: "containerd://a-1000",
          },
        },
      }),
    ]);
  });

  it("a created container is Terminated until 1.23 and Waiting from 1.24 (#107845)", () => {
    const ps = runtimeStatus([rt("a", "created", { exitCode: 128 })]);
    expect(convert(mkPod("Never", ["a"]), ps, [], 23)[0]!.state).toEqual({ terminated: { exitCode: 128, containerID: "containerd://a-0" } });
    expect(convert(mkPod("Never", ["a"]), ps, [], 24)[0]!.state).toEqual({ waiting: {} });
  });

  it("an unknown container that was running becomes Terminated 137 with one more restart", () => {
    const ps = runtimeStatus([rt("a", "unknown", { restartCount: 3 })]);
    const [s] = convert(mkPod("Always", ["a"]), ps, [{ ...runningState("a"), restartCount: 3 }]);
    expect(s!.state).toEqual({
      terminated: { reason: "ContainerStatusUnknown", message: "The container could not be located when the pod was terminated", exitCode: 137 },
    });
    expect(s!.restartCount).toBe(4);
    expect(convert(mkPod("Always", ["a"]), ps, [])[0]!.state).toEqual({ waiting: {} });
  });

  it("a terminated old status is kept when the runtime lost the container (#54593)", () => {
    const old = { ...failedState("a"), containerID: "containerd://gone", restartCount: 0 };
    expect(convert(mkPod("Never", ["a"]), runtimeStatus([]), [old])).toEqual([old]);
  });
});

describe("waiting reasons from the reason cache", () => {
  const rcWith = (name: string, err: string, message: string) => {
    const rc = new ReasonCache();
    rc.Update("uid-1", { SyncResults: [{ Action: "StartContainer", Target: name, Error: err, Message: message }] });
    return rc;
  };

  it("CrashLoopBackOff replaces the terminated state and moves it to lastState", () => {
    const ps = runtimeStatus([rt("a", "exited", { exitCode: 1, reason: "Error", restartCount: 2 })]);
    const [s] = convert(mkPod("Always", ["a"]), ps, [], 30, rcWith("a", "CrashLoopBackOff", "back-off 20s restarting failed container=a"));
    expect(s!.state).toEqual({ waiting: { reason: "CrashLoopBackOff", message: "back-off 20s restarting failed container=a" } });
    expect(s!.lastState).toEqual({ terminated: { exitCode: 1, reason: "Error", containerID: "containerd://a-0" } });
    expect(s!.restartCount).toBe(2);
  });

  it.each(["ImagePullBackOff", "ErrImagePull"])("%s on a container that never started", (reason) => {
    const [s] = convert(mkPod("Always", ["a"]), runtimeStatus([]), [], 30, rcWith("a", reason, "pulling image \"img:1\""));
    expect(s!.state).toEqual({ waiting: { reason, message: "pulling image \"img:1\"" } });
    expect(s!.lastState).toEqual({});
  });

  it("no waiting reason for a container that will not be restarted (Never policy, or a deleted pod)", () => {
    const ps = runtimeStatus([rt("a", "exited", { exitCode: 1 })]);
    const rc = rcWith("a", "CrashLoopBackOff", "");
    expect(convert(mkPod("Never", ["a"]), ps, [], 30, rc)[0]!.state?.terminated?.exitCode).toBe(1);
    const deleted = mkPod("Always", ["a"]);
    deleted.metadata.deletionTimestamp = "2025-01-01T00:00:00Z";
    expect(convert(deleted, ps, [], 30, rc)[0]!.state?.terminated?.exitCode).toBe(1);
  });

  it("an init container that exited 0 keeps its terminated state", () => {
    const pod = mkPod("Always", ["a"], ["i"]);
    const ps = runtimeStatus([rt("i", "exited", { exitCode: 0 })]);
    const got = convertToAPIContainerStatuses(pod, ps, [], pod.spec.initContainers!, true, true, deps(30, rcWith("i", "CrashLoopBackOff", "")));
    expect(got[0]!.state?.terminated?.exitCode).toBe(0);
  });
});

// ---- generateAPIPodStatus -----------------------------------------------------------------

function gdeps(minor: number, sm?: APIPodStatus, over: Partial<GenerateAPIPodStatusDeps> = {}): GenerateAPIPodStatusDeps {
  return { era: kubeletPodsEra(minor), reasonCache: new ReasonCache(), statusManagerPodStatus: () => sm, ...over };
}
const running1 = () => runtimeStatus([rt("a", "running", { startedAtMs: 0 })], { ips: ["10.0.0.5", "fd00::5"] });

function deepFreeze<T>(o: T): T {
  if (o !== null && typeof o === "object" && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

describe("generateAPIPodStatus", () => {
  it("assembles IPs, statuses, phase and conditions in upstream order, without touching its inputs", () => {
    const pod = deepFreeze(
      mkPod("Always", ["a"], [], {
        phase: "Pending",
        conditions: [
          { type: "example.com/gate", status: "True" },
          { type: "Ready", status: "False" }, // kubelet-owned: regenerated, not copied
        ],
      }),
    );
    const s = generateAPIPodStatus(pod, deepFreeze(running1()), false, gdeps(30, undefined, { hostIPs: ["192.168.0.1"] }));
    expect(s.phase).toBe("Running");
    expect(s.podIP).toBe("10.0.0.5");
    expect(s.podIPs).toEqual([{ ip: "10.0.0.5" }, { ip: "fd00::5" }]);
    expect(s.hostIP).toBe("192.168.0.1");
    expect(s.hostIPs).toEqual([{ ip: "192.168.0.1" }]); // ≥1.29 (PodHostIPs)
    expect(generateAPIPodStatus(pod, deepFreeze(running1()), false, gdeps(28, undefined, { hostIPs: ["192.168.0.1"] })).hostIPs).toBeUndefined();
    expect(s.conditions!.map((c) => `${c.type}=${c.status}`)).toEqual([
      "example.com/gate=True",
      "Initialized=True",
      "Ready=False", // no probe manager hook: containers are not ready
      "ContainersReady=False",
      "PodScheduled=True",
    ]);
    expect(s.initContainerStatuses).toBeUndefined();
  });

  it("PodReadyToStartContainers comes first among the kubelet's conditions when its gate is on", () => {
    const ready = runtimeStatus([rt("a", "running")], {
      sandboxStatuses: [
        { id: "s1", metadata: { name: "my-pod", uid: "uid-1", namespace: "default", attempt: 0 }, state: "SANDBOX_READY", createdAtMs: 0, network: { ip: "10.0.0.5" } },
      ],
    });
    const gated = gdeps(30, undefined, { readyToStartContainersCondition: true });
    const types = (ps: PodStatus) => generateAPIPodStatus(mkPod("Always", ["a"]), ps, false, gated).conditions!.map((c) => `${c.type}=${c.status}`);
    expect(types(ready)[0]).toBe("PodReadyToStartContainers=True");
    expect(types(runtimeStatus([]))[0]).toBe("PodReadyToStartContainers=False");
  });

  it("the probe manager and condition hooks are called on the fresh status", () => {
    const s = generateAPIPodStatus(mkPod("Always", ["a"]), running1(), false, gdeps(30, undefined, {
      probeManagerUpdatePodStatus: (_pod, st) => {
        for (const cs of st.containerStatuses ?? []) cs.ready = true;
      },
      generateKubeletConditions: () => [{ type: "Ready", status: "True" }],
    }));
    expect(s.containerStatuses![0]!.ready).toBe(true);
    expect(s.conditions!.map((c) => c.type)).toEqual(["Ready", "PodScheduled"]);
  });

  it("keeps the phase's reason and message from 1.22 (#102344); 1.21 drops them", () => {
    const sm: APIPodStatus = { phase: "Running", reason: "NodeLost", message: "kept" };
    expect(generateAPIPodStatus(mkPod("Always", ["a"]), running1(), false, gdeps(21, sm))).not.toHaveProperty("reason");
    expect(generateAPIPodStatus(mkPod("Always", ["a"]), running1(), false, gdeps(22, sm))).toMatchObject({ reason: "NodeLost", message: "kept" });
  });

  it("a terminal phase in the status manager is kept from 1.23 (three-way merge); 1.22 regresses it (R13's shape)", () => {
    // The status manager wrote Failed; the container record is gone and the API still says Running.
    const sm: APIPodStatus = { phase: "Failed", containerStatuses: [] };
    const pod = mkPod("Never", ["a"], [], { phase: "Running" });
    expect(generateAPIPodStatus(pod, runtimeStatus([]), false, gdeps(22, sm)).phase).toBe("Pending");
    expect(generateAPIPodStatus(pod, runtimeStatus([]), false, gdeps(23, sm)).phase).toBe("Failed");
  });

  it("never moves out of a terminal phase the API server shows (#59767), in every release", () => {
    const pod = mkPod("Always", ["a"], [], { phase: "Succeeded" });
    for (const minor of [21, 22, 30]) expect(generateAPIPodStatus(pod, running1(), false, gdeps(minor)).phase).toBe("Succeeded");
  });

  it("an eviction returns at once in 1.21; from 1.22 it only overrides phase, reason and message", () => {
    const shouldEvict = () => ({ reason: "DeadlineExceeded", message: "Pod was active on the node longer than the specified deadline" });
    const old = generateAPIPodStatus(mkPod("Always", ["a"]), running1(), false, gdeps(21, undefined, { shouldEvict }));
    expect(old).toMatchObject({ phase: "Failed", reason: "DeadlineExceeded" });
    expect(old.conditions).toEqual([]);
    const now = generateAPIPodStatus(mkPod("Always", ["a"]), running1(), false, gdeps(22, undefined, { shouldEvict }));
    expect(now).toMatchObject({ phase: "Failed", reason: "DeadlineExceeded" });
    expect(now.conditions!.at(-1)).toEqual({ type: "PodScheduled", status: "True" });
  });

  it("podIsTerminal gives a deleted Always pod a terminal phase from 1.27", () => {
    const pod = mkPod("Always", ["a"]);
    const exited = runtimeStatus([rt("a", "exited", { exitCode: 0 })]);
    expect(generateAPIPodStatus(pod, exited, true, gdeps(26)).phase).toBe("Running");
    expect(generateAPIPodStatus(pod, exited, true, gdeps(27)).phase).toBe("Succeeded");
  });

  it("a created container is Failed-looking before 1.24 and Pending after (R07's created state in the API)", () => {
    const pod = mkPod("Never", ["a"]);
    const created = runtimeStatus([rt("a", "created", { exitCode: 128, reason: "StartError" })]);
    expect(generateAPIPodStatus(pod, created, false, gdeps(23)).phase).toBe("Failed");
    expect(generateAPIPodStatus(pod, created, false, gdeps(24)).phase).toBe("Pending");
  });
});

describe("generateAPIPodStatus: pod IPs, host IPs, QoS, resources, DisruptionTarget (fixes from oracle2)", () => {
  it("sortPodIPs puts the node IP's family first, keeps one IP per family and re-formats them", () => {
    expect(sortPodIPs(["fd01::1234", "10.0.0.1"])).toEqual(["10.0.0.1", "fd01::1234"]);
    expect(sortPodIPs(["10.0.0.1", "fd01::1234"], ["fd00::5678"])).toEqual(["fd01::1234", "10.0.0.1"]);
    expect(sortPodIPs(["10.0.0.1", "10.0.0.2", "FD01:0:0::1", "fd01::2"], ["192.168.1.1"])).toEqual(["10.0.0.1", "fd01::1"]);
    expect(sortPodIPs(["not-an-ip", "010.000.000.001"])).toEqual(["10.0.0.1"]);
    const s = generateAPIPodStatus(mkPod("Always", ["a"]), runtimeStatus([], { ips: ["fd01::1", "10.0.0.9"] }), false, gdeps(33, undefined, { nodeIPs: ["fd00::1"] }));
    expect(s.podIPs).toEqual([{ ip: "fd01::1" }, { ip: "10.0.0.9" }]);
    expect(s.podIP).toBe("fd01::1");
  });

  it("GetNodeHostIPs: InternalIP before ExternalIP, then the first IP of the other family", () => {
    expect(GetNodeHostIPs([{ type: "ExternalIP", address: "192.168.0.1" }, { type: "InternalIP", address: "10.0.0.1" }])).toEqual(["10.0.0.1"]);
    expect(GetNodeHostIPs([{ type: "InternalIP", address: "10.0.0.1" }, { type: "ExternalIP", address: "fd01::1234" }, { type: "InternalIP", address: "10.0.0.2" }])).toEqual(["10.0.0.1", "fd01::1234"]);
    expect(GetNodeHostIPs([{ type: "Hostname", address: "node" }])).toEqual([]);
  });

  it("hostIPs holds both families; a host-network pod's IPs are immutable once set, but gain the other family (≥1.29)", () => {
    const hostNet = (status: APIPodStatus = {}) => ({ ...mkPod("Always", ["a"], [], status), spec: { ...mkPod("Always", ["a"]).spec, hostNetwork: true } });
    const dual = ["10.0.0.1", "fd01::1"];
    const fresh = generateAPIPodStatus(hostNet(), runtimeStatus([]), false, gdeps(33, undefined, { hostIPs: dual }));
    expect(fresh.hostIPs).toEqual([{ ip: "10.0.0.1" }, { ip: "fd01::1" }]);
    expect(fresh.podIPs).toEqual([{ ip: "10.0.0.1" }, { ip: "fd01::1" }]);
    // The primary IP is kept (immutable); the node's other family is added as the secondary.
    const v4only = generateAPIPodStatus(hostNet(), runtimeStatus([], { ips: ["10.0.0.7"] }), false, gdeps(33, undefined, { hostIPs: dual }));
    expect(v4only.podIPs).toEqual([{ ip: "10.0.0.7" }, { ip: "fd01::1" }]);
    // No secondary of the same family as the primary.
    const v6 = generateAPIPodStatus(hostNet(), runtimeStatus([], { ips: ["fd01::7"] }), false, gdeps(33, undefined, { hostIPs: dual, nodeIPs: ["fd01::1"] }));
    expect(v6.podIPs).toEqual([{ ip: "fd01::7" }]);
    // Before 1.29 both node IPs were given at once, only while the pod had none.
    const old = generateAPIPodStatus(hostNet(), runtimeStatus([]), false, gdeps(28, undefined, { hostIPs: dual }));
    expect(old.podIPs).toEqual([{ ip: "10.0.0.1" }, { ip: "fd01::1" }]);
    expect(old.hostIPs).toBeUndefined();
  });

  it("status.qosClass is the pod's QoS class", () => {
    const pod = mkPod("Always", ["a"]);
    expect(generateAPIPodStatus(pod, runtimeStatus([]), false, gdeps(30)).qosClass).toBe("BestEffort");
    const guaranteed = { ...pod, spec: { ...pod.spec, containers: [{ name: "a", resources: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } } }] } };
    expect(generateAPIPodStatus(guaranteed, runtimeStatus([]), false, gdeps(30)).qosClass).toBe("Guaranteed");
  });

  it("from 1.33 a container seen in the runtime reports its resources (InPlacePodVerticalScaling)", () => {
    const pod = { ...mkPod("Always", ["a", "b"]), spec: { ...mkPod("Always", ["a", "b"]).spec, containers: [{ name: "a", resources: { requests: { cpu: "100m" } } }, { name: "b" }] } };
    const status = runtimeStatus([rt("a", "running"), rt("b", "running")]);
    const s33 = generateAPIPodStatus(pod, status, false, gdeps(33)).containerStatuses!;
    expect(s33.map((c) => [c.name, c["resources"], c["allocatedResources"]])).toEqual([
      ["a", { requests: { cpu: "100m" } }, { cpu: "100m" }],
      ["b", {}, undefined],
    ]);
    expect(generateAPIPodStatus(pod, status, false, gdeps(32)).containerStatuses!.map((c) => c["resources"])).toEqual([undefined, undefined]);
    // A container the runtime does not report gets none.
    expect(generateAPIPodStatus(pod, runtimeStatus([]), false, gdeps(33)).containerStatuses!.map((c) => c["resources"])).toEqual([undefined, undefined]);
  });

  it("DisruptionTarget is copied from the status manager's status from 1.26", () => {
    const dt = { type: "DisruptionTarget", status: "True" as const, reason: "TerminationByKubelet" };
    const sm: APIPodStatus = { conditions: [dt] };
    const s = generateAPIPodStatus(mkPod("Always", ["a"]), runtimeStatus([]), false, gdeps(33, sm));
    expect(s.conditions!.filter((c) => c.type === "DisruptionTarget")).toEqual([dt]);
    expect(generateAPIPodStatus(mkPod("Always", ["a"]), runtimeStatus([]), false, gdeps(25, sm)).conditions!.some((c) => c.type === "DisruptionTarget")).toBe(false);
  });
});
