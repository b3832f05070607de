// Manifests as a cluster treats them (issue 25): each case is a manifest like the ones users bring,
// written here for the test, and what a real apiserver and kubelet would make of it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkScenarioText, formatIssue, loadScenarioText } from "../../../src/scenario/index.ts";
import { simulate } from "../../../src/simulate.ts";
import type { Scenario } from "../../../src/scenario/resolve.ts";

const errors = (text: string, file = "m.yaml", opts = {}) => {
  const r = checkScenarioText(text, file, opts);
  return r.ok ? [] : r.issues.map(formatIssue);
};

/** The apiserver's and the kubelet's last word on each pod: its phase, and the reason when rejected. */
function finalPods(scenario: Scenario): Record<string, string> {
  const r = simulate(scenario, { scenarioFile: "x.yaml" });
  const out: Record<string, string> = {};
  for (const rec of r.records ?? []) {
    if (rec.component === "apiserver" && rec.kind === "PodView" && typeof rec.pod === "string") out[rec.pod] = `${String(rec.phase)} ${String(rec.status)}`;
  }
  return out;
}

describe("null is unset, as the apiserver decodes it", () => {
  const pod = (spec: string, meta = "") => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n${meta}spec:\n${spec}`;
  const container = (extra: string) => `  containers:\n  - name: app\n    image: nginx:1.27\n${extra}`;

  it.each<[string, string, string, (s: Scenario) => unknown, unknown]>([
    ["a map (resources.limits: null)", container("    resources:\n      limits: null\n      requests: { cpu: 50m }\n"), "", (s) => s.pods[0]!.manifest.spec.containers[0]!.resources, { requests: { cpu: "50m" } }],
    ["a map (metadata.annotations: null)", container(""), "  annotations: null\n", (s) => s.pods[0]!.manifest.metadata.annotations, undefined],
    ["a map's value (labels: {tier: null}) is the empty string", container(""), "  labels: { tier: null }\n", (s) => s.pods[0]!.manifest.metadata.labels, { tier: "" }],
    ["a quantity in a resource list is zero", container("    resources: { requests: { cpu: null } }\n"), "", (s) => s.pods[0]!.manifest.spec.containers[0]!.resources, { requests: { cpu: "0" } }],
    ["a list (env: null)", container("    env: null\n    args: null\n"), "", (s) => [s.pods[0]!.manifest.spec.containers[0]!.env, s.pods[0]!.manifest.spec.containers[0]!.args], [undefined, undefined]],
    ["a scalar (imagePullPolicy: null) takes its default", container("    imagePullPolicy: null\n"), "", (s) => s.pods[0]!.manifest.spec.containers[0]!.imagePullPolicy, "IfNotPresent"],
    ["a pointer (terminationGracePeriodSeconds: null) takes its default", `  terminationGracePeriodSeconds: null\n${container("")}`, "", (s) => s.pods[0]!.manifest.spec.terminationGracePeriodSeconds, 30],
    ["a struct (securityContext: null, readinessProbe: null)", container("    readinessProbe: null\n    securityContext: null\n"), "", (s) => s.pods[0]!.manifest.spec.containers[0]!.readinessProbe, undefined],
  ])("%s", (_name, spec, meta, read, want) => {
    const loaded = loadScenarioText(pod(spec, meta), "p.yaml");
    expect(read(loaded.scenario)).toEqual(want);
    // A null field is unset: nothing to list as unmodelled.
    expect(loaded.ignored.map((i) => i.field)).toEqual([]);
  });

  it("a null item of a list is its zero value, which the apiserver then validates", () => {
    expect(errors(pod(`  containers:\n  - null\n`))).toEqual(["m.yaml:7:5: spec.containers[0].name: missing required field; expected a string"]);
  });

  it("in a workload's template and its own fields alike", () => {
    const deploy = `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web, annotations: null }\nspec:\n  replicas: null\n  selector: { matchLabels: { app: web } }\n  template:\n    metadata: { labels: { app: web }, annotations: null }\n    spec:\n      nodeSelector: null\n      containers:\n      - { name: app, image: "nginx:1.27", env: null, resources: { limits: null } }\n`;
    const loaded = loadScenarioText(deploy, "d.yaml");
    expect(loaded.scenario.pods[0]!.manifest.spec.containers[0]!.resources).toEqual({});
    expect(loaded.ignored).toEqual([]);
  });
});

describe("apiVersion: what the scenario's release serves", () => {
  const deployment = (apiVersion: string) => `apiVersion: ${apiVersion}\nkind: Deployment\nmetadata: { name: web }\nspec:\n  selector: { matchLabels: { app: web } }\n  template:\n    metadata: { labels: { app: web } }\n    spec: { containers: [{ name: app, image: "nginx:1.27" }] }\n`;
  const cronJob = (apiVersion: string) => `apiVersion: ${apiVersion}\nkind: CronJob\nmetadata: { name: tick }\nspec:\n  schedule: "*/5 * * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec: { restartPolicy: OnFailure, containers: [{ name: c, image: "busybox:1.36" }] }\n`;

  it.each<[string, string, string | undefined, string]>([
    ["apps/v1beta1 Deployment, gone since 1.16", deployment("apps/v1beta1"), undefined,
      'm.yaml:1:13: apiVersion: no matches for kind "Deployment" in version "apps/v1beta1": the apiserver no longer serves apps/v1beta1 Deployment from Kubernetes 1.16 (this scenario\'s kubelet is 1.30); use apps/v1'],
    ["extensions/v1beta1 Deployment", deployment("extensions/v1beta1"), "1.19",
      'm.yaml:1:13: apiVersion: no matches for kind "Deployment" in version "extensions/v1beta1": the apiserver no longer serves extensions/v1beta1 Deployment from Kubernetes 1.16 (this scenario\'s kubelet is 1.19); use apps/v1'],
    ["a group that has no Deployment", deployment("foo.example/v9"), undefined,
      'm.yaml:1:13: apiVersion: no matches for kind "Deployment" in version "foo.example/v9": Deployment is not in group "foo.example" (use apps/v1)'],
    ["batch/v1beta1 CronJob under 1.25", cronJob("batch/v1beta1"), "1.25",
      'm.yaml:1:13: apiVersion: no matches for kind "CronJob" in version "batch/v1beta1": the apiserver no longer serves batch/v1beta1 CronJob from Kubernetes 1.25 (this scenario\'s kubelet is 1.25); use batch/v1'],
    ["batch/v1 CronJob under 1.20, before it was served", cronJob("batch/v1"), "1.20",
      'm.yaml:1:13: apiVersion: no matches for kind "CronJob" in version "batch/v1": the apiserver serves batch/v1 CronJob from Kubernetes 1.21 (this scenario\'s kubelet is 1.20); use batch/v1beta1'],
  ])("%s is refused where it is written, naming the replacement", (_name, text, version, want) => {
    expect(errors(text, "m.yaml", version === undefined ? {} : { kubeletVersion: version })).toEqual([want]);
  });

  it("batch/v1beta1 CronJob runs under 1.24, which still serves it", () => {
    expect(errors(cronJob("batch/v1beta1"), "m.yaml", { kubeletVersion: "1.24" })).toEqual([]);
  });

  it("an object that gives no pod is checked too: policy/v1beta1 PodDisruptionBudget beside a Deployment under 1.30", () => {
    const pdb = "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: { name: web }\nspec: { minAvailable: 1 }\n";
    expect(errors(`${deployment("apps/v1")}---\n${pdb}`)).toEqual([
      'm.yaml:10:13: apiVersion: no matches for kind "PodDisruptionBudget" in version "policy/v1beta1": the apiserver no longer serves policy/v1beta1 PodDisruptionBudget from Kubernetes 1.25 (this scenario\'s kubelet is 1.30); use policy/v1',
    ]);
  });

  it("an object without apiVersion is refused, as kubectl refuses it", () => {
    expect(errors("kind: Pod\nmetadata: { name: p }\nspec: { containers: [{ name: c, image: i }] }\n")).toEqual([
      "m.yaml:1:1: apiVersion: apiVersion not set: kubectl refuses an object without it (a Pod is v1)",
    ]);
  });
});

