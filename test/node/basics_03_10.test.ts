// The bundled scenarios 03 (liveness restart) and 10 (sidecar) through simulate(): every
// expectation holds and no invariant is violated, under the scenario's own schedule and under
// seeded random ones. They need the prober's events (Unhealthy), the sidecar's probe status
// (Started/Ready on its init container status) and the sidecar termination ordering.
import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { simulate, type SimulationResult } from "../../src/simulate.ts";
import type { TraceRecord } from "../../src/sim/index.ts";

const DIR = new URL("../../scenarios/basics/", import.meta.url).pathname;

function run(file: string, opts: Parameters<typeof simulate>[1] = {}): { r: SimulationResult; expectations: number } {
  const { scenario } = loadScenarioFile(DIR + file);
  const r = simulate(scenario, opts);
  return { r, expectations: scenario.expect.length };
}

function summary(r: SimulationResult): string[] {
  return [
    ...r.checks.expectations.filter((e) => !e.ok).map((e) => `FAIL ${e.description}`),
    ...r.checks.violations.map((v) => `VIOLATION ${JSON.stringify(v)}`),
  ];
}

const events = (records: readonly TraceRecord[], reason: string) =>
  records.filter((x) => x.kind === "Event" && x["reason"] === reason).map((x) => `${x.t} ${String(x["object"])} ${String(x["type"])} ${String(x["message"])}`);

describe("scenarios/basics/03-liveness-restart.yaml", () => {
  it("passes: every expectation holds, no invariant is violated", () => {
    const { r, expectations } = run("03-liveness-restart.yaml");
    expect(summary(r)).toEqual([]);
    expect(r.checks.expectations).toHaveLength(expectations);
    expect(r.ok).toBe(true);
  });

  it("three Unhealthy events (one per failed probe), then the Killing event with computePodActions' message", () => {
    const { r } = run("03-liveness-restart.yaml");
    const unhealthy = events(r.records!, "Unhealthy");
    expect(unhealthy).toHaveLength(3);
    expect(unhealthy.every((e) => e.endsWith("spec.containers{app} Warning Liveness probe failed: liveness probe failed"))).toBe(true);
    const killing = events(r.records!, "Killing");
    expect(killing).toEqual([`${unhealthy[2]!.split(" ")[0]} spec.containers{app} Normal Container app failed liveness probe, will be restarted`]);
  });
});

describe("scenarios/basics/10-sidecar.yaml", () => {
  it("passes: every expectation holds, including the sidecar-stopped-before-main-containers invariant", () => {
    const { r, expectations } = run("10-sidecar.yaml");
    expect(summary(r)).toEqual([]);
    expect(r.checks.expectations).toHaveLength(expectations);
    expect(r.ok).toBe(true);
  });

  it("the sidecar gets SIGTERM only after the app has exited, with the grace that is left", () => {
    const { r } = run("10-sidecar.yaml");
    const recs = r.records!;
    const appExit = recs.find((x) => x.kind === "ContainerExited" && x["container"] === "app")!;
    const sidecarTerm = recs.find((x) => x.kind === "Signal" && x["container"] === "log-shipper" && x["signal"] === "SIGTERM")!;
    expect(sidecarTerm.t).toBeGreaterThanOrEqual(appExit.t);
    const kills = recs.filter((x) => x.component === "kuberuntime" && x.kind === "KillContainer");
    // The app takes 3 s to exit, so the sidecar's 30 s grace has 27 s left.
    expect(kills.map((k) => [k["container"], k["gracePeriodSeconds"]])).toEqual([["app", 30], ["log-shipper", 27]]);
  });

  it.each([1, 2, 3, 4, 5])("passes under a random schedule (seed %i)", (seed) => {
    const { r } = run("10-sidecar.yaml", { seed, strategy: { name: "random" } });
    expect(summary(r)).toEqual([]);
    expect(r.ok).toBe(true);
  });
});

describe("scenario 03 under random schedules", () => {
  it.each([1, 2, 3])("seed %i", (seed) => {
    const { r } = run("03-liveness-restart.yaml", { seed, strategy: { name: "random" } });
    expect(summary(r)).toEqual([]);
    expect(r.ok).toBe(true);
  });
});
