import { describe, expect, it } from "vitest";
import type { Pod } from "../../../src/k8s/pod.ts";
import type { PodStatus } from "../../../src/kubelet/container/runtime.ts";
import { doBackOff } from "../../../src/kubelet/kuberuntime/kuberuntime_backoff.ts";
import { newContainerRestartBackOff } from "../../../src/kubelet/util/backoff.ts";
import { makeStatus } from "./fixtures.ts";

const pod: Pod = { metadata: { name: "web", namespace: "default", uid: "u1" }, spec: { containers: [{ name: "app", image: "x:1" }] } };
const app = pod.spec.containers[0]!;

function statusExitedAt(finishedAtMs: number | undefined): PodStatus {
  const exited = makeStatus("c1", "app", "exited", 0, { exitCode: 1, ...(finishedAtMs !== undefined ? { finishedAtMs } : {}) });
  return { id: "u1", name: "web", namespace: "default", ips: [], sandboxStatuses: [], containerStatuses: [exited] };
}

describe("doBackOff", () => {
  it("never-exited containers start at once and touch no backoff entry", () => {
    const clock = { nowMs: () => 0 };
    const b = newContainerRestartBackOff(clock);
    const running: PodStatus = { ...statusExitedAt(0), containerStatuses: [makeStatus("c1", "app", "running", 0)] };
    expect(doBackOff(pod, app, running, b)).toMatchObject({ isInBackOff: false, err: null });
    expect(b.hasEntry(doBackOff(pod, app, running, b).key)).toBe(false);
  });

  it("a crash-looping container restarts 0, 10, 20, 40, 80, 160, 300, 300 s after each exit", () => {
    let nowMs = 0;
    const b = newContainerRestartBackOff({ nowMs: () => nowMs });
    const delays: number[] = [];
    let exitMs = 0;
    for (let crash = 0; crash < 8; crash++) {
      // The container exits at exitMs; the kubelet retries every second until it may start it.
      nowMs = exitMs;
      while (doBackOff(pod, app, statusExitedAt(exitMs), b).isInBackOff) nowMs += 1000;
      delays.push((nowMs - exitMs) / 1000);
      exitMs = nowMs + 5_000; // it runs 5 s and crashes again
    }
    expect(delays).toEqual([0, 10, 20, 40, 80, 160, 300, 300]);
  });

  it("says why, as the kubelet's error does", () => {
    let nowMs = 1_000;
    const b = newContainerRestartBackOff({ nowMs: () => nowMs });
    expect(doBackOff(pod, app, statusExitedAt(1_000), b).isInBackOff).toBe(false); // first crash: backoff 10s
    nowMs = 15_000;
    expect(doBackOff(pod, app, statusExitedAt(5_000), b).isInBackOff).toBe(false); // 10s passed: backoff 20s
    nowMs = 25_000;
    expect(doBackOff(pod, app, statusExitedAt(20_000), b)).toMatchObject({
      isInBackOff: true,
      err: "CrashLoopBackOff",
      message: "back-off 20s restarting failed container=app pod=web_default(u1)",
      eventMessage: "Back-off restarting failed container app in pod web_default(u1)",
    });
  });

  it("a spec change gives a new key and so a fresh backoff", () => {
    const b = newContainerRestartBackOff({ nowMs: () => 0 });
    const first = doBackOff(pod, app, statusExitedAt(0), b).key;
    const second = doBackOff(pod, { ...app, image: "x:2" }, statusExitedAt(0), b).key;
    expect(second).not.toBe(first);
  });
});
