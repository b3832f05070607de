// The scheduler filters the kubelet's admission runs, as pure functions: each table row is a case
// of upstream's own tests (nodeaffinity_test.go, helpers_test.go, fit_test.go, node_ports_test.go)
// or of the documented semantics they pin down.
import { describe, expect, it } from "vitest";
import type { Pod } from "../../../src/k8s/pod.ts";
import type { Node, Taint, Toleration } from "../../../src/k8s/node.ts";
import { kubeletNodeLabels } from "../../../src/k8s/node.ts";
import { requiredNodeAffinityMatches, requirementMatches } from "../../../src/k8s/scheduling/node_affinity.ts";
import { findMatchingUntoleratedTaint, toleratesTaint } from "../../../src/k8s/scheduling/taints.ts";
import { fits, podRequests, removeMissingExtendedResources } from "../../../src/k8s/scheduling/node_resources.ts";
import { checkConflict, fitsPorts, usedPorts } from "../../../src/k8s/scheduling/node_ports.ts";
import { admissionCheck, fitsNodeName } from "../../../src/k8s/scheduling/admission_check.ts";

const node = (over: Partial<Node> = {}): Node => ({
  name: "worker-1",
  labels: { ...kubeletNodeLabels("worker-1"), disktype: "ssd", "example.com/gen": "5" },
  taints: [],
  allocatable: { milliCPU: 4000, memory: 8 * 2 ** 30, ephemeralStorage: 10 * 2 ** 30, allowedPodNumber: 3, scalarResources: { "example.com/gpu": 2 } },
  ...over,
});

const pod = (spec: Partial<Pod["spec"]> = {}, name = "p"): Pod => ({
  metadata: { name, namespace: "default" },
  spec: { containers: [{ name: "c", image: "i" }], ...spec },
});

const requests = (r: Record<string, string>, extra: Partial<Pod["spec"]> = {}): Pod => pod({ containers: [{ name: "c", image: "i", resources: { requests: r } }], ...extra });

describe("node affinity (GetRequiredNodeAffinity.Match)", () => {
  const term = (matchExpressions: Array<{ key: string; operator: string; values?: string[] }>, matchFields?: Array<{ key: string; operator: string; values?: string[] }>) => ({
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions, ...(matchFields ? { matchFields } : {}) }] } } },
  });
  it.each<[string, Partial<Pod["spec"]>, boolean]>([
    ["no selector and no affinity", {}, true],
    ["nodeSelector present with the same value", { nodeSelector: { disktype: "ssd" } }, true],
    ["nodeSelector with another value", { nodeSelector: { disktype: "hdd" } }, false],
    ["nodeSelector on a label the node lacks", { nodeSelector: { zone: "a" } }, false],
    ["nodeSelector on the kubelet's own hostname label", { nodeSelector: { "kubernetes.io/hostname": "worker-1" } }, true],
    ["In", term([{ key: "disktype", operator: "In", values: ["nvme", "ssd"] }]), true],
    ["In on a missing label", term([{ key: "zone", operator: "In", values: ["a"] }]), false],
    ["NotIn on a missing label", term([{ key: "zone", operator: "NotIn", values: ["a"] }]), true],
    ["NotIn with the node's value", term([{ key: "disktype", operator: "NotIn", values: ["ssd"] }]), false],
    ["Exists", term([{ key: "disktype", operator: "Exists" }]), true],
    ["DoesNotExist", term([{ key: "disktype", operator: "DoesNotExist" }]), false],
    ["Gt", term([{ key: "example.com/gen", operator: "Gt", values: ["4"] }]), true],
    ["Lt", term([{ key: "example.com/gen", operator: "Lt", values: ["4"] }]), false],
    ["Gt with a value that is no integer: the term does not parse, nothing matches", term([{ key: "example.com/gen", operator: "Gt", values: ["four"] }]), false],
    ["In without values: does not parse", term([{ key: "disktype", operator: "In" }]), false],
    ["an unknown operator: does not parse", term([{ key: "disktype", operator: "Equals", values: ["ssd"] }]), false],
    ["expressions ANDed", term([{ key: "disktype", operator: "In", values: ["ssd"] }, { key: "zone", operator: "Exists" }]), false],
    ["matchFields metadata.name In this node", term([], [{ key: "metadata.name", operator: "In", values: ["worker-1"] }]), true],
    ["matchFields metadata.name In another node", term([], [{ key: "metadata.name", operator: "In", values: ["worker-2"] }]), false],
    ["an empty term selects nothing", { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{}] } } } }, false],
    ["no terms at all selects nothing", { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } } }, false],
    ["terms ORed: a broken term and a matching one", { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [
      { matchExpressions: [{ key: "disktype", operator: "Gt", values: ["x"] }] }, { matchExpressions: [{ key: "disktype", operator: "In", values: ["ssd"] }] },
    ] } } } }, true],
    ["nodeSelector and affinity both needed", { nodeSelector: { disktype: "hdd" }, ...term([{ key: "disktype", operator: "Exists" }]) }, false],
  ])("%s", (_name, spec, want) => {
    expect(requiredNodeAffinityMatches(pod(spec), node())).toBe(want);
  });

  it("a requirement reads a missing label as absent, not as the empty value", () => {
    expect(requirementMatches({ key: "x", operator: "In", values: [""] }, {})).toBe(false);
    expect(requirementMatches({ key: "x", operator: "In", values: [""] }, { x: "" })).toBe(true);
  });
});

