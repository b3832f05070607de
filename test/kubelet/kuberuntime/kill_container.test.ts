import { describe, expect, it } from "vitest";
import type { Container, Pod } from "../../../src/k8s/pod.ts";
import {
  killContainerGrace,
  killContainerMessage,
  minimumGracePeriodInSeconds,
  setTerminationGracePeriod,
} from "../../../src/kubelet/kuberuntime/kill_container.ts";
import type { ContainerKillReason } from "../../../src/kubelet/kuberuntime/pod_actions.ts";

function pod(terminationGracePeriodSeconds: number | undefined, deletionGracePeriodSeconds?: number): Pod {
  return {
    metadata: { name: "p", namespace: "default", ...(deletionGracePeriodSeconds !== undefined ? { deletionGracePeriodSeconds } : {}) },
    spec: { containers: [], ...(terminationGracePeriodSeconds !== undefined ? { terminationGracePeriodSeconds } : {}) },
  };
}

const probed: Container = {
  name: "app",
  livenessProbe: { terminationGracePeriodSeconds: 5 },
  startupProbe: { terminationGracePeriodSeconds: 90 },
};

describe("setTerminationGracePeriod (TestKillContainerGracePeriod-style table)", () => {
  it.each<[string, Pod, Container, ContainerKillReason, number]>([
    ["pod grace period", pod(30), { name: "app" }, "", 30],
    ["deletion grace period wins over everything", pod(30, 7), probed, "LivenessProbe", 7],
    ["liveness kill uses the probe-level value", pod(30), probed, "LivenessProbe", 5],
    ["startup kill uses the probe-level value, even above the pod's", pod(30), probed, "StartupProbe", 90],
    ["a spec-change kill ignores probe-level values", pod(30), probed, "", 30],
    ["probe without its own value falls back to the pod's", pod(30), { name: "app", livenessProbe: {} }, "LivenessProbe", 30],
    ["an unset pod value gives the 2 s minimum", pod(undefined), { name: "app" }, "", minimumGracePeriodInSeconds],
    ["zero is a value, not unset", pod(0), { name: "app" }, "", 0],
  ])("%s", (_name, p, c, reason, want) => {
    expect(setTerminationGracePeriod(p, c, reason)).toBe(want);
  });
});

describe("killContainerGrace: preStop consumes grace, at least 2 s remain", () => {
  const preStop: Container = { name: "app", lifecycle: { preStop: { exec: { command: ["sleep", "5"] } } } };
  it.each<[string, Partial<Parameters<typeof killContainerGrace>[0]>, Container, Partial<ReturnType<typeof killContainerGrace>>]>([
    ["no hook: the whole period", {}, { name: "app" }, { runPreStop: false, stopGracePeriodSeconds: 30 }],
    ["hook took 12.9 s: 12 s (truncated) are used", { preStopElapsedMs: 12_900 }, preStop, { runPreStop: true, stopGracePeriodSeconds: 18 }],
    ["hook used all of it: the 2 s minimum", { preStopElapsedMs: 30_000 }, preStop, { stopGracePeriodSeconds: 2 }],
    ["override 0 skips the hook, minimum applies", { gracePeriodOverride: 0 }, preStop, { runPreStop: false, gracePeriodSeconds: 0, stopGracePeriodSeconds: 2 }],
    ["override replaces the pod's value", { gracePeriodOverride: 10, preStopElapsedMs: 4_000 }, preStop, { gracePeriodSeconds: 10, stopGracePeriodSeconds: 6 }],
    ["sidecar ordering wait is subtracted too", { preStopElapsedMs: 5_000, orderingWaitMs: 10_500 }, preStop, { stopGracePeriodSeconds: 15 }],
    ["preStop timeout is the grace period", {}, preStop, { preStopTimeoutMs: 30_000 }],
  ])("%s", (_name, extra, c, want) => {
    expect(killContainerGrace({ pod: pod(30), containerSpec: c, reason: "", ...extra })).toMatchObject(want);
  });
});

describe("killContainerMessage", () => {
  it("defaults to Stopping container <name>", () => {
    expect(killContainerMessage({ name: "app" }, "")).toBe("Stopping container app");
    expect(killContainerMessage({ name: "app" }, "Container app failed liveness probe")).toBe("Container app failed liveness probe");
  });
});
