// The status manager's cache: versions, equal statuses skipped, transition and start times,
// SetContainerReadiness/Startup, TerminatePod per release. After status_manager_test.go
// (TestNewStatus*, TestChangedStatus*, TestUnchangedStatus*, TestSetContainerReadiness,
// TestSetContainerStartup, TestTerminatePod*).
import { describe, expect, it } from "vitest";
import type { ContainerStatus, Pod, PodStatus } from "../../../src/k8s/pod.ts";
import { sleep } from "../../../src/sim/index.ts";
import { StatusManager } from "../../../src/kubelet/status/status_manager.ts";
import { podManagerWithoutStaticPods } from "../../../src/kubelet/status/interfaces.ts";
import { formatRFC3339 } from "../../../src/kubelet/status/metatime.ts";
import { FakeDeletionSafety, getTestPod, newSim, records } from "./fakes.ts";

function manager(minor: number, pods: Pod[] = [getTestPod()]) {
  const { sim, sink } = newSim();
  const byUID = new Map(pods.map((p) => [p.metadata.uid!, p]));
  const sm = new StatusManager(sim, { kubeClient: null, podManager: podManagerWithoutStaticPods((u) => byUID.get(u)), podDeletionSafety: new FakeDeletionSafety(), version: minor });
  return { sim, sink, sm, byUID };
}

const randomish = (n: number): PodStatus => ({ message: `message-${n}` });

describe("SetPodStatus: versions and equality", () => {
  it("a new status gets version 1 and a start time (TestNewStatus)", () => {
    const { sm, sink } = manager(21);
    sm.SetPodStatus(getTestPod(), randomish(1));
    expect(sm.podStatuses.get("12345678")!.version).toBe(1);
    expect(sm.GetPodStatus("12345678")!.startTime).toBe(formatRFC3339(0));
    expect(sm.podStatusChannel.length).toBe(1);
    expect(records(sink, "status", "SetPodStatus")).toMatchObject([{ pod: "new/foo", uid: "12345678", version: 1 }]);
  });

  it("keeps the pod's own start time (TestNewStatusPreservesPodStartTime)", () => {
    const { sm } = manager(21);
    const pod = { ...getTestPod(), status: { startTime: "2024-12-31T23:59:00Z" } };
    sm.SetPodStatus(pod, randomish(1));
    expect(sm.GetPodStatus("12345678")!.startTime).toBe("2024-12-31T23:59:00Z");
  });

  it("a changed status bumps the version; an equal one is skipped (TestChangedStatus, TestUnchangedStatus)", () => {
    const { sm } = manager(21);
    const pod = getTestPod();
    sm.SetPodStatus(pod, randomish(1));
    sm.SetPodStatus(pod, randomish(1));
    expect(sm.podStatuses.get("12345678")!.version).toBe(1);
    expect(sm.podStatusChannel.length).toBe(1);
    sm.SetPodStatus(pod, randomish(2));
    expect(sm.podStatuses.get("12345678")!.version).toBe(2);
    expect(sm.podStatusChannel.length).toBe(2);
  });

  it("the start time never changes once set (TestChangedStatusKeepsStartTime)", () => {
    const { sm } = manager(21);
    sm.SetPodStatus(getTestPod(), { ...randomish(1), startTime: "2025-01-01T00:00:00.600Z" });
    sm.SetPodStatus(getTestPod(), { ...randomish(2), startTime: "2025-01-01T00:05:00Z" });
    expect(sm.GetPodStatus("12345678")!.startTime).toBe("2025-01-01T00:00:00Z");
  });

  it("versions only grow, one per accepted change, however many changes come", () => {
    const { sm } = manager(29);
    const seen: number[] = [];
    for (let i = 0; i < 50; i++) {
      sm.SetPodStatus(getTestPod(), randomish(i % 7 === 0 ? 0 : i));
      seen.push(sm.podStatuses.get("12345678")!.version);
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(new Set(seen).size).toBe(seen[seen.length - 1]);
  });

  it("a deleted pod's update is forced even when equal (SetPodStatus forceUpdate)", () => {
    const { sm } = manager(21);
    const pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, deletionTimestamp: "2025-01-01T00:00:00Z" } };
    sm.SetPodStatus(pod, randomish(1));
    sm.SetPodStatus(pod, randomish(1));
    expect(sm.podStatuses.get("12345678")!.version).toBe(2);
  });

  it("the status handed in is copied and the cached one is frozen", () => {
    const { sm } = manager(21);
    const status: PodStatus = randomish(1);
    sm.SetPodStatus(getTestPod(), status);
    status.message = "mutated";
    expect(sm.GetPodStatus("12345678")!.message).toBe("message-1");
    expect(Object.isFrozen(sm.GetPodStatus("12345678"))).toBe(true);
  });
});

