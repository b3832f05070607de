// GetPodStatus's TimeStamp under the EventedPLEG gate (KEP-3386), across #127195 (1.32.0): the
// runtime's PodSandboxStatus timestamp (ns) read as seconds before it and as nanoseconds from it;
// without a runtime timestamp, Go's zero time before it and time.Now() from it.
import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/sim/index.ts";
import type { PodStatus } from "../../../src/kubelet/container/runtime.ts";
import { driver, webPod } from "./sync/driver.ts";

const present = { present: true, pullTime: null, fail: null };

/** GetPodStatus at 5 s virtual, after the first sync; `at` is when it was asked. */
function statusAt5s(version: string, eventedPLEG: boolean, podSandboxStatusTimestamp: boolean): { status: PodStatus; atMs: number } {
  const d = driver({ runtime: { images: { "nginx:1.25": present }, podSandboxStatusTimestamp }, manager: { version, eventedPLEG } });
  const out: { status?: PodStatus; atMs?: number } = {};
  d.run(function* () {
    yield* d.syncOnce(webPod());
    yield* sleep(5000 - d.sim.nowMs);
    out.atMs = d.sim.nowMs;
    out.status = yield* d.status(webPod());
  });
  return { status: out.status!, atMs: out.atMs! };
}

describe("GetPodStatus: TimeStamp under the EventedPLEG gate", () => {
  // Every CRI call takes 10 ms in the driver: time.Now() after ListPodSandbox is +10 ms, and the
  // runtime stamps PodSandboxStatus at +20 ms (20.005e9 ns, which 1.31 reads as seconds).
  it.each([
    { version: "1.31.14", stamp: true, want: (t: number) => (t + 20) * 1e6 * 1000 },
    { version: "1.32.0", stamp: true, want: (t: number) => t + 20 },
    { version: "1.31.14", stamp: false, want: () => undefined },
    { version: "1.32.0", stamp: false, want: (t: number) => t + 10 },
  ])("$version, runtime stamps: $stamp", ({ version, stamp, want }) => {
    const { status, atMs } = statusAt5s(version, true, stamp);
    expect(status.timestampMs).toBe(want(atMs));
    // Either way the running container is reported: from the response, or listed.
    expect(status.containerStatuses.map((s) => s.state)).toEqual(["running"]);
  });

  it.each(["1.31.14", "1.32.0"])("%s without the gate: no TimeStamp, containers listed", (version) => {
    const { status } = statusAt5s(version, false, true);
    expect(status.timestampMs).toBeUndefined();
    expect(status.containerStatuses).toHaveLength(1);
  });
});