describe("the kubelet's own admission: a node that does not fit the pod rejects it", () => {
  const scenario = (node: string, manifests: string[]) =>
    `name: admission\n${node}pods:\n${manifests.map((m) => `  - manifest:\n${m.replace(/^/gm, "      ")}\n`).join("")}timeline:\n${manifests.map((_, i) => `  - { at: ${i}s, create: p${i} }\n`).join("")}until: 30s\n`;
  const pod = (i: number, spec: string) => `apiVersion: v1\nkind: Pod\nmetadata: { name: p${i} }\nspec:\n${spec}  containers: [{ name: c, image: "nginx:1.27" }]`;
  const portPod = (i: number) => `apiVersion: v1\nkind: Pod\nmetadata: { name: p${i} }\nspec:\n  containers: [{ name: c, image: "nginx:1.27", ports: [{ containerPort: 80, hostPort: 8080 }] }]`;

  it.each<[string, string, string[], Record<string, string>]>([
    ["a nodeSelector the node's labels lack", "", [pod(0, "  nodeSelector: { disktype: ssd }\n")], { "default/p0": "Failed NodeAffinity" }],
    ["the same pod on a node with the label", "node: { labels: { disktype: ssd } }\n", [pod(0, "  nodeSelector: { disktype: ssd }\n")], { "default/p0": "Running Running" }],
    ["required node affinity on the kubelet's own hostname label", "node: { name: worker-2 }\n",
      [pod(0, "  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: kubernetes.io/hostname, operator: In, values: [worker-1] }] }] } } }\n")],
      { "default/p0": "Failed NodeAffinity" }],
    ["a NoExecute taint the pod does not tolerate", "node: { taints: [{ key: dedicated, value: gpu, effect: NoExecute }] }\n", [pod(0, "")], { "default/p0": "Failed TaintToleration" }],
    ["a NoSchedule taint: the kubelet does not read it", "node: { taints: [{ key: dedicated, value: gpu, effect: NoSchedule }] }\n", [pod(0, "")], { "default/p0": "Running Running" }],
    ["a host port the first pod holds", "", [portPod(0), portPod(1)], { "default/p0": "Running Running", "default/p1": "Failed NodePorts" }],
    ["an extended resource beyond the node's capacity", 'node: { capacity: { "example.com/gpu": 1 } }\n',
      [pod(0, "").replace("image: \"nginx:1.27\" }", "image: \"nginx:1.27\", resources: { requests: { example.com/gpu: 2 }, limits: { example.com/gpu: 2 } } }")],
      { "default/p0": "Failed OutOfexample.com/gpu" }],
  ])("%s", (_name, node, manifests, want) => {
    expect(finalPods(loadScenarioText(scenario(node, manifests), "a.yaml").scenario)).toEqual(want);
  });

  it("docs/scenarios.md's node example does what the page says: the tolerating pod runs, the other is rejected", () => {
    const guide = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "scenarios.md"), "utf8");
    const text = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((t) => t.startsWith("name: gpu-node"))!;
    const scenario = loadScenarioText(text, "gpu-node.yaml").scenario;
    expect(simulate(scenario, { scenarioFile: "gpu-node.yaml" }).ok).toBe(true);
    expect(finalPods(scenario)["default/stray"]).toBe("Failed TaintToleration");
  });

  it("node.name and kubelet.nodeName name one node; kubelet.allocatable is node.capacity's older spelling", () => {
    expect(errors("name: n\nkubelet: { nodeName: a, allocatable: { cpu: '2' } }\nnode: { name: b, capacity: { cpu: '3' } }\n", "n.yaml")).toEqual([
      'n.yaml:2:45: kubelet.allocatable.cpu: node.capacity.cpu says it too: kubelet.allocatable is the older place for the node\'s cpu and memory; give one of them',
      'n.yaml:3:15: node.name: expected the same name as kubelet.nodeName ("a"), found "b": both name the one node; give one of them',
    ]);
    const s = loadScenarioText("name: n\nkubelet: { allocatable: { cpu: '2' } }\nnode: { name: b, labels: { disktype: ssd } }\n").scenario;
    expect([s.kubelet.nodeName, s.node.capacity.cpuMilli]).toEqual(["b", 2000]);
    expect(s.node.labels).toEqual({
      "beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": "b", "kubernetes.io/os": "linux", disktype: "ssd",
    });
  });
});

