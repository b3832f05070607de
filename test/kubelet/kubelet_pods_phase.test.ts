// pkg/kubelet/kubelet_pods.go getPhase's podHasInitialized (#128516, v1.33.0): the 1.33 form of
// kubelet_pods_test.go's restartable-init tables, the release boundary, and generateAPIPodStatus
// reading it from the runtime's ActiveContainerStatuses.
import { describe, expect, it } from "vitest";
import type { Container, ContainerStatus, Pod } from "../../src/k8s/pod.ts";
import type { PodStatus, Status } from "../../src/kubelet/container/runtime.ts";
import { generateAPIPodStatus, getPhase, kubeletPodsEra } from "../../src/kubelet/kubelet_pods.ts";
import { ReasonCache } from "../../src/kubelet/reason_cache.ts";

// The state helpers of kubelet_pods_test.go.
const runningState = (name: string): ContainerStatus => ({ name, state: { running: {} } });
const startedState = (name: string): ContainerStatus => ({ ...runningState(name), started: true });
const succeededState = (name: string): ContainerStatus => ({ name, state: { terminated: { exitCode: 0 } } });
const stoppedState = succeededState;
const waitingState = (name: string): ContainerStatus => ({ name, state: { waiting: {} } });

function mkPod(containers: string[], init: (string | [string, "Always"])[]): Pod {
  const initContainers: Container[] = init.map((x) => (typeof x === "string" ? { name: x } : { name: x[0], restartPolicy: "Always" }));
  return {
    metadata: { name: "my-pod", namespace: "default", uid: "uid-1" },
    spec: { containers: containers.map((name) => ({ name })), initContainers, restartPolicy: "Always" },
  };
}

const X = ["containerX", "Always"] as [string, "Always"];
const v133 = kubeletPodsEra("1.33.0");

describe("getPhase with podHasInitialized (1.33 form of TestPodPhaseWithRestartAlways*RestartableInitContainers)", () => {
  const AB = ["containerA", "containerB"];
  const rows: [string, (string | [string, "Always"])[], ContainerStatus[], boolean, string][] = [
    // name, init containers, statuses, podHasInitialized, phase
    ["restartable init container running, all regular containers running", [X], [runningState("containerX"), runningState("containerA"), runningState("containerB")], true, "Running"],
    ["re-initializing the pod after the sandbox is recreated", [X], [runningState("containerX"), runningState("containerA"), runningState("containerB")], false, "Pending"],
    ["restartable init container started, not yet any regular container", [X], [startedState("containerX")], false, "Pending"],
    ["restartable init container started, regular containers running", [X], [startedState("containerX"), runningState("containerA"), runningState("containerB")], false, "Running"],
    ["restartable init container waiting, regular containers have run in this sandbox", [X], [waitingState("containerX"), runningState("containerA"), runningState("containerB")], true, "Pending"],
    ["regular init container is succeeded, restartable init container is running, regular containers is stopped", ["containerX", ["containerY", "Always"]], [succeededState("containerX"), runningState("containerY"), stoppedState("containerA")], true, "Running"],
    ["the same after a sandbox re-creation: the app ran in the old sandbox only", ["containerX", ["containerY", "Always"]], [succeededState("containerX"), runningState("containerY"), stoppedState("containerA")], false, "Pending"],
    // #126653's split stays: a running regular init container is Pending whatever the argument says.
    ["regular init container running, the pod has initialized", ["containerX", ["containerY", "Always"]], [runningState("containerX"), runningState("containerY"), runningState("containerA")], true, "Pending"],
  ];
  it.each(rows)("%s", (_name, init, info, podHasInitialized, phase) => {
    const containers = init.some((c) => c === "containerX") ? ["containerA"] : AB;
    expect(getPhase(mkPod(containers, init), info, false, v133, podHasInitialized)).toBe(phase);
  });

  it("the 1.33 form needs the argument: getPhase throws without it", () => {
    expect(() => getPhase(mkPod(["a"], [X]), [runningState("containerX")], false, v133)).toThrow(/podHasInitialized/);
  });
});

describe("the release boundary of #128516: 1.33.0", () => {
  // A node reboot: the sidecar runs again (not yet started) in the new sandbox; the app exited in
  // the old one. The deprecated guard sees the app's terminated status and says Running.
  const pod = mkPod(["containerA"], [X]);
  const info = [runningState("containerX"), stoppedState("containerA")];

  it.each([
    ["1.28", "Running"],
    ["1.32", "Running"],
    ["1.32.13", "Running"],
    ["1.33.0", "Pending"],
    ["1.33.5", "Pending"],
    ["1.35", "Pending"],
  ])("%s: %s", (version, phase) => {
    const era = kubeletPodsEra(version);
    expect(era.podHasInitializedArg).toBe(phase === "Pending");
    // The caller's answer when no app container exists in the new sandbox; earlier releases ignore it.
    expect(getPhase(pod, info, false, era, false)).toBe(phase);
  });
});

describe("generateAPIPodStatus passes HasAnyActiveRegularContainerStarted(&pod.Spec, podStatus) from 1.33", () => {
  const status = (name: string, state: Status["state"], id: string, createdAtMs: number): Status => ({
    id: { type: "containerd", id }, name, state, createdAtMs, startedAtMs: createdAtMs, exitCode: 0, image: "", imageID: "", hash: 0, restartCount: 0, reason: "", message: "",
    ...(state === "exited" ? { finishedAtMs: createdAtMs + 1 } : {}),
  });
  const sandbox = (id: string, state: "SANDBOX_READY" | "SANDBOX_NOTREADY", attempt: number) => ({
    id, metadata: { name: "my-pod", uid: "uid-1", namespace: "default", attempt }, state, createdAtMs: attempt * 1000, network: { ip: "10.0.0.5" },
  });
  const oldApp = status("containerA", "exited", "a-0", 100);
  const newSidecar = status("containerX", "running", "x-1", 2000);
  /** After a reboot: sandbox s-1 ready with the sidecar running again; the app exited in s-0. */
  const rebooted = (active: Status[] | undefined): PodStatus => ({
    id: "uid-1", name: "my-pod", namespace: "default", ips: ["10.0.0.5"],
    containerStatuses: [newSidecar, oldApp], sandboxStatuses: [sandbox("s-1", "SANDBOX_READY", 1), sandbox("s-0", "SANDBOX_NOTREADY", 0)],
    ...(active === undefined ? {} : { activeContainerStatuses: active }),
  });
  const phaseAt = (version: string, podStatus: PodStatus) =>
    generateAPIPodStatus(mkPod(["containerA"], [X]), podStatus, false, { era: kubeletPodsEra(version), reasonCache: new ReasonCache(), statusManagerPodStatus: () => undefined }).phase;

  it.each([
    // version, ActiveContainerStatuses (as GetPodStatus gives them at that version), phase
    ["1.32.13", undefined, "Running"],
    ["1.33.0", [newSidecar], "Pending"],
    ["1.33.0", [status("containerA", "created", "a-1", 3000), newSidecar], "Running"],
    // Evented PLEG's GeneratePodStatus leaves the list nil: the pod reads as not initialized.
    ["1.33.0", undefined, "Pending"],
  ] as const)("%s, active %j: %s", (version, active, phase) => {
    expect(phaseAt(version, rebooted(active === undefined ? undefined : [...active]))).toBe(phase);
  });
});