describe("LastTransitionTime changes only when the condition's status changes", () => {
  it("set at first, kept while True, renewed on False (TestChangedStatusUpdatesLastTransitionTime, TestUnchangedStatusPreservesLastTransitionTime)", () => {
    const { sim, sm } = manager(21);
    const pod = getTestPod();
    const seen: (string | null | undefined)[] = [];
    const ready = (s: "True" | "False", msg: string): PodStatus => ({ message: msg, conditions: [{ type: "Ready", status: s }] });
    sim.go("test", function* () {
      sm.SetPodStatus(pod, ready("True", "a"));
      seen.push(sm.GetPodStatus("12345678")!.conditions![0]!.lastTransitionTime);
      yield* sleep(7_000);
      sm.SetPodStatus(pod, ready("True", "b"));
      seen.push(sm.GetPodStatus("12345678")!.conditions![0]!.lastTransitionTime);
      yield* sleep(5_000);
      sm.SetPodStatus(pod, ready("False", "c"));
      seen.push(sm.GetPodStatus("12345678")!.conditions![0]!.lastTransitionTime);
    });
    sim.run();
    expect(seen).toEqual([formatRFC3339(0), formatRFC3339(0), formatRFC3339(12_000)]);
  });
});

describe("SetContainerReadiness with a sidecar (≥1.28, KEP-753)", () => {
  // A ready sidecar and an app that becomes ready: the conditions are computed over init and
  // regular statuses together, so the sidecar counts as ready, not as "unknown status".
  const pod: Pod = {
    metadata: { uid: "12345678", name: "foo", namespace: "new" },
    spec: { initContainers: [{ name: "sc", restartPolicy: "Always" }], containers: [{ name: "app" }] },
  };
  const status = (): PodStatus => ({
    phase: "Running",
    initContainerStatuses: [{ name: "sc", containerID: "test://sc", ready: true, started: true, state: { running: {} } }],
    containerStatuses: [{ name: "app", containerID: "test://app", ready: false, state: { running: {} } }],
    conditions: [{ type: "Ready", status: "False" }],
  });
  const ready = (minor: number) => {
    const { sim } = newSim();
    const sm = new StatusManager(sim, {
      kubeClient: null, podManager: podManagerWithoutStaticPods((u) => (u === "12345678" ? pod : undefined)),
      podDeletionSafety: new FakeDeletionSafety(), version: minor, sidecarContainers: true,
    });
    sm.SetPodStatus(pod, status());
    sm.SetContainerReadiness("12345678", "test://app", true);
    return sm.GetPodStatus("12345678")!.conditions!.find((c) => c.type === "Ready")!;
  };

  it("1.29 (SidecarContainers on): Ready once the app is ready; the ready sidecar counts", () => {
    expect(ready(29)).toMatchObject({ type: "Ready", status: "True" });
  });
});

