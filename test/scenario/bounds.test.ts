// Every bound of the scenario language, one past its limit: refused with a message that names the
// limit (docs/scenarios.md lists them). How long a refusal takes is `npm run bench --
// hostile-input`; no test asserts time, not even CPU time (a slow host is not a failure).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runRequest } from "../../src/cli/commands/run.ts";
import {
  checkScenarioFile, checkScenarioText, formatIssue, MAX_CONTAINERS, MAX_DEPTH, MAX_EXPECTATIONS, MAX_FILE_BYTES, MAX_PODS, MAX_STEPS, type CheckResult,
} from "../../src/scenario/index.ts";

const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-bounds-"));

function refused(run: () => CheckResult): string {
  const result = run();
  expect(result.ok).toBe(false);
  return result.ok ? "" : result.issues.map(formatIssue).join("\n");
}

const pod = (i: number, containers: number) =>
  `  - manifest: { metadata: { name: p${i} }, spec: { containers: [${Array.from({ length: containers }, (_, c) => `{ name: c${c}, image: i }`).join(", ")}] } }`;
const scenario = (extra: string) => `name: bounds\n${extra}\n`;

describe("the bounds of a scenario", () => {
  it(`the largest file: ${MAX_FILE_BYTES} bytes`, () => {
    const path = join(dir, "big.yaml");
    writeFileSync(path, `name: big\n#${"x".repeat(MAX_FILE_BYTES)}\n`);
    expect(refused(() => checkScenarioFile(path))).toContain("a scenario file may be at most 1048576 bytes (1 MiB)");
  });

  it(`the deepest nesting: ${MAX_DEPTH} levels`, () => {
    const text = `name: deep\nseed: ${"[".repeat(MAX_DEPTH + 1)}${"]".repeat(MAX_DEPTH + 1)}\n`;
    expect(refused(() => checkScenarioText(text, "deep.yaml"))).toContain("nested too deeply: more than 64 levels");
  });

  it(`the most pods: ${MAX_PODS}`, () => {
    const text = scenario(`pods:\n${Array.from({ length: MAX_PODS + 1 }, (_, i) => pod(i, 1)).join("\n")}`);
    expect(refused(() => checkScenarioText(text, "pods.yaml"))).toContain(
      "pods: expected at most 200 pods (a bound of the simulator), found 201");
  });

  it(`the most containers: ${MAX_CONTAINERS} in all the pods`, () => {
    const text = scenario(`pods:\n${Array.from({ length: 11 }, (_, i) => pod(i, 100)).join("\n")}`);
    expect(refused(() => checkScenarioText(text, "ctrs.yaml"))).toContain(
      "pods[10].manifest.spec.containers: expected at most 1000 containers in all the pods of a scenario (a bound of the simulator), found 1100 by this pod");
  });

  it("the longest until: 24h, in the file and on the command line", () => {
    expect(refused(() => checkScenarioText(scenario("until: 24h0m0.001s"), "u.yaml"))).toContain(
      'until: expected a duration of at most 24h0m0s (the longest run a scenario may ask for), found "24h0m0.001s"');
    expect(checkScenarioText(scenario("until: 24h"), "u.yaml").ok).toBe(true);
    expect(() => runRequest({ file: "x.yaml", until: "25h" } as Parameters<typeof runRequest>[0])).toThrow(
      "--until 25h: at most 24h0m0s, the longest run a scenario may ask for");
  });

  it(`the most timeline steps (${MAX_STEPS}) and expectations (${MAX_EXPECTATIONS})`, () => {
    const steps = scenario(`timeline:\n${"  - { at: 0s, restartKubelet: true }\n".repeat(MAX_STEPS + 1)}`);
    expect(refused(() => checkScenarioText(steps, "t.yaml"))).toContain("expected at most 2000 timeline steps (a bound of the simulator), found 2001");
    const expectations = scenario(`pods:\n${pod(0, 1)}\nexpect:\n${"  - { never: { pod: p0, phase: Succeeded } }\n".repeat(MAX_EXPECTATIONS + 1)}`);
    expect(refused(() => checkScenarioText(expectations, "e.yaml"))).toContain("expected at most 1000 expectations (a bound of the simulator), found 1001");
  });

  // What a refusal at a bound costs is not timed (`npm run bench -- hostile-input` does): what is
  // checked is that it says one thing, the bound, even when every item is wrong too; 2,001 broken
  // steps or 201 broken pods give one message, not one per item.
  const wrongSteps = (n: number) => `timeline:\n${"  - { at: 0s, restartKubelet: 7 }\n".repeat(n)}`;
  const wrongPods = (n: number) => `pods:\n${Array.from({ length: n }, (_, i) => pod(i, 1).replace("image: i", "image: 7")).join("\n")}`;
  const issuesOf = (text: string) => {
    const result = checkScenarioText(scenario(text), "b.yaml");
    expect(result.ok).toBe(false);
    return result.ok ? [] : result.issues.map(formatIssue);
  };
  it.each([
    ["steps", wrongSteps, MAX_STEPS, "timeline: expected at most 2000 timeline steps"],
    ["pods", wrongPods, MAX_PODS, "pods: expected at most 200 pods"],
  ])("one past the bound of %s, each of them wrong as well: one issue, the bound", (_what, wrong, bound, message) => {
    expect(issuesOf(wrong(5))).toHaveLength(5);
    const issues = issuesOf(wrong(bound + 1));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain(message);
  });

  it("a period of zero, which would make a kubelet loop spin at one instant", () => {
    expect(refused(() => checkScenarioText(scenario("kubelet: { plegRelistPeriod: 0s }"), "z.yaml"))).toContain(
      'kubelet.plegRelistPeriod: expected a duration greater than 0s (a period the kubelet repeats), found "0s"');
  });
});