describe("taints and tolerations (ToleratesTaint, FindMatchingUntoleratedTaint)", () => {
  const taint: Taint = { key: "dedicated", value: "gpu", effect: "NoExecute" };
  it.each<[string, Toleration, boolean]>([
    ["Equal with the value", { key: "dedicated", operator: "Equal", value: "gpu", effect: "NoExecute" }, true],
    ["empty operator means Equal", { key: "dedicated", value: "gpu" }, true],
    ["Equal with another value", { key: "dedicated", operator: "Equal", value: "db" }, false],
    ["Exists on the key", { key: "dedicated", operator: "Exists" }, true],
    ["Exists with no key tolerates everything", { operator: "Exists" }, true],
    ["another effect", { key: "dedicated", operator: "Exists", effect: "NoSchedule" }, false],
    ["another key", { key: "other", operator: "Exists" }, false],
    ["an unknown operator", { key: "dedicated", operator: "Gt", value: "1" }, false],
  ])("%s", (_name, toleration, want) => {
    expect(toleratesTaint(toleration, taint)).toBe(want);
  });

  it("finds the first untolerated taint the filter lets through, in the node's order", () => {
    const taints: Taint[] = [
      { key: "a", effect: "NoSchedule" },
      { key: "b", effect: "NoExecute" },
      { key: "c", effect: "NoExecute" },
    ];
    const noExecute = (t: Taint) => t.effect === "NoExecute";
    expect(findMatchingUntoleratedTaint(taints, [], noExecute)).toEqual(taints[1]);
    expect(findMatchingUntoleratedTaint(taints, [{ key: "b", operator: "Exists" }], noExecute)).toEqual(taints[2]);
    expect(findMatchingUntoleratedTaint(taints, [{ operator: "Exists", effect: "NoExecute" }], noExecute)).toBeNull();
  });
});

