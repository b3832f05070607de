// Shrinking keeps the failure it was asked to keep: a candidate counts only when the same
// invariant, verdict or expectation fails for the same pod. R06's vacuous repro: the shrinker used
// to drop every timeline step of a grace-period race, so the pod was never created, and its
// `eventually gone` expectation still "failed" (nothing ever happened, so it was never decided).
import { describe, expect, it } from "vitest";
import { classifyFailure, exploreSync, sameFailure, type Failure } from "../../src/explore/index.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import { simulate } from "../../src/simulate.ts";
import { parse } from "yaml";

const R06 = `
name: r06-vacuous
until: 3m
kubelet: { version: "1.30" }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web, namespace: default }
      spec:
        terminationGracePeriodSeconds: 120
        containers: [{ name: app, image: "example/app:1" }]
    behaviour:
      app: { onSigterm: { ignore: true } }
timeline:
  - { at: 0s, create: web }
  - { at: 5s, delete: web }
  - { at: 15s, delete: { pod: web, gracePeriodSeconds: 10 } }
expect:
  - eventually: { pod: web, gone: true }
    by: 30s
`;

const f = (over: Partial<Failure>): Failure => ({ kind: "invariant", id: "x", message: "", atMs: 0, pod: "default/web", expectIndex: null, ...over });

describe("sameFailure", () => {
  it.each([
    ["same invariant, same pod", f({}), f({ atMs: 9, message: "other words" }), true],
    ["same invariant, another pod", f({}), f({ pod: "default/db" }), false],
    ["another invariant", f({}), f({ id: "y" }), false],
    ["a verdict against an invariant", f({ kind: "verdict", id: "deadlock", pod: null }), f({ id: "deadlock", pod: null }), false],
    ["same expectation, the pod existed in both", f({ kind: "expectation", podSeen: true }), f({ kind: "expectation", podSeen: true }), true],
    ["same expectation, the pod never existed in the candidate", f({ kind: "expectation", podSeen: true }), f({ kind: "expectation", podSeen: false }), false],
    ["a record written before podSeen existed", f({ kind: "expectation" }), f({ kind: "expectation", podSeen: true }), true],
  ])("%s", (_name, a, b, want) => {
    expect(sameFailure(a, b)).toBe(want);
  });

  it("is false when either run passed", () => {
    expect(sameFailure(null, f({}))).toBe(false);
    expect(sameFailure(f({}), null)).toBe(false);
  });
});

describe("R06's vacuous repro", () => {
  it("without its create step the expectation still fails, but about a pod that never existed", () => {
    const scenario = loadScenarioText(R06).scenario;
    const full = classifyFailure(scenario, simulate(scenario));
    const empty = { ...scenario, timeline: [] };
    const vacuous = classifyFailure(empty, simulate(empty));
    expect(full).toMatchObject({ kind: "expectation", pod: "default/web", podSeen: true });
    expect(vacuous).toMatchObject({ kind: "expectation", id: full!.id, pod: "default/web", podSeen: false });
    expect(sameFailure(vacuous, full)).toBe(false);
  });

  it("the shrunk repro still creates the pod and still fails its expectation about it", () => {
    const raw = parse(R06) as Record<string, unknown>;
    const r = exploreSync({ source: { raw, label: "r06-vacuous.yaml" }, runs: 3, strategy: "pct", invariants: [], outDir: null });
    expect(r.first?.failure).toMatchObject({ kind: "expectation", pod: "default/web" });
    const steps = (r.found!.raw["timeline"] as Record<string, unknown>[]).map((s) => Object.keys(s).find((k) => k !== "at"));
    expect(steps).toContain("create");
    expect(r.found!.failure).toMatchObject({ kind: "expectation", pod: "default/web", podSeen: true });
    expect(sameFailure(r.found!.failure, r.first!.failure)).toBe(true);
  });
});
