// The timing knobs of play mode, table-driven: which knobs a scenario's swarm gives, what a value
// out of range says, and that pinning a timing edits only the values it sets (comments, layout and
// every other byte of the text kept), so an exported scenario reads as the level's file does.
import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../src/scenario/index.ts";
import { changedKnobs, knobProblem, pinTiming, timingKnobs } from "../../src/play/timing.ts";

const TEXT = `# a comment the export keeps
name: t
until: 1m
runtime:
  latency: { PullImage: 2s, StartContainer: { min: 10ms, max: 20ms } }
pods:
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: web }, spec: { containers: [{ name: app, image: "x:1" }] } }
timeline:
  - { at: 0s, create: web }
  - { at: 10s, delete: web }   # the delete
  - { at: 10s, create: web }
  - { at: 59500ms, evict: { pod: web } }
swarm:
  latency: { PullImage: { min: 1s, max: 5s }, StartContainer: { min: 5ms, max: 50ms } }
  jitter: 2s
  apiserverLatency: { min: 2ms, max: 30ms }
`;

const loaded = loadScenarioText(TEXT, "t.yaml");
const knobs = timingKnobs(loaded.raw, loaded.scenario);

describe("timingKnobs", () => {
  it.each([
    ["latency.PullImage", "PullImage takes", 1000, 5000, 2000, undefined],
    ["latency.StartContainer", "StartContainer takes", 5, 50, null, undefined],
    ["step@10000", "delete web, create web (written at 10s) happens at", 10_000, 12_000, 10_000, [1, 2]],
    // Never past until: the run must still see the step.
    ["step@59500", "evict web (written at 59.5s) happens at", 59_500, 59_999, 59_500, [3]],
    ["apiserver.latency", "an apiserver round trip takes", 2, 30, null, undefined],
  ])("%s: %s %i to %i ms, written %s", (id, label, minMs, maxMs, writtenMs, steps) => {
    expect(knobs.find((k) => k.id === id)).toEqual({ id, kind: expect.any(String), label, minMs, maxMs, writtenMs, ...(steps === undefined ? {} : { steps }) });
  });

  it("a scenario without swarm has none; steps at 0s are never knobs", () => {
    const plain = loadScenarioText("name: p\npods: []\ntimeline: [{ at: 0s, restartKubelet: true }]\n", "p.yaml");
    expect(timingKnobs(plain.raw, plain.scenario)).toEqual([]);
    expect(knobs.some((k) => k.id === "step@0")).toBe(false);
  });
});

describe("pinTiming", () => {
  it("writes the changed values and leaves every other line as it was", () => {
    const out = pinTiming(TEXT, knobs, { "latency.PullImage": 4500, "step@10000": 11_250, "apiserver.latency": 7 });
    const before = TEXT.trimEnd().split("\n");
    const changed = before.filter((line, i) => out.split("\n")[i] !== line);
    expect(out).toContain("# a comment the export keeps");
    expect(out).toContain("- { at: 11250ms, delete: web } # the delete");
    expect(out).toContain("- { at: 11250ms, create: web }");
    expect(out).toContain("PullImage: 4500ms");
    expect(out.split("\n").slice(before.length).join("\n")).toBe("apiserver:\n  latency: 7ms\n");
    // The yaml library writes a flow sequence with spaces inside its brackets: the one change of layout.
    expect(changed).toEqual([
      "  latency: { PullImage: 2s, StartContainer: { min: 10ms, max: 20ms } }",
      '  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: web }, spec: { containers: [{ name: app, image: "x:1" }] } }',
      "  - { at: 10s, delete: web }   # the delete",
      "  - { at: 10s, create: web }",
    ]);
    const again = loadScenarioText(out, "t.yaml").scenario;
    expect(again.timeline.filter((s) => s.atMs === 11_250)).toHaveLength(2);
  });

  it("returns the text itself when no value differs from the written one", () => {
    expect(pinTiming(TEXT, knobs, { "latency.PullImage": 2000, "step@10000": 10_000 })).toBe(TEXT);
    expect(changedKnobs(knobs, { "latency.PullImage": 2000, "latency.StartContainer": 20 })).toEqual(["latency.StartContainer"]);
  });

  it.each([
    [{ "latency.PullImage": 999 }, "PullImage takes: 999ms is outside 1000ms to 5000ms"],
    [{ "step@10000": 12_001 }, "happens at: 12001ms is outside 10000ms to 12000ms"],
    [{ "apiserver.latency": 2.5 }, "expected a whole number of milliseconds, got 2.5"],
  ])("refuses %j: %s", (values, message) => {
    expect(() => pinTiming(TEXT, knobs, values)).toThrow(message);
    const knob = knobs.find((k) => k.id === Object.keys(values)[0])!;
    expect(knobProblem(knob, Object.values(values)[0]!)).toContain(message.split(": ").at(-1));
  });
});
