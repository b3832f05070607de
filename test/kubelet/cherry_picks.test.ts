// fixedIn: a fix merged in one minor and cherry-picked into patch releases of older branches, and
// the gates of races R09, R11, R12, R13 and R14 (one row per boundary, from CHANGELOG-1.x.md).
import { describe, expect, it } from "vitest";
import { fixedIn } from "../../src/kubelet/cherry_picks.ts";
import { statusEra } from "../../src/kubelet/status/era.ts";
import { SKIP_TERMINAL_ADMISSION_RELEASES } from "../../src/kubelet/kubelet_core.ts";
import { kubeletPodsEra } from "../../src/kubelet/kubelet_pods.ts";
import { atLeast } from "../../src/kubelet/version.ts";
import { EVENT_TIMESTAMP_FIX_RELEASE } from "../../src/kubelet/pleg/evented.ts";

describe("fixedIn", () => {
  const picks = ["1.22.9", "1.23.6", "1.24.0"];
  it.each([
    ["1.21.14", false], // older than every listed branch
    ["1.22", false],
    ["1.22.8", false],
    ["1.22.9", true],
    ["1.22.17", true],
    ["1.23.5", false],
    ["1.23.6", true],
    ["1.24", true],
    ["1.30", true], // newer than every listed branch
  ])("%s: %s", (v, want) => {
    expect(fixedIn(v, ...picks)).toBe(want);
  });

  it("a branch between listed ones that never got the pick stays unfixed", () => {
    expect(fixedIn("1.23.20", "1.22.3", "1.24.0")).toBe(false);
  });

  it("refuses an empty list", () => {
    expect(() => fixedIn("1.22")).toThrow(/at least one release/);
  });
});

describe("the gates of R11, R12 and R14", () => {
  it.each([
    ["1.22.8", false],
    ["1.22.9", true],
    ["1.23.5", false],
    ["1.23.6", true],
    ["1.24", true],
  ])("#108366 (delay the terminal phase) in %s: %s", (v, want) => {
    expect(statusEra(v).delayTerminalPhase).toBe(want);
    expect(statusEra(v).terminatePodInitAware).toBe(want);
  });

  it.each([
    ["1.22.10", false],
    ["1.22.11", true],
    ["1.23.7", false],
    ["1.23.8", true],
    ["1.24.1", false],
    ["1.24.2", true],
    ["1.25", true],
  ])("#110256 (terminal phase is not Ready) in %s: %s", (v, want) => {
    expect(statusEra(v).terminalPhaseNotReady).toBe(want);
  });

  it.each([
    ["1.27.16", false],
    ["1.28.13", false],
    ["1.28.14", true],
    ["1.29.9", true],
    ["1.30.4", false],
    ["1.30.5", true],
    ["1.31.0", false],
    ["1.31.1", true],
    ["1.32", true],
  ])("#126343 (terminal pods skip admission) in %s: %s", (v, want) => {
    expect(fixedIn(v, ...SKIP_TERMINAL_ADMISSION_RELEASES)).toBe(want);
  });
});

describe("the gates of R09 and R13", () => {
  it.each([
    ["1.19.16", false],
    ["1.20", true],
  ])("#95561/#95364 (a vanished running container is inferred terminated) in %s: %s", (v, want) => {
    expect(kubeletPodsEra(v).missingStatusesInferred).toBe(want);
  });

  it.each([
    ["1.31.14", false],
    ["1.32", true],
  ])("#124297 (the cache stamped with the event's creation time) in %s: %s", (v, want) => {
    expect(atLeast(v, EVENT_TIMESTAMP_FIX_RELEASE)).toBe(want);
  });
});