describe("resources (noderesources.Fits, PodRequests)", () => {
  it.each<[string, Pod, Pod[], string[]]>([
    ["fits", requests({ cpu: "1", memory: "1Gi" }), [], []],
    ["too many pods comes first", requests({ cpu: "10" }), [pod({}, "a"), pod({}, "b"), pod({}, "c")], ["pods", "cpu"]],
    ["cpu over what the others leave", requests({ cpu: "2" }), [requests({ cpu: "2500m" }, {})], ["cpu"]],
    ["memory", requests({ memory: "9Gi" }), [], ["memory"]],
    ["ephemeral-storage", requests({ "ephemeral-storage": "11Gi" }), [], ["ephemeral-storage"]],
    ["an extended resource the node has", requests({ "example.com/gpu": "3" }), [], ["example.com/gpu"]],
    ["a pod that asks for nothing is checked only against the pod count", pod(), [requests({ cpu: "5" })], []],
    ["a request of one resource checks them all (cpu used past allocatable)", requests({ memory: "1Mi" }), [requests({ cpu: "5" })], ["cpu"]],
  ])("%s", (_name, p, others, want) => {
    expect(fits(p, others, node().allocatable, { sidecars: true }).map((r) => r.resourceName)).toEqual(want);
  });

  it("reports the numbers of InsufficientResourceError", () => {
    expect(fits(requests({ cpu: "2" }), [requests({ cpu: "2500m" })], node().allocatable, { sidecars: false })).toEqual([
      { resourceName: "cpu", reason: "Insufficient cpu", requested: 2000, used: 2500, capacity: 4000 },
    ]);
  });

  it("counts the largest init container, and with sidecars their sum beside the containers", () => {
    const p: Pod = pod({
      initContainers: [
        { name: "side", image: "i", restartPolicy: "Always", resources: { requests: { cpu: "500m" } } },
        { name: "init", image: "i", resources: { requests: { cpu: "2" } } },
      ],
      containers: [{ name: "c", image: "i", resources: { requests: { cpu: "1" } } }],
    });
    // Sidecars: max(1 + 0.5, 2 + 0.5) = 2.5; without: max(1, max(0.5, 2)) = 2.
    expect(podRequests(p, { sidecars: true }).milliCPU).toBe(2500);
    expect(podRequests(p, { sidecars: false }).milliCPU).toBe(2000);
  });

  it("drops requests of extended resources the node does not list", () => {
    const p = requests({ cpu: "1", "example.com/fpga": "1", "example.com/gpu": "1" });
    expect(removeMissingExtendedResources(p, node().allocatable).spec.containers[0]!.resources!.requests).toEqual({ cpu: "1", "example.com/gpu": "1" });
  });
});

describe("host ports (nodeports.Fits, HostPortInfo.CheckConflict)", () => {
  const withPorts = (...ports: Array<{ containerPort: number; hostPort?: number; hostIP?: string; protocol?: "TCP" | "UDP" }>) => pod({ containers: [{ name: "c", image: "i", ports }] });
  it.each<[string, Pod, Pod[], boolean]>([
    ["no host ports", withPorts({ containerPort: 80 }), [withPorts({ containerPort: 80 })], true],
    ["the same host port", withPorts({ containerPort: 80, hostPort: 8080 }), [withPorts({ containerPort: 81, hostPort: 8080 })], false],
    ["another protocol", withPorts({ containerPort: 80, hostPort: 8080, protocol: "UDP" }), [withPorts({ containerPort: 81, hostPort: 8080 })], true],
    ["two specific IPs", withPorts({ containerPort: 80, hostPort: 8080, hostIP: "10.0.0.1" }), [withPorts({ containerPort: 81, hostPort: 8080, hostIP: "10.0.0.2" })], true],
    ["a specific IP against 0.0.0.0", withPorts({ containerPort: 80, hostPort: 8080, hostIP: "10.0.0.1" }), [withPorts({ containerPort: 81, hostPort: 8080 })], false],
    ["0.0.0.0 against a specific IP", withPorts({ containerPort: 80, hostPort: 8080 }), [withPorts({ containerPort: 81, hostPort: 8080, hostIP: "10.0.0.2" })], false],
  ])("%s", (_name, p, others, want) => {
    expect(fitsPorts(p, others)).toBe(want);
  });

  it("ignores a port of 0 or less", () => {
    expect(checkConflict(usedPorts([]), "", "TCP", 0)).toBe(false);
  });
});

describe("AdmissionCheck: resources, node affinity, node name, host ports, in that order", () => {
  const busy = pod({ containers: [{ name: "c", image: "i", ports: [{ containerPort: 1, hostPort: 9000 }] }] }, "busy");
  const bad: Pod = pod({
    nodeName: "worker-2",
    nodeSelector: { disktype: "hdd" },
    containers: [{ name: "c", image: "i", ports: [{ containerPort: 1, hostPort: 9000 }], resources: { requests: { cpu: "9" } } }],
  });
  it("lists every failure with includeAllFailures, only the first without", () => {
    const all = admissionCheck(bad, node(), [busy], true, { sidecars: true });
    expect(all.map((r) => ("insufficientResource" in r ? r.insufficientResource.resourceName : r.name))).toEqual(["cpu", "NodeAffinity", "NodeName", "NodePorts"]);
    expect(admissionCheck(bad, node(), [busy], false, { sidecars: true })).toHaveLength(1);
  });

  it("a pod bound to no node fits any node name", () => {
    expect(fitsNodeName(pod(), node())).toBe(true);
    expect(fitsNodeName(pod({ nodeName: "worker-1" }), node())).toBe(true);
  });
});
