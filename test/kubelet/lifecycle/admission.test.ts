// The predicate admit handler (pkg/kubelet/lifecycle/predicate.go) as each release ran it: which
// checks run, which failure is reported (the first), and what its reason and message say.
import { describe, expect, it } from "vitest";
import type { Pod } from "../../../src/k8s/pod.ts";
import { kubeletNodeLabels, type Node } from "../../../src/k8s/node.ts";
import { canAdmitPod } from "../../../src/kubelet/lifecycle/admission.ts";

const node: Node = {
  name: "worker-1",
  labels: { ...kubeletNodeLabels("worker-1"), disktype: "hdd" },
  taints: [{ key: "dedicated", value: "batch", effect: "NoExecute" }, { key: "soft", effect: "NoSchedule" }],
  allocatable: { milliCPU: 2000, memory: 4 * 2 ** 30, ephemeralStorage: 2 ** 30, allowedPodNumber: 10, scalarResources: {} },
};

const tolerateAll = [{ operator: "Exists" }];
const pod = (spec: Partial<Pod["spec"]> = {}, meta: Partial<Pod["metadata"]> = {}): Pod => ({
  metadata: { name: "p", namespace: "default", ...meta },
  spec: { containers: [{ name: "c", image: "i" }], tolerations: tolerateAll, ...spec },
});
const admit = (version: string, p: Pod, others: Pod[] = []) => canAdmitPod({ node, version, sidecars: true }, others, p);

describe("the kubelet's predicate admit handler", () => {
  it.each<[string, string, Pod, { Admit: boolean; Reason: string; Message: string }]>([
    ["a pod that fits", "1.30", pod(), { Admit: true, Reason: "", Message: "" }],
    ["node selector, 1.30: the predicate's name only", "1.30", pod({ nodeSelector: { disktype: "ssd" } }),
      { Admit: false, Reason: "NodeAffinity", Message: "Predicate NodeAffinity failed" }],
    ["node selector, 1.31: with its description (#125498)", "1.31", pod({ nodeSelector: { disktype: "ssd" } }),
      { Admit: false, Reason: "NodeAffinity", Message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector" }],
    ["required node affinity, 1.19", "1.19", pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: "disktype", operator: "In", values: ["ssd"] }] }] } } } }),
      { Admit: false, Reason: "NodeAffinity", Message: "Predicate NodeAffinity failed" }],
    ["bound to another node", "1.31", pod({ nodeName: "worker-2" }),
      { Admit: false, Reason: "NodeName", Message: "Predicate NodeName failed: node(s) didn't match the requested node name" }],
    ["resources come before affinity", "1.31", pod({ nodeSelector: { disktype: "ssd" }, containers: [{ name: "c", image: "i", resources: { requests: { cpu: "3" } } }] }),
      { Admit: false, Reason: "OutOfcpu", Message: "Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000" }],
    ["ephemeral storage", "1.30", pod({ containers: [{ name: "c", image: "i", resources: { requests: { "ephemeral-storage": "2Gi" } } }] }),
      { Admit: false, Reason: "OutOfephemeral-storage", Message: `Node didn't have enough resource: ephemeral-storage, requested: ${2 * 2 ** 30}, used: 0, capacity: ${2 ** 30}` }],
    ["an untolerated NoExecute taint, 1.24 (#101218)", "1.24", pod({ tolerations: [] }),
      { Admit: false, Reason: "TaintToleration", Message: "Predicate TaintToleration failed" }],
    ["an untolerated NoExecute taint, 1.23: not checked yet", "1.23", pod({ tolerations: [] }), { Admit: true, Reason: "", Message: "" }],
    ["the NoExecute taint tolerated, the NoSchedule one not: the kubelet reads only NoExecute", "1.31",
      pod({ tolerations: [{ key: "dedicated", operator: "Equal", value: "batch", effect: "NoExecute" }] }), { Admit: true, Reason: "", Message: "" }],
    ["a static pod is exempt from the taint check", "1.31",
      pod({ tolerations: [] }, { annotations: { "kubernetes.io/config.source": "file" } }), { Admit: true, Reason: "", Message: "" }],
    ["the taint comes after every other predicate", "1.31", pod({ tolerations: [], nodeName: "worker-2" }),
      { Admit: false, Reason: "NodeName", Message: "Predicate NodeName failed: node(s) didn't match the requested node name" }],
    ["a pod labelled for another OS, 1.23 (#105292)", "1.23", pod({}, { labels: { "kubernetes.io/os": "windows" } }),
      { Admit: false, Reason: "PodOSSelectorNodeLabelDoesNotMatch", Message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label" }],
    ["a pod labelled for another OS, 1.22: not checked yet", "1.22", pod({}, { labels: { "kubernetes.io/os": "windows" } }), { Admit: true, Reason: "", Message: "" }],
    ["spec.os for another OS", "1.25", pod({ os: { name: "windows" } }),
      { Admit: false, Reason: "PodOSNotSupported", Message: "Failed to admit pod as the OS field doesn't match node OS" }],
    ["an extended resource the node does not list is a cluster-level one: not checked", "1.30",
      pod({ containers: [{ name: "c", image: "i", resources: { requests: { "example.com/license": "1" } } }] }), { Admit: true, Reason: "", Message: "" }],
  ])("%s", (_name, version, p, want) => {
    expect(admit(version, p)).toEqual(want);
  });

  it("a host port another admitted pod holds", () => {
    const holder = pod({ containers: [{ name: "c", image: "i", ports: [{ containerPort: 80, hostPort: 80 }] }] });
    expect(admit("1.30", holder, [holder])).toEqual({ Admit: false, Reason: "NodePorts", Message: "Predicate NodePorts failed" });
  });

  it("the pod count: OutOfpods", () => {
    const others = Array.from({ length: 10 }, (_, i) => pod({}, { name: `o${i}` }));
    expect(admit("1.30", pod(), others)).toEqual({ Admit: false, Reason: "OutOfpods", Message: "Node didn't have enough resource: pods, requested: 1, used: 10, capacity: 10" });
  });
});