describe("a pod that runs to completion is expected to complete, not to stay Ready", () => {
  const template = "spec:\n  restartPolicy: Never\n  containers:\n  - name: task\n    image: busybox:1.36\n    command: [sh, -c, 'echo work; sleep 12']\n";
  const dump = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: nightly-report-28xyz\n  ownerReferences: [{ apiVersion: batch/v1, kind: Job, name: nightly-report, uid: u-1, controller: true }]\n${template}`;
  const job = `apiVersion: batch/v1\nkind: Job\nmetadata: { name: nightly-report }\nspec:\n  template:\n${template.replace(/^/gm, "    ")}`;

  it.each<[string, string]>([["a pod owned by a Job", dump], ["the same template as a Job", job]])("%s: its command exits after its sleep and the pod succeeds", (_name, text) => {
    const { scenario, built } = loadScenarioText(text, "t.yaml");
    expect(scenario.expect.map((e) => e.condition.phase)).toEqual(["Succeeded"]);
    expect(Object.values(scenario.pods[0]!.behaviour).map((b) => b.then.exitAfterMs)).toEqual([12_000]);
    expect(built!.assumptions.join("\n")).toMatch(/(owned by Job nightly-report: runs to completion \(task exits 0 after 12s\)|Job nightly-report \(line 1\))/);
    expect(Object.values(finalPods(scenario))).toEqual(["Succeeded Completed"]);
  });

  it("a pod with restartPolicy Never and no owner too; a command that never ends keeps it Running, expected Ready", () => {
    const once = "apiVersion: v1\nkind: Pod\nmetadata: { name: once }\nspec:\n  restartPolicy: OnFailure\n  containers: [{ name: c, image: i }]\n";
    expect(loadScenarioText(once, "o.yaml").scenario.expect[0]!.condition).toEqual({ pod: "default/once", phase: "Succeeded" });
    const forever = once.replace("image: i }", "image: i, command: [sleep, infinity] }");
    expect(loadScenarioText(forever, "f.yaml").scenario.expect[0]!.condition).toEqual({ pod: "default/once", conditions: { Ready: "True" } });
  });

  it("a Job-owned pod in a scenario exits by default too, unless the scenario says what it does", () => {
    const s = `name: s\npods:\n  - manifest:\n${dump.replace(/^/gm, "      ")}\n    behaviour: {}\n`;
    expect(loadScenarioText(s).scenario.pods[0]!.behaviour.task!.then.exitAfterMs).toBe(12_000);
    const told = s.replace("behaviour: {}", "behaviour: { task: { exitAfter: 1s, exitCode: 3 } }");
    expect(loadScenarioText(told).scenario.pods[0]!.behaviour.task!.then).toMatchObject({ exitAfterMs: 1000, exitCode: 3 });
  });
});

describe("a multi-node dump, mirror pods, Rollouts", () => {
  const bound = (name: string, node: string) => `- apiVersion: v1\n  kind: Pod\n  metadata: { name: ${name} }\n  spec: { nodeName: ${node}, containers: [{ name: c, image: "nginx:1.27" }] }\n`;
  const list = `apiVersion: v1\nkind: List\nitems:\n${bound("a", "worker-1")}${bound("b", "worker-2")}${bound("c", "worker-2")}`;

  it("pods bound to two nodes run as a cluster of those nodes, each pod on its own; --node still picks one", () => {
    expect(errors(list, "l.yaml")).toEqual([]);
    const cluster = loadScenarioText(list, "l.yaml");
    expect(cluster.scenario.nodes?.map((n) => n.node.name)).toEqual(["worker-1", "worker-2"]);
    expect(cluster.built!.assumptions).toContain("cluster: the pods are bound to 2 nodes: runs as a cluster of 2 nodes, worker-1, worker-2 (nodes:, docs/cluster.md)");
    const ran = simulate(cluster.scenario, { scenarioFile: "l.yaml" });
    const nodeOf: Record<string, string> = {};
    for (const rec of ran.records ?? []) if (rec.kind === "PodView" && rec.phase === "Running") nodeOf[String(rec.pod)] = String(rec.node);
    expect(nodeOf).toEqual({ "default/a": "worker-1", "default/b": "worker-2", "default/c": "worker-2" });
    expect(ran.ok).toBe(true);
    const { scenario, built } = loadScenarioText(list, "l.yaml", { nodeName: "worker-2" });
    expect([scenario.kubelet.nodeName, scenario.pods.map((p) => p.key)]).toEqual(["worker-2", ["default/b", "default/c"]]);
    expect(built!.assumptions).toContain("skipped Pod a (line 4): bound to node worker-1, not worker-2");
  });

  it("a mirror pod dump without nodeName: its Node owner names the node, so the static pod gets its own name back", () => {
    const mirror = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-apiserver-cp-1\n  namespace: kube-system\n  annotations: { kubernetes.io/config.mirror: abc }\n  ownerReferences: [{ apiVersion: v1, kind: Node, name: cp-1, uid: n-1, controller: true }]\nspec:\n  containers: [{ name: kube-apiserver, image: registry.k8s.io/kube-apiserver:v1.30.0 }]\n";
    const { scenario } = loadScenarioText(mirror, "m.yaml");
    expect([scenario.kubelet.nodeName, scenario.pods[0]!.name]).toEqual(["cp-1", "kube-apiserver"]);
    // Without the owner, the kubeadm component's name still says it.
    expect(loadScenarioText(mirror.replace(/  ownerReferences.*\n/, ""), "m.yaml").scenario.kubelet.nodeName).toBe("cp-1");
    expect(finalPods(scenario)).toEqual({ "kube-system/kube-apiserver-cp-1": "Running Running" });
  });

  it("an Argo Rollout with spec.template is read; one that points at a Deployment is skipped, saying so", () => {
    const rollout = "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: { name: checkout }\nspec:\n  replicas: 3\n  strategy: { canary: { steps: [{ setWeight: 20 }] } }\n  selector: { matchLabels: { app: checkout } }\n  template:\n    metadata: { labels: { app: checkout } }\n    spec: { containers: [{ name: app, image: \"nginx:1.27\" }] }\n";
    const { scenario, ignored } = loadScenarioText(rollout, "r.yaml");
    expect(scenario.pods[0]!.manifest.metadata.labels).toHaveProperty("rollouts-pod-template-hash");
    expect(ignored.map((i) => i.field)).toEqual(["Rollout spec.replicas", "Rollout spec.strategy"]);
    const byRef = "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: { name: checkout }\nspec:\n  workloadRef: { apiVersion: apps/v1, kind: Deployment, name: checkout }\n";
    expect(errors(byRef, "r.yaml")[0]).toMatch(/^r\.yaml:2:7: kind: Rollout has no pod here: its pods come from the Deployment checkout that spec\.workloadRef names/);
    const crd = "apiVersion: example.com/v1\nkind: WebApp\nmetadata: { name: w }\nspec: { template: { spec: { containers: [] } } }\n";
    expect(errors(crd, "c.yaml")[0]).toMatch(/a custom resource \(example\.com\/v1 WebApp\): it has a pod template, but kubelet-sim does not know what its controller makes of it/);
  });
});

describe("a plain manifest file that needs a cluster runs as one (docs/manifests.md)", () => {
  const deployment = (replicas: number) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\nspec:\n  replicas: ${replicas}\n  selector: { matchLabels: { app: web } }\n  template:\n    metadata: { labels: { app: web } }\n    spec: { containers: [{ name: c, image: "nginx:1.27" }] }\n`;
  const running = (scenario: Scenario) => Object.values(finalPods(scenario)).filter((s) => s.startsWith("Running")).length;

  it.each([
    [3, ["node-1"]],
    [1, undefined],
    [0, undefined],
    [111, ["node-1", "node-2"]],
  ])("a Deployment of replicas %d: nodes %j", (replicas, nodes) => {
    const { scenario, built } = loadScenarioText(deployment(replicas), "d.yaml");
    expect(scenario.nodes?.map((n) => n.node.name)).toEqual(nodes);
    expect(built!.assumptions.some((a) => a.startsWith("cluster: Deployment web"))).toBe(nodes !== undefined);
  });

  it("replicas 3 runs three pods, by the ReplicaSet controller", () => {
    expect(running(loadScenarioText(deployment(3), "d.yaml").scenario)).toBe(3);
  });

  it("a NonIndexed Job of completions 3 is run by the Job controller; an Indexed one stays one pod on one node", () => {
    const job = (extra: string) => `apiVersion: batch/v1\nkind: Job\nmetadata: { name: j }\nspec:\n  completions: 3\n${extra}  template:\n    spec: { restartPolicy: Never, containers: [{ name: c, image: busybox, command: [sh, -c, "sleep 1"] }] }\n`;
    expect(loadScenarioText(job(""), "j.yaml").scenario.nodes?.length).toBe(1);
    expect(loadScenarioText(job("  completionMode: Indexed\n"), "j.yaml").scenario.nodes).toBeUndefined();
  });

  it("--node with a Deployment of 3: a cluster of that one node", () => {
    const { scenario } = loadScenarioText(deployment(3), "d.yaml", { nodeName: "w-1" });
    expect(scenario.nodes?.map((n) => n.node.name)).toEqual(["w-1"]);
  });
});
