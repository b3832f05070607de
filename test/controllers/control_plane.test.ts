// controlPlane.version (scenario/schema/nodes.ts): the release the controllers and the scheduler
// stand-in follow in a cluster, the first node's kubelet release without it; and the version skew
// policy's warnings for a kubelet outside it.
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import { skewProblem } from "../../src/scenario/crossref_nodes.ts";
import { controlPlaneRelease, controlPlaneSidecars } from "../../src/controllers/manager.ts";
import { nodeMonitorGracePeriodMs } from "../../src/controllers/node_health.ts";
import { kubeletVersion } from "../../src/kubelet/version.ts";
import { RACES, raceScenario } from "../../src/races/catalog.ts";

const load = (head: string, nodes = "  - name: node-a\n  - name: node-b\n") => loadScenarioText(`name: cp\n${head}\nnodes:\n${nodes}until: 3m\ntimeline:\n  - { at: 30s, partition: { node: node-b, for: 2m } }\n`, "cp.yaml");

describe("the version skew policy", () => {
  it.each([
    ["1.29", "1.29", null],
    ["1.30", "1.29", "newer than the control plane's 1.29 (a kubelet must not be newer than kube-apiserver)"],
    ["1.26", "1.29", null],
    ["1.25", "1.28", null],
    ["1.25", "1.29", "4 minor releases older than the control plane's 1.29 (at most 3 are supported)"],
    // Before 1.28 (KEP-3935) two minors were the most.
    ["1.24", "1.27", "3 minor releases older than the control plane's 1.27 (at most 2 are supported)"],
    ["1.25", "1.27", null],
    ["1.22", "1.25", "3 minor releases older than the control plane's 1.25 (at most 2 are supported)"],
    ["1.29.3", "1.29.0", null],
  ])("kubelet %s, control plane %s", (k, cp, want) => {
    expect(skewProblem(kubeletVersion(k), kubeletVersion(cp))).toBe(want);
  });
});

describe("controlPlane.version", () => {
  it("defaults to the first node's kubelet release", () => {
    const s = load("", "  - name: node-a\n    kubelet: { version: \"1.31\" }\n  - name: node-b\n").scenario;
    expect(controlPlaneRelease(s)).toBe("1.31");
    expect(controlPlaneSidecars(s)).toBe(s.kubelet.featureGates.SidecarContainers);
  });

  it("sets the controllers' release: the node monitor grace period is 40 s at 1.31 and 50 s at 1.32, whatever the kubelets", () => {
    const grace = (cp: string) => {
      const recs = simulate(load(`controlPlane: { version: "${cp}" }\nkubelet: { version: "1.31" }`).scenario).records!;
      return recs.find((r) => r.kind === "NodeHealthUnknown")!["gracePeriodMs"];
    };
    expect(grace("1.31")).toBe(nodeMonitorGracePeriodMs(kubeletVersion("1.31")));
    expect(grace("1.32")).toBe(nodeMonitorGracePeriodMs(kubeletVersion("1.32")));
    expect(grace("1.32")).not.toBe(grace("1.31"));
  });

  it("sets the scheduler's SidecarContainers gate to its release's default", () => {
    expect(controlPlaneSidecars(load(`controlPlane: { version: "1.28" }\nkubelet: { version: "1.28" }`).scenario)).toBe(false);
    expect(controlPlaneSidecars(load(`controlPlane: { version: "1.29" }\nkubelet: { version: "1.28" }`).scenario)).toBe(true);
  });

  it("warns of each kubelet outside the supported skew, at the version that says so, and runs", () => {
    const loaded = load(`controlPlane: { version: "1.29" }`, "  - name: node-a\n    kubelet: { version: \"1.30\" }\n  - name: node-b\n    kubelet: { version: \"1.25\" }\n  - name: node-c\n    kubelet: { version: \"1.27\" }\n");
    expect(loaded.warnings.map((w) => `${w.line}:${w.col}: ${w.path}: ${w.message}`)).toEqual([
      `5:25: nodes[0].kubelet.version: node "node-a"'s kubelet 1.30 is outside the supported version skew: newer than the control plane's 1.29 (a kubelet must not be newer than kube-apiserver); it runs anyway`,
      `7:25: nodes[1].kubelet.version: node "node-b"'s kubelet 1.25 is outside the supported version skew: 4 minor releases older than the control plane's 1.29 (at most 3 are supported); it runs anyway`,
    ]);
    expect(simulate(loaded.scenario).records!.length).toBeGreaterThan(0);
  });

  it("warns at the top-level kubelet version when the nodes share it", () => {
    const loaded = load(`controlPlane: { version: "1.29" }\nkubelet: { version: "1.31" }`);
    expect(loaded.warnings.map((w) => w.path)).toEqual(["kubelet.version", "kubelet.version"]);
  });
});

describe("R27's gate is the control plane's", () => {
  const r27 = raceScenario(RACES.find((r) => r.id === "R27")!, "buggy");
  const withControlPlane = (version: string) => ({ ...r27, controlPlane: { version: { version, ...kubeletVersion(version) } } });

  it("kubelets at 1.28 under a 1.29 control plane: podReplacementPolicy: Failed is honoured, no violation", () => {
    expect(r27.kubelet.version).toBe("1.28");
    expect(simulate(withControlPlane("1.29")).checks.violations).toEqual([]);
  });

  it("the same scenario with its control plane at 1.28 (explicitly) keeps the race", () => {
    expect(simulate(withControlPlane("1.28")).checks.violations.map((v) => v.invariant)).toEqual(["job-running-at-most-parallelism"]);
  });
});
