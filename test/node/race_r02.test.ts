// Race R02 (../shared/races.md): before 1.22 a pod deleted before its containers started was taken
// for terminated; the status manager deleted it from the apiserver, and the in-flight sync then
// started its container. The fix (PR #102344, 1.22) made the pod worker own the lifecycle.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { withKubeletVersion } from "../../src/scenario/variants.ts";
import { simulate } from "../../src/simulate.ts";

const FILE = join(import.meta.dirname, "..", "..", "scenarios", "races", "r02-pw-not-started-treated-as-terminated.yaml");
const { scenario } = loadScenarioFile(FILE);

describe("race R02: not started treated as terminated", () => {
  it("happens under kubelet 1.21 at the scenario's fixed seed: a container starts after the API delete", () => {
    const r = simulate(scenario);
    expect(r.run.verdict).toBe("until");
    const v = r.checks.violations.find((x) => x.invariant === "container-start-after-pod-deleted");
    expect(v?.message).toMatch(/StartContainer|CreateContainer/);
    // The API object was deleted (status manager, grace 0) before the sandbox was even ready.
    const apiDelete = r.records!.find((x) => x.component === "apiserver" && x.kind === "Delete" && x.actor === "kubelet");
    const start = r.records!.find((x) => x.component === "runtime" && x.kind === "StartContainer");
    expect(apiDelete!.t).toBeLessThan(start!.t);
    expect(r.ok).toBe(false);
  });

  it.each(["1.22", "1.29", "1.33"])("does not happen under kubelet %s: the API delete waits for the pod worker", (version) => {
    const r = simulate(withKubeletVersion(scenario, version));
    expect(r.checks.violations.filter((x) => x.invariant === "container-start-after-pod-deleted")).toEqual([]);
    expect(r.ok).toBe(true);
    const terminated = r.records!.find((x) => x.component === "podworker" && x.kind === "Terminated");
    const apiDelete = r.records!.find((x) => x.component === "apiserver" && x.kind === "Delete" && x.actor === "kubelet");
    expect(terminated!.t).toBeLessThanOrEqual(apiDelete!.t);
  });

  it("is reproducible: the same seed gives the same trace hash", () => {
    expect(simulate(scenario).run.traceHash).toBe(simulate(scenario).run.traceHash);
  });
});