describe("SetContainerReadiness (TestSetContainerReadiness)", () => {
  const status = (): PodStatus => ({
    containerStatuses: [
      { name: "c1", containerID: "test://1", ready: false },
      { name: "c2", containerID: "test://2", ready: false },
    ],
    conditions: [{ type: "Ready", status: "False" }],
  });
  const pod: Pod = { metadata: { uid: "12345678", name: "foo", namespace: "new" }, spec: { containers: [{ name: "c1" }, { name: "c2" }] } };
  const readiness = (s: PodStatus) => [
    ...s.containerStatuses!.map((c) => c.ready === true),
    s.conditions!.find((c) => c.type === "Ready")!.status === "True",
  ];

  it("follows the upstream steps", () => {
    const { sm, sink } = manager(21, [pod]);
    sm.SetContainerReadiness("12345678", "test://1", true);
    expect(sm.GetPodStatus("12345678")).toBeUndefined();
    expect(records(sink, "status", "SetContainerIgnored")).toHaveLength(1);
    sm.SetPodStatus(pod, status());
    expect(readiness(sm.GetPodStatus("12345678")!)).toEqual([false, false, false]);
    sm.SetContainerReadiness("12345678", "test://1", false);
    expect(sm.podStatuses.get("12345678")!.version).toBe(1);
    sm.SetContainerReadiness("12345678", "test://1", true);
    expect(sm.podStatuses.get("12345678")!.version).toBe(2);
    expect(readiness(sm.GetPodStatus("12345678")!)).toEqual([true, false, false]);
    sm.SetContainerReadiness("12345678", "test://2", true);
    expect(readiness(sm.GetPodStatus("12345678")!)).toEqual([true, true, true]);
    const cr = sm.GetPodStatus("12345678")!.conditions!.find((c) => c.type === "ContainersReady");
    expect(cr?.status).toBe("True");
    sm.SetContainerReadiness("12345678", "test://foo", true);
    expect(sm.podStatuses.get("12345678")!.version).toBe(3);
  });

  it("a pod the pod manager does not know is ignored", () => {
    const { sm } = manager(21, []);
    sm.SetPodStatus(pod, status());
    sm.SetContainerReadiness("12345678", "test://1", true);
    expect(sm.podStatuses.get("12345678")!.version).toBe(1);
  });
});

describe("SetContainerStartup (TestSetContainerStartup)", () => {
  const pod: Pod = { metadata: { uid: "12345678", name: "foo", namespace: "new" }, spec: { containers: [{ name: "c1" }, { name: "c2" }] } };
  it("nil → false counts as a change; then true", () => {
    const { sm } = manager(21, [pod]);
    sm.SetPodStatus(pod, { containerStatuses: [{ name: "c1", containerID: "test://1" }, { name: "c2", containerID: "test://2" }] });
    sm.SetContainerStartup("12345678", "test://1", false);
    expect(sm.podStatuses.get("12345678")!.version).toBe(2);
    sm.SetContainerStartup("12345678", "test://1", false);
    expect(sm.podStatuses.get("12345678")!.version).toBe(2);
    sm.SetContainerStartup("12345678", "test://1", true);
    sm.SetContainerStartup("12345678", "test://2", true);
    expect(sm.GetPodStatus("12345678")!.containerStatuses!.map((c) => c.started)).toEqual([true, true]);
    expect(sm.podStatuses.get("12345678")!.version).toBe(4);
  });
});

describe("updateStatusInternal refuses illegal transitions", () => {
  it("restartPolicy Never: a terminated container never goes back to waiting (R13)", () => {
    const { sm, sink } = manager(21);
    const pod: Pod = { ...getTestPod(), spec: { restartPolicy: "Never", containers: [{ name: "c" }] } };
    sm.SetPodStatus(pod, { phase: "Failed", containerStatuses: [{ name: "c", state: { terminated: { exitCode: 2 } } }] });
    sm.SetPodStatus(pod, { phase: "Pending", containerStatuses: [{ name: "c", state: { waiting: { reason: "ContainerCreating" } } }] });
    expect(sm.GetPodStatus("12345678")!.phase).toBe("Failed");
    expect(records(sink, "status", "StatusUpdateAborted")).toHaveLength(1);
  });
});

