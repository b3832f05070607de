// A file is a scenario or manifests: plain manifests run as a built scenario, scenarios take
// workloads and manifestFile, and every problem is one located error in the file it is in.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkScenarioFile, checkScenarioText, formatIssue, loadScenarioFile, loadScenarioText } from "../../../src/scenario/index.ts";
import { scenarioYaml } from "../../../src/scenario/manifest/print.ts";
import { simulate } from "../../../src/simulate.ts";

const POD = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx:1.27\n";
const DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector: { matchLabels: { app: web } }\n  template:\n    metadata:\n      labels: { app: web }\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n";
const errors = (text: string, file = "m.yaml") => {
  const r = checkScenarioText(text, file);
  return r.ok ? [] : r.issues.map(formatIssue);
};

function dir(files: Record<string, string>): string {
  const d = mkdtempSync(join(tmpdir(), "kubelet-sim-manifest-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
  return d;
}

describe("a plain manifest runs as a scenario built around it", () => {
  it("a bare Pod: created at 0s, expected Ready, an until of at least a minute, the assumptions said", () => {
    const { scenario, built } = loadScenarioText(POD, "pod.yaml");
    expect(scenario.name).toBe("pod");
    expect(scenario.timeline).toEqual([{ atMs: 0, kind: "create", pod: "default/web" }]);
    expect(scenario.expect).toEqual([{ kind: "eventually", condition: { pod: "default/web", conditions: { Ready: "True" } }, byMs: null }]);
    expect(scenario.untilMs).toBeGreaterThanOrEqual(60_000);
    expect(built!.assumptions.join("\n")).toMatch(/^default\/web: Pod web \(line 1\)\nevery pod created at 0s; containers run until stopped/);
  });

  it("several documents and a List: one pod each, a kind without a pod template skipped with a note", () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n- ${POD.replace(/\n/g, "\n  ").trimEnd()}\n`;
    const text = `${DEPLOYMENT}---\napiVersion: v1\nkind: Service\nmetadata: { name: svc }\nspec: {}\n---\n${list.replace("name: web", "name: other")}`;
    const { scenario, built } = loadScenarioText(text, "all.yaml");
    expect(scenario.pods.map((p) => p.key)).toEqual([expect.stringMatching(/^default\/web-[a-z0-9]+-[a-z0-9]{5}$/), "default/other"]);
    expect(built!.assumptions).toContain("skipped Service svc (line 15): no pod template");
  });

  it("prints as YAML that loads to the same scenario and runs to the same trace", () => {
    const loaded = loadScenarioText(DEPLOYMENT.replace("nginx:1.27", "nginx:1.27\n        readinessProbe: { httpGet: { port: 80 }, initialDelaySeconds: 3 }"), "web.yaml");
    const again = loadScenarioText(scenarioYaml(loaded, "web.yaml"), "web.yaml");
    expect(again.built).toBeNull();
    expect(again.scenario).toEqual(loaded.scenario);
    const hash = (s: typeof loaded.scenario) => simulate(s, { scenarioFile: "web.yaml" }).run.traceHash;
    expect(hash(again.scenario)).toBe(hash(loaded.scenario));
  });
});

describe("bad input: one located error saying what is accepted", () => {
  it("a kind without a pod template", () => {
    expect(errors("apiVersion: v1\nkind: Service\nmetadata: { name: s }\n", "svc.yaml")).toEqual([
      "svc.yaml:2:7: kind: Service has no pod template; kubelet-sim runs pods: expected a Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController or Rollout (or a List of them), or a kubelet-sim scenario",
    ]);
    expect(errors("apiVersion: v1\nkind: ConfigMap\ndata: { a: b }\n")[0]).toMatch(/^m\.yaml:2:7: kind: ConfigMap has no pod template;/);
  });

  it("neither a scenario nor a manifest", () => {
    expect(errors("foo: 1\nbar: 2\n")).toEqual([
      "m.yaml:1:1: expected a kubelet-sim scenario (a mapping with name, pods, timeline, ...) or a Kubernetes manifest (apiVersion and kind: Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController, Rollout), found a mapping with keys foo, bar",
    ]);
  });

  it("a multi-document file with one bad document names that document's line", () => {
    expect(errors(`${POD}---\nmetadata: { name: x }\n---\n${DEPLOYMENT}`)).toEqual([
      "m.yaml:10:1: document 2: expected a Kubernetes object with apiVersion and kind, found a mapping without kind",
    ]);
    // A pod problem in the third document is placed in it, at the template's field.
    const broken = DEPLOYMENT.replace("      - name: app\n        image:", "      - image:");
    expect(errors(`${POD}---\n${broken}`)).toEqual([
      'm.yaml:21:9: spec.template.spec.containers[0].name: missing required field; expected a string',
    ]);
  });

  it("a Job whose pods would restart Always", () => {
    const job = "apiVersion: batch/v1\nkind: Job\nmetadata: { name: j }\nspec:\n  template:\n    spec:\n      restartPolicy: Always\n      containers: [{ name: c, image: i }]\n";
    expect(errors(job)).toEqual([`m.yaml:7:22: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never" (a Job's pods may not restart Always)`]);
  });
});

describe("scenarios take workloads inline and manifests from files", () => {
  const scenario = (pods: string) => `name: s\nuntil: 30s\npods:\n${pods}timeline:\n  - { at: 0s, create: web }\n`;

  it("an inline Deployment: its pod, named by the Deployment in steps, errors at the template's field", () => {
    const inline = `  - manifest:\n${DEPLOYMENT.replace(/^/gm, "      ").trimEnd()}\n`;
    const { scenario: s } = loadScenarioText(scenario(inline), "s.yaml");
    expect(s.timeline[0]).toEqual({ atMs: 0, kind: "create", pod: s.pods[0]!.key });
    expect(s.pods[0]!.manifest.metadata.labels).toMatchObject({ app: "web", "pod-template-hash": expect.any(String) });
    const broken = inline.replace("image: nginx:1.27", "image: 7");
    expect(errors(scenario(broken.replace("image: 7", "image: [x]")), "s.yaml")).toEqual([
      "s.yaml:17:22: pods[0].manifest.spec.template.spec.containers[0].image: expected a string, found a list",
    ]);
  });

  it("manifestFile: read relative to the scenario, errors placed in the manifest file", () => {
    const d = dir({ "s.yaml": scenario("  - manifestFile: deploy.yaml\n"), "deploy.yaml": DEPLOYMENT, "bad.yaml": DEPLOYMENT.replace("name: app", "name: [x]") });
    const loaded = loadScenarioFile(join(d, "s.yaml"));
    expect(loaded.scenario.pods[0]!.key).toMatch(/^default\/web-/);
    expect((loaded.raw.pods as Array<Record<string, unknown>>)[0]).toEqual({ manifest: expect.objectContaining({ kind: "Deployment" }) });
    writeFileSync(join(d, "s.yaml"), scenario("  - manifestFile: bad.yaml\n"));
    const r = checkScenarioFile(join(d, "s.yaml"));
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([`${join(d, "bad.yaml")}:12:15: spec.template.spec.containers[0].name: expected a string, found a list`]);
  });

  it("manifestFile problems: missing, both given, several objects", () => {
    const d = dir({ "two.yaml": `${POD}---\n${DEPLOYMENT}` });
    const check = (pods: string) => {
      writeFileSync(join(d, "s.yaml"), scenario(pods));
      const r = checkScenarioFile(join(d, "s.yaml"));
      return r.ok ? [] : r.issues.map((i) => `${i.line}:${i.col}: ${i.path}: ${i.message}`);
    };
    expect(check("  - manifestFile: nope.yaml\n")).toEqual([`4:19: pods[0].manifestFile: ${join(d, "nope.yaml")}: no such file`]);
    expect(check("  - manifestFile: two.yaml\n")).toEqual([`4:19: pods[0].manifestFile: ${join(d, "two.yaml")} holds 2 objects; a pod entry takes one (give each its own entry, or run the file directly)`]);
    expect(check(`  - manifestFile: two.yaml\n    manifest: { metadata: { name: web }, spec: { containers: [{ name: c }] } }\n`)).toEqual(["4:19: pods[0].manifestFile: expected manifest or manifestFile, not both"]);
  });
});

describe("nothing silent about the node", () => {
  const bound = (kubelet: string) => `name: s\n${kubelet}pods:\n  - manifest: { metadata: { name: web }, spec: { nodeName: worker-3, containers: [{ name: c, image: i }] } }\ntimeline:\n  - { at: 0s, create: web }\n`;

  it("the scenario's node takes the one node the pods are bound to", () => {
    const { scenario, notes, raw } = loadScenarioText(bound(""), "s.yaml");
    expect(scenario.kubelet.nodeName).toBe("worker-3");
    expect(notes).toContain("node: the kubelet runs as node worker-3, the node the manifest binds its pods to (spec.nodeName)");
    expect(raw.node).toEqual({ name: "worker-3" });
  });

  it("a kubelet that names another node: a warning names the pod and both nodes, and the run says why the pod never ran", () => {
    const { scenario, warnings } = loadScenarioText(bound("kubelet: { nodeName: node-1 }\n"), "s.yaml");
    expect(warnings.map(formatIssue)).toEqual([
      "s.yaml:4:60: pods[0].manifest.spec.nodeName: pod default/web is bound to node worker-3 but this kubelet is node node-1: the kubelet never sees it (its watch selects spec.nodeName=node-1); drop spec.nodeName or set node.name",
    ]);
    const r = simulate(scenario);
    expect(r.checks.neverRan).toEqual([{ pod: "default/web", reason: "not-delivered", why: expect.stringContaining("bound to node worker-3 (spec.nodeName), and this kubelet is node node-1") }]);
    expect(r.records!.filter((x) => x.kind === "PodNeverRan").map((x) => x.pod)).toEqual(["default/web"]);
  });
});

describe("a run that did nothing says why", () => {
  const one = (kubelet: string, spec: string, steps = "  - { at: 0s, create: p }\n") =>
    loadScenarioText(`name: s\nuntil: 20s\n${kubelet}pods:\n  - manifest: { metadata: { name: p }, spec: ${spec} }\ntimeline:\n${steps}`, "s.yaml").scenario;

  it.each<[string, string, string, string, RegExp]>([
    ["rejected at admission", "kubelet: { allocatable: { cpu: \"1\" } }\n", '{ containers: [{ name: c, image: i, resources: { requests: { cpu: "2" } } }] }', "rejected", /^the kubelet rejected it at admission \(OutOfcpu: /],
    ["no container started", 'runtime: { images: { "nope:1": { fail: { error: notFound } } } }\n', '{ containers: [{ name: c, image: "nope:1" }] }', "no-container-started", /^no container had started by the end of the run \(20s\); waiting: c (ErrImagePull|ImagePullBackOff); last warning: /],
  ])("%s: a warning at the end and a PodNeverRan record", (_name, kubelet, spec, reason, why) => {
    const scenario = one(kubelet, spec);
    const r = simulate(scenario);
    expect(r.checks.neverRan).toEqual([{ pod: "default/p", reason, why: expect.stringMatching(why) }]);
    expect(r.records!.filter((x) => x.kind === "PodNeverRan")).toHaveLength(1);
  });

  it("not when the scenario deleted the pod before it started, nor when it ran", () => {
    const deleted = one("", "{ containers: [{ name: c, image: i }] }", "  - { at: 0s, create: p }\n  - { at: 10ms, delete: p }\n");
    expect(simulate(deleted).checks.neverRan).toEqual([]);
    expect(simulate(one("", "{ containers: [{ name: c, image: i }] }")).checks.neverRan).toEqual([]);
  });

  it("a mirror pod in a scenario: a warning with source api, the static pod it mirrors with source file", () => {
    const mirror = (source: string) => `name: s\npods:\n  - source: ${source}\n    manifest: { metadata: { name: etcd-cp, namespace: kube-system, annotations: { kubernetes.io/config.mirror: h } }, spec: { nodeName: cp, containers: [{ name: etcd, image: e }] } }\n`;
    const api = loadScenarioText(mirror("api"), "s.yaml");
    expect(api.warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/^a mirror pod: the kubelet takes a pod with this annotation/));
    const file = loadScenarioText(mirror("file"), "s.yaml");
    expect([file.scenario.pods[0]!.key, file.scenario.kubelet.nodeName, file.scenario.pods[0]!.manifest.metadata.annotations]).toEqual(["kube-system/etcd", "cp", undefined]);
  });
});
