// Durations are written the Go way in YAML and arrive as integer milliseconds named *Ms.
import { describe, expect, it } from "vitest";
import { checkScenarioText, formatIssue, loadScenarioText } from "../../src/scenario/index.ts";

const scenario = (yaml: string) => loadScenarioText(`name: d\n${yaml}`, "d.yaml").scenario;
const errors = (yaml: string) => {
  const r = checkScenarioText(`name: d\n${yaml}`, "d.yaml");
  return r.ok ? [] : r.issues.map(formatIssue);
};

describe("durations in scenario fields", () => {
  it.each([
    ["500ms", 500],
    ["10s", 10_000],
    ["1m30s", 90_000],
    ["1.5s", 1_500],
    ["2h", 7_200_000],
    ["0", 0],
    ["0s", 0],
  ])("until: %s is %i ms", (text, ms) => {
    expect(scenario(`until: "${text}"`).untilMs).toBe(ms);
  });

  it("renames every duration field with an Ms suffix and fills upstream defaults", () => {
    const k = scenario("").kubelet;
    expect(k).toMatchObject({
      syncFrequencyMs: 60_000,
      fileCheckFrequencyMs: 20_000,
      httpCheckFrequencyMs: 20_000,
      nodeStatusUpdateFrequencyMs: 10_000,
      runtimeRequestTimeoutMs: 120_000,
      housekeepingPeriodMs: 2_000,
      plegRelistPeriodMs: 1_000,
      plegRelistThresholdMs: 180_000,
      backOffPeriodMs: 10_000,
      maxContainerBackOffMs: 300_000,
      maxPods: 110,
    });
    expect(Object.keys(k).filter((key) => /(Frequency|Period|Threshold|Timeout|BackOff)$/.test(key))).toEqual([]);
    expect(scenario("").untilMs).toBe(300_000);
  });

  it("reads a latency as a fixed duration or a seeded range", () => {
    const r = scenario("runtime:\n  latency: { PullImage: 40s, StopContainer: { min: 10ms, max: 2s } }").runtime;
    expect(r.latency.PullImage).toEqual({ minMs: 40_000, maxMs: 40_000 });
    expect(r.latency.StopContainer).toEqual({ minMs: 10, maxMs: 2_000 });
    expect(r.latency.RunPodSandbox).toEqual({ minMs: 500, maxMs: 500 });
  });

  it("renames durations inside steps, behaviours and expectations", () => {
    const s = scenario(`pods:
  - manifest: { metadata: { name: w }, spec: { containers: [{ name: c, image: i }] } }
    behaviour:
      c: { exitAfter: 1m, exitCode: 3, onSigterm: { exitAfter: 250ms } }
timeline:
  - { at: 1m30s, partition: { for: 20s, mode: timeout } }
  - { at: 0s, create: w }
expect:
  - eventually: { pod: w, phase: Running }
    by: 45s
`);
    expect(s.timeline).toEqual([
      { atMs: 0, kind: "create", pod: "default/w" },
      { atMs: 90_000, kind: "partition", forMs: 20_000, mode: "timeout" },
    ]);
    expect(s.pods[0]!.behaviour.c!.then).toEqual({
      exitAfterMs: 60_000,
      exitCode: 3,
      oomAfterMs: null,
      failStart: null,
      onSigterm: { ignore: false, exitAfterMs: 250, exitCode: 143 },
    });
    expect(s.expect[0]).toMatchObject({ kind: "eventually", byMs: 45_000 });
  });

  it("refuses bare numbers, words, negative and sub-millisecond durations with a hint", () => {
    expect(errors("until: 30")).toEqual([
      'd.yaml:2:8: until: expected a duration such as "500ms" or "1m30s", found the number 30; add a unit, e.g. "30s" or "30ms"',
    ]);
    expect(errors("until: -5s")[0]).toContain('duration "-5s" is negative');
    expect(errors("until: 1.0005s")[0]).toContain("is not a whole number of milliseconds");
    expect(errors("until: 5 min")[0]).toContain('invalid duration "5 min"');
    expect(errors("until: 10ns")[0]).toContain("finer than a millisecond");
  });
});