describe("TerminatePod", () => {
  const unknown = { terminated: { reason: "ContainerStatusUnknown", message: "The container could not be located when the pod was terminated", exitCode: 137 } };
  const firstStatus = (third: ContainerStatus["state"]): PodStatus => ({
    message: "first",
    phase: "Failed",
    initContainerStatuses: [
      { name: "init-test-1" },
      { name: "init-test-2", state: { terminated: { reason: "InitTest", exitCode: 0 } } },
      { name: "init-test-3", state: third },
    ],
    containerStatuses: [
      { name: "test-1" },
      { name: "test-2", state: { terminated: { reason: "Test", exitCode: 2 } } },
      { name: "test-3", state: third === undefined ? undefined : "waiting" in third ? { waiting: { reason: "Test" } } : { terminated: { reason: "Test", exitCode: 0 } } },
    ],
  });

  it("defaults running and unknown containers, keeps terminated ones and the phase (TestTerminatePod)", () => {
    for (const minor of [21, 23, 29]) {
      const { sm } = manager(minor);
      const pod = getTestPod();
      sm.SetPodStatus(pod, firstStatus({ terminated: { reason: "InitTest", exitCode: 3 } }));
      sm.TerminatePod({ ...pod, status: { phase: "Running", message: "stale" } });
      const s = sm.GetPodStatus("12345678")!;
      expect(s.initContainerStatuses!.map((c) => c.state)).toEqual([unknown, { terminated: { reason: "InitTest", exitCode: 0 } }, { terminated: { reason: "InitTest", exitCode: 3 } }]);
      expect(s.containerStatuses!.map((c) => c.state)).toEqual([unknown, { terminated: { reason: "Test", exitCode: 2 } }, { terminated: { reason: "Test", exitCode: 0 } }]);
      expect([s.phase, s.message]).toEqual(["Failed", "first"]);
    }
  });

  it("waiting containers: left alone ≤1.21, defaulted in 1.22–1.23, by initialization evidence from 1.24 (TestTerminatePodWaiting)", () => {
    const states = (minor: number) => {
      const { sm } = manager(minor);
      sm.SetPodStatus(getTestPod(), firstStatus({ waiting: { reason: "InitTest" } }));
      sm.TerminatePod({ ...getTestPod(), status: { phase: "Running" } });
      const s = sm.GetPodStatus("12345678")!;
      return { init3: s.initContainerStatuses![2]!.state, test3: s.containerStatuses![2]!.state };
    };
    expect(states(21)).toEqual({ init3: { waiting: { reason: "InitTest" } }, test3: { waiting: { reason: "Test" } } });
    expect(states(22)).toEqual({ init3: unknown, test3: unknown });
    expect(states(29)).toEqual({ init3: { waiting: { reason: "InitTest" } }, test3: unknown });
  });

  it("from 1.27 a non-terminal phase becomes Failed (TestTerminatePod_EnsurePodPhaseIsTerminal)", () => {
    const cases: [string, string][] = [["Pending", "Failed"], ["Running", "Failed"], ["Succeeded", "Succeeded"], ["Failed", "Failed"], ["Unknown", "Failed"]];
    for (const [from, want] of cases) {
      const { sm } = manager(27);
      sm.TerminatePod({ ...getTestPod(), status: { phase: from as PodStatus["phase"] } });
      expect(sm.GetPodStatus("12345678")!.phase).toBe(want);
      expect(sm.podStatuses.get("12345678")!.podIsFinished).toBe(true);
    }
    const { sm } = manager(26);
    sm.TerminatePod({ ...getTestPod(), status: { phase: "Running" } });
    expect(sm.GetPodStatus("12345678")!.phase).toBe("Running");
  });

  it("uninitialized pods default only the init containers that could have started (TestTerminatePod_DefaultUnknownStatus)", () => {
    const newPod = (inits: number, status: PodStatus): Pod => ({
      metadata: { uid: "12345678", name: "foo", namespace: "new" },
      spec: {
        restartPolicy: "Never",
        initContainers: Array.from({ length: inits }, (_, i) => ({ name: `init-${i}` })),
        containers: [{ name: "0" }],
      },
      status: { startTime: "2025-01-01T00:00:01Z", phase: "Running", ...status },
    });
    const W = { waiting: {} };
    const kinds = (s: PodStatus) => [...(s.initContainerStatuses ?? []), ...(s.containerStatuses ?? [])].map((c) =>
      c.state?.terminated?.reason === "ContainerStatusUnknown" ? "U" : c.state?.terminated !== undefined ? `T${c.state.terminated.exitCode}` : c.state?.waiting !== undefined ? "W" : "R",
    );
    const cases: { name: string; pod: Pod; want: string[] }[] = [
      { name: "no previous state", pod: newPod(0, { containerStatuses: [{ name: "0", state: W }] }), want: ["U"] },
      { name: "uninitialized pod defaults the first init container", pod: newPod(1, { initContainerStatuses: [{ name: "init-0", state: W }], containerStatuses: [{ name: "0", state: W }] }), want: ["U", "W"] },
      {
        name: "uninitialized pod defaults only the first init container",
        pod: newPod(2, { initContainerStatuses: [{ name: "init-0", state: W }, { name: "init-1", state: W }], containerStatuses: [{ name: "0", state: W }] }),
        want: ["U", "W", "W"],
      },
      {
        name: "uninitialized pod defaults gaps",
        pod: newPod(4, {
          initContainerStatuses: [{ name: "init-0", state: W }, { name: "init-1", state: W }, { name: "init-2", state: { terminated: { exitCode: 1 } } }, { name: "init-3", state: W }],
          containerStatuses: [{ name: "0", state: W }],
        }),
        want: ["U", "U", "T1", "W", "W"],
      },
      {
        name: "successful last container is initialized",
        pod: newPod(3, {
          initContainerStatuses: [{ name: "init-0", state: W }, { name: "init-1", state: W }, { name: "init-2", state: { terminated: { exitCode: 0 } } }],
          containerStatuses: [{ name: "0", state: W }],
        }),
        want: ["U", "U", "T0", "U"],
      },
      {
        name: "running container proves initialization",
        pod: newPod(1, { initContainerStatuses: [{ name: "init-0", state: W }], containerStatuses: [{ name: "0", state: { running: {} } }] }),
        want: ["U", "U"],
      },
      {
        name: "evidence of previously terminated container proves initialization",
        pod: newPod(1, { initContainerStatuses: [{ name: "init-0", state: W }], containerStatuses: [{ name: "0", lastState: { terminated: { exitCode: 0 } } }] }),
        want: ["U", "U"],
      },
    ];
    for (const tc of cases) {
      const { sm } = manager(29, [tc.pod]);
      sm.SetPodStatus(tc.pod, tc.pod.status!);
      sm.TerminatePod(structuredClone(tc.pod));
      expect(kinds(sm.GetPodStatus("12345678")!), tc.name).toEqual(tc.want);
    }
  });
});

describe("RemoveOrphanedStatuses", () => {
  it("drops statuses of pods not in the set", () => {
    const { sm, sink } = manager(21);
    sm.SetPodStatus(getTestPod(), randomish(1));
    sm.SetPodStatus(getTestPod({ uid: "other", name: "bar" }), randomish(1));
    sm.RemoveOrphanedStatuses(new Set(["other"]));
    expect([...sm.podStatuses.keys()]).toEqual(["other"]);
    expect(records(sink, "status", "RemoveOrphanedStatuses")).toMatchObject([{ uids: ["12345678"] }]);
  });
});
