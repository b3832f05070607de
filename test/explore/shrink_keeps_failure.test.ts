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

// The same class, one step further: R06's hunt form with a deadline the pod misses by a little. The
// shrinker used to drop the delete, keeping only `create` and the expectation: the pod then "failed"
// to be gone because nothing deleted it. A kept step must fail at a comparable point: after the same
// steps on the expectation's pod up to its deadline, seeing the same state.
const R06_TIGHT = `
name: r06-tight
until: 1m
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
      app: { onSigterm: { exitAfter: 12s, exitCode: 0 } }
timeline:
  - { at: 0s, create: web }
  - { at: 5s, delete: web }
  - { at: 16s, delete: { pod: web, gracePeriodSeconds: 1 } }
expect:
  - eventually: { pod: web, gone: true }
    by: 15s
`;

describe("a shrunk eventually keeps its cause", () => {
  it("causeOf: the steps on the expectation's pod up to its deadline, and what was seen", async () => {
    const { causeOf, sameCause } = await import("../../src/explore/shrink_cause.ts");
    const raw = parse(R06_TIGHT) as Record<string, unknown>;
    const failure = f({ kind: "expectation", id: "eventually default/web: gone by 15000ms", message: "expectation failed: eventually default/web: gone by 15s; seen at 15s: the pod exists" });
    const cause = causeOf(raw, failure)!;
    expect(cause).toEqual({ actions: ['{"create":"web"}', '{"delete":"web"}'], seen: "the pod exists" });
    const noDelete = { ...raw, timeline: [{ at: "0s", create: "web" }] };
    expect(sameCause(cause, causeOf(noDelete, failure))).toBe(false);
    expect(causeOf(raw, f({}))).toBeNull(); // an invariant is evidence in itself
  });

  it("the repro keeps the delete, and says what it keeps failing with", () => {
    const raw = parse(R06_TIGHT) as Record<string, unknown>;
    const r = exploreSync({ source: { raw, label: "r06-tight.yaml" }, runs: 3, strategy: "pct", invariants: ["at-most-one-running-container"], outDir: null });
    expect(r.first?.failure).toMatchObject({ kind: "expectation", id: "eventually default/web: gone by 15000ms" });
    const steps = (r.found!.raw["timeline"] as Record<string, unknown>[]).map((s) => Object.keys(s).find((k) => k !== "at"));
    expect(steps).toEqual(["create", "delete"]);
    expect(r.shrink!.log.at(-1)).toBe("kept: expectation eventually default/web: gone by 15000ms (default/web), after the same steps on its pod (create, delete), seen: the pod exists");
  });
});
