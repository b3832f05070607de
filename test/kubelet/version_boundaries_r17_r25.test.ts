// The release boundaries of races R17-R25, read from the fix PRs' merges and the release branches'
// CHANGELOGs: KEP-4781's restart preservation from 1.35.0 (ChangeContainerStatusOnKubeletRestart off
// by default), the sidecar startup seeding in 1.35.4 (#137885), kuberuntime's sidecar code gated in
// 1.28.2 (#120440) and exited containers no proof of initialization from 1.29.0 (#120269), the
// sidecar termination ordering from 1.29.0 (#120620) and its fix in 1.29.8, 1.30.4, 1.31.0
// (#125935), and housekeeping driving orphaned pod workers from 1.27.0 (#113145).
import { describe, expect, it } from "vitest";
import { proberEra } from "../../src/kubelet/prober/era.ts";
import { kubeletPodsEra } from "../../src/kubelet/kubelet_pods.ts";
import { sidecarCodeGates, terminationOrderingEra } from "../../src/kubelet/kuberuntime/kuberuntime_manager_sync.ts";
import { computeInitContainerActions } from "../../src/kubelet/kuberuntime/kuberuntime_container.ts";
import { noProbeResults, type PodActions } from "../../src/kubelet/kuberuntime/pod_actions.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import type { PodStatus, Status } from "../../src/kubelet/container/runtime.ts";

describe("Started and Ready kept over a kubelet restart (KEP-4781, 1.35.0)", () => {
  it.each([
    ["1.34", false],
    ["1.34.9", false],
    ["1.35", true],
  ] as const)("%s: %s", (v, want) => {
    expect(proberEra(v).preserveStatusOnKubeletRestart).toBe(want);
    expect(kubeletPodsEra(v).startedInheritedByName).toBe(want);
  });
});

describe("a started sidecar's startup result seeded after a kubelet restart (#137146, 1.35.4)", () => {
  it("from 1.35.4, not in 1.35.0-1.35.3", () => {
    expect(["1.35", "1.35.3", "1.35.4"].map((v) => proberEra(v).seedsStartedSidecarOnRestart)).toEqual([false, false, true]);
  });
});

describe("kuberuntime's sidecar code behind the gate (#120281, cherry-pick #120440 in 1.28.2)", () => {
  it.each([
    ["1.27", false, false],
    ["1.28", false, true],
    ["1.28.1", false, true],
    ["1.28.2", false, false],
    ["1.29", false, false],
    ["1.29", true, true],
  ] as const)("%s, gate %s: sidecar code %s", (v, gate, want) => {
    expect(sidecarCodeGates({ SidecarContainers: gate }, v).SidecarContainers).toBe(want);
  });
});

describe("an exited regular container is no proof of initialization from 1.29.0 (#120269)", () => {
  const pod = { metadata: { name: "web", uid: "u" }, spec: { initContainers: [{ name: "init-1" }, { name: "init-2" }], containers: [{ name: "app" }] } } as unknown as Pod;
  const app = { name: "app", state: "exited", exitCode: 255, id: { type: "containerd", id: "c-3" }, createdAtMs: 1 } as unknown as Status;
  const status = { id: "u", name: "web", namespace: "default", containerStatuses: [app], sandboxStatuses: [] } as unknown as PodStatus;
  const changes = (): PodActions => ({ KillPod: false, CreateSandbox: false, SandboxID: "s", Attempt: 1, NextInitContainerToStart: null, InitContainersToStart: null, ContainersToStart: [], ContainersToKill: new Map(), EphemeralContainersToStart: null });
  const initialized = (version: string) =>
    computeInitContainerActions(pod, status, changes(), { livenessManager: noProbeResults, startupManager: noProbeResults, features: { SidecarContainers: true }, version });

  it("1.28.1 takes the old sandbox's exited app for initialization; 1.29.0 does not", () => {
    expect(initialized("1.28.1")).toBe(true);
    expect(initialized("1.29")).toBe(false);
  });
});

describe("sidecar termination ordering (#120620 in 1.29.0; #125935 in 1.31.0, 1.30.4, 1.29.8)", () => {
  it.each([
    ["1.28", "none"],
    ["1.29", "waitsForNotStarted"],
    ["1.29.7", "waitsForNotStarted"],
    ["1.29.8", "ignoresNotStarted"],
    ["1.30.3", "waitsForNotStarted"],
    ["1.30.4", "ignoresNotStarted"],
    ["1.31", "ignoresNotStarted"],
  ] as const)("%s: %s", (v, want) => {
    expect(terminationOrderingEra({ SidecarContainers: true }, v)).toBe(want);
  });

  it("none without the gate", () => {
    expect(terminationOrderingEra({ SidecarContainers: false }, "1.30")).toBe("none");
  });
});
