// GeneratePodReadyCondition, GenerateContainersReadyCondition and GeneratePodInitializedCondition,
// after generate_test.go (TestGeneratePodReadyCondition) plus readiness gates, init containers,
// sidecars and the terminal-phase rule of #110256.
import { describe, expect, it } from "vitest";
import type { ContainerStatus, Pod, PodCondition, PodPhase } from "../../../src/k8s/pod.ts";
import {
  GenerateContainersReadyCondition,
  GeneratePodInitializedCondition,
  GeneratePodReadyCondition,
  type GenerateOptions,
} from "../../../src/kubelet/status/generate.ts";

const old: GenerateOptions = { sidecarContainers: false, terminalPhaseNotReady: false, initializedOnceRegularStarted: false };
const pod = (names: string[], extra: Partial<Pod["spec"]> = {}): Pod => ({ metadata: { name: "p" }, spec: { containers: names.map((name) => ({ name })), ...extra } });
const ready = (name: string, r = true): ContainerStatus => ({ name, ready: r });
const cond = (type: string, ok: boolean, reason?: string, message?: string): PodCondition => ({
  type,
  status: ok ? "True" : "False",
  ...(reason === undefined ? {} : { reason }),
  ...(message === undefined ? {} : { message }),
});

describe("GeneratePodReadyCondition (TestGeneratePodReadyCondition)", () => {
  const cases: { spec: Pod; statuses: ContainerStatus[] | undefined; phase: PodPhase; want: PodCondition }[] = [
    { spec: pod([]), statuses: undefined, phase: "Running", want: cond("Ready", false, "UnknownContainerStatuses") },
    { spec: pod([]), statuses: [], phase: "Running", want: cond("Ready", true) },
    { spec: pod(["1234"]), statuses: [], phase: "Running", want: cond("Ready", false, "ContainersNotReady", "containers with unknown status: [1234]") },
    { spec: pod(["1234", "5678"]), statuses: [ready("1234"), ready("5678")], phase: "Running", want: cond("Ready", true) },
    { spec: pod(["1234", "5678"]), statuses: [ready("1234")], phase: "Running", want: cond("Ready", false, "ContainersNotReady", "containers with unknown status: [5678]") },
    { spec: pod(["1234", "5678"]), statuses: [ready("1234"), ready("5678", false)], phase: "Running", want: cond("Ready", false, "ContainersNotReady", "containers with unready status: [5678]") },
    { spec: pod(["1234"]), statuses: [ready("1234", false)], phase: "Succeeded", want: cond("Ready", false, "PodCompleted") },
  ];
  cases.forEach((tc, i) => {
    it(`case ${i}`, () => expect(GeneratePodReadyCondition(tc.spec, [], tc.statuses, tc.phase, old)).toEqual(tc.want));
  });

  it("both unknown and unready containers are listed, unknown first", () => {
    const c = GenerateContainersReadyCondition(pod(["a", "b", "c"]), [ready("b", false)], "Running", old);
    expect(c.message).toBe("containers with unknown status: [a c], containers with unready status: [b]");
  });

  it("readiness gates must be True", () => {
    const p = pod(["a"], { readinessGates: [{ conditionType: "x/one" }, { conditionType: "x/two" }] } as Partial<Pod["spec"]>);
    const c = GeneratePodReadyCondition(p, [{ type: "x/one", status: "False" }], [ready("a")], "Running", old);
    expect(c).toEqual(
      cond("Ready", false, "ReadinessGatesNotReady", 'the status of pod readiness gate "x/one" is not "True", but False, corresponding condition of pod readiness gate "x/two" does not exist.'),
    );
  });

  it("from 1.25 a Failed pod is never ready (#110256)", () => {
    expect(GeneratePodReadyCondition(pod(["a"]), [], [ready("a")], "Failed", old).status).toBe("True");
    expect(GeneratePodReadyCondition(pod(["a"]), [], [ready("a")], "Failed", { ...old, terminalPhaseNotReady: true })).toEqual(cond("Ready", false, "PodFailed"));
  });

  it("with SidecarContainers, restartable init containers must be ready too", () => {
    const p = pod(["a"], { initContainers: [{ name: "side", restartPolicy: "Always" }, { name: "init" }] });
    const statuses = [ready("a"), ready("side", false)];
    expect(GenerateContainersReadyCondition(p, statuses, "Running", old).status).toBe("True");
    expect(GenerateContainersReadyCondition(p, statuses, "Running", { ...old, sidecarContainers: true }).message).toBe("containers with unready status: [side]");
  });
});

describe("GeneratePodInitializedCondition", () => {
  const p = pod(["a"], { initContainers: [{ name: "i1" }, { name: "i2" }] });
  it("unknown and incomplete init containers", () => {
    expect(GeneratePodInitializedCondition(p, undefined, "Pending", old)).toEqual(cond("Initialized", false, "UnknownContainerStatuses"));
    expect(GeneratePodInitializedCondition(p, [ready("i1")], "Pending", old)).toEqual(
      cond("Initialized", false, "ContainersNotInitialized", "containers with unknown status: [i2]"),
    );
    expect(GeneratePodInitializedCondition(p, [ready("i1"), ready("i2", false)], "Pending", old)).toEqual(
      cond("Initialized", false, "ContainersNotInitialized", "containers with incomplete status: [i2]"),
    );
    expect(GeneratePodInitializedCondition(p, [ready("i1"), ready("i2")], "Running", old)).toEqual(cond("Initialized", true));
    expect(GeneratePodInitializedCondition(p, [ready("i1", false), ready("i2", false)], "Succeeded", old)).toEqual(cond("Initialized", true, "PodCompleted"));
  });

  it("with SidecarContainers a started regular container means initialized, and a sidecar counts when started", () => {
    const sp = pod(["a"], { initContainers: [{ name: "side", restartPolicy: "Always" }] });
    const sc = { ...old, sidecarContainers: true, initializedOnceRegularStarted: true };
    expect(GeneratePodInitializedCondition(sp, [{ name: "side", started: true }], "Pending", sc).status).toBe("True");
    expect(GeneratePodInitializedCondition(sp, [{ name: "side", started: false }], "Pending", sc).status).toBe("False");
    expect(GeneratePodInitializedCondition(sp, [{ name: "side", started: false }, { name: "a", state: { running: {} } }], "Running", sc).status).toBe("True");
  });

  it("from 1.28 a started regular container means initialized whatever the gate (the check is not gated upstream)", () => {
    // A regular init container running again after a sandbox change, next to an app container that ran.
    const p = pod(["a"], { initContainers: [{ name: "init" }] });
    const statuses: ContainerStatus[] = [{ name: "init", ready: false }, { name: "a", state: { terminated: { exitCode: 0 } } }];
    const v128GateOff = { ...old, sidecarContainers: false, initializedOnceRegularStarted: true };
    expect(GeneratePodInitializedCondition(p, statuses, "Running", v128GateOff)).toEqual({ type: "Initialized", status: "True" });
    expect(GeneratePodInitializedCondition(p, statuses, "Running", old)).toEqual(
      cond("Initialized", false, "ContainersNotInitialized", "containers with incomplete status: [init]"),
    );
  });
});
