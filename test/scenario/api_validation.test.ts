// The apiserver says no where the real one does: at load time, a pod it would refuse is a located
// error quoting its message; during a run, a request it refuses is a 422 in the trace and the run
// goes on; a static pod the kubelet would refuse is a warning, then a FileError in the run; and a
// pod may opt out (skipApiValidation) to show what the kubelet does with it anyway.
import { describe, expect, it } from "vitest";
import { checkScenarioText, formatIssue, loadScenarioText } from "../../src/scenario/index.ts";
import { simulate } from "../../src/simulate.ts";
import type { TraceRecord } from "../../src/sim/index.ts";

const FIVE = `name: five
pods:
  - manifest:
      metadata: { name: web }
      spec:
        containers:
          - name: app
          - name: app
            image: nginx:1
            livenessProbe: {}
            readinessProbe:
              exec: { command: ["true"] }
              tcpSocket: { port: 80 }
            ports:
              - containerPort: 70000
timeline:
  - { at: 0s, create: web }
`;

const errorsOf = (text: string) => {
  const r = checkScenarioText(text, "s.yaml");
  return r.ok ? [] : r.issues.map(formatIssue);
};

describe("an invalid pod in a scenario", () => {
  it("is refused at the manifest's line with the apiserver's message, each of the issue's five cases", () => {
    expect(errorsOf(FIVE)).toEqual([
      "s.yaml:7:13: pods[0].manifest.spec.containers[0].image: the apiserver would reject this pod with 422 Invalid: spec.containers[0].image: Required value",
      's.yaml:8:19: pods[0].manifest.spec.containers[1].name: the apiserver would reject this pod with 422 Invalid: spec.containers[1].name: Duplicate value: "app"',
      "s.yaml:10:28: pods[0].manifest.spec.containers[1].livenessProbe: the apiserver would reject this pod with 422 Invalid: spec.containers[1].livenessProbe: Required value: must specify a handler type",
      "s.yaml:13:26: pods[0].manifest.spec.containers[1].readinessProbe.tcpSocket: the apiserver would reject this pod with 422 Invalid: spec.containers[1].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type",
      "s.yaml:15:32: pods[0].manifest.spec.containers[1].ports[0].containerPort: the apiserver would reject this pod with 422 Invalid: spec.containers[1].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
    ]);
  });

  it("that the decoder refuses is a 400 at the field", () => {
    const text = "name: q\npods:\n  - manifest:\n      metadata: { name: web }\n      spec:\n        containers:\n          - name: app\n            image: nginx:1\n            resources: { limits: { cpu: lots } }\n";
    expect(errorsOf(text)).toEqual([
      "s.yaml:9:41: pods[0].manifest.spec.containers[0].resources.limits.cpu: the apiserver would reject this pod with 400 BadRequest: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ]);
  });

  it("loads and runs with skipApiValidation, the trace saying so, as the issue saw it run before", () => {
    const text = FIVE.replace("  - manifest:\n", "  - skipApiValidation: true\n    manifest:\n");
    const { scenario } = loadScenarioText(text, "s.yaml");
    const result = simulate({ ...scenario, untilMs: 20_000 });
    expect(result.run.verdict).toBe("until");
    const create = result.records!.find((r) => r.kind === "Create" && r.actor === "user")!;
    expect(create).toMatchObject({ pod: "default/web", result: "ok", apiValidation: "skipped (skipApiValidation)" });
    expect(JSON.stringify(result.records)).toContain("InvalidImageName");
  });
});

const podsAndSteps = (pods: string, steps: string) => `name: runtime
until: 30s
pods:
${pods}
timeline:
${steps}
`;
const api = (name: string, image: string) => `  - manifest: { metadata: { name: ${name} }, spec: { containers: [{ name: app, image: "${image}" }] } }`;
const records = (text: string, edit: (s: ReturnType<typeof loadScenarioText>["scenario"]) => void = () => {}) => {
  const { scenario } = loadScenarioText(text, "r.yaml");
  edit(scenario);
  const r = simulate(scenario);
  return { verdict: r.run.verdict, records: r.records! as TraceRecord[] };
};

describe("a request the apiserver refuses during a run", () => {
  it("is a 422 in the trace for a create, and the run goes on to the next step", () => {
    const text = podsAndSteps(`${api("bad", "nginx:1")}\n${api("good", "nginx:1")}`, "  - { at: 1s, create: bad }\n  - { at: 2s, create: good }");
    // A library user can hand simulate() a pod no loader checked: the apiserver still checks it.
    const { verdict, records: recs } = records(text, (s) => void delete s.pods[0]!.manifest.spec.containers[0]!.image);
    expect(verdict).toBe("until");
    expect(recs.find((r) => r.kind === "Create" && r.pod === "default/bad")).toMatchObject({
      result: "Invalid", code: 422, error: 'Pod "bad" is invalid: spec.containers[0].image: Required value',
    });
    expect(recs.find((r) => r.kind === "StepFailed")).toMatchObject({ step: "create", err: 'Pod "bad" is invalid: spec.containers[0].image: Required value' });
    expect(recs.find((r) => r.kind === "Create" && r.pod === "default/good")).toMatchObject({ result: "ok" });
  });

  it("is a 422 for an update too: an image with trailing whitespace, set by kubectl set image", () => {
    const text = podsAndSteps(api("web", "nginx:1"), "  - { at: 0s, create: web }\n  - { at: 5s, setImage: { pod: web, container: app, image: 'nginx:2 ' } }");
    const { verdict, records: recs } = records(text);
    expect(verdict).toBe("until");
    expect(recs.find((r) => r.kind === "Update" && r.actor === "user")).toMatchObject({
      result: "Invalid", code: 422, error: 'Pod "web" is invalid: spec.containers[0].image: Invalid value: "nginx:2 ": must not have leading or trailing whitespace',
    });
  });
});

describe("an invalid static pod", () => {
  const STATIC = `name: static
until: 30s
pods:
  - source: file
    manifest:
      metadata: { name: etcd, namespace: kube-system }
      spec:
        containers: [{ name: etcd, image: "etcd:3", ports: [{ containerPort: 0 }] }]
timeline:
  - { at: 0s, staticAdd: etcd }
`;

  it("loads with a warning: the kubelet, not the apiserver, would refuse it", () => {
    const { warnings } = loadScenarioText(STATIC, "st.yaml");
    expect(warnings.map(formatIssue)).toContain(
      "st.yaml:8:78: pods[0].manifest.spec.containers[0].ports[0].containerPort: the kubelet would skip this static pod's file (it logs the error and runs nothing): invalid pod: spec.containers[0].ports[0].containerPort: Required value",
    );
  });

  it("is skipped by the kubelet with its error, an event and no crash; skipApiValidation runs it, saying so", () => {
    const rejected = records(STATIC);
    expect(rejected.verdict).toBe("until");
    expect(rejected.records.find((r) => r.kind === "FileError")).toMatchObject({
      error: "invalid pod: [spec.containers[0].ports[0].containerPort: Required value]",
    });
    expect(rejected.records.some((r) => r.kind === "ContainerStarted" || (r.kind === "Create" && r.actor === "kubelet"))).toBe(false);
    const skipped = records(STATIC.replace("  - source: file\n", "  - source: file\n    skipApiValidation: true\n"));
    expect(skipped.verdict).toBe("until");
    expect(skipped.records.find((r) => r.kind === "ValidationSkipped")).toMatchObject({ pod: "kube-system/etcd-node-1", why: "skipApiValidation" });
    // The mirror pod still goes through the apiserver, which refuses it as a real one would.
    expect(skipped.records.find((r) => r.kind === "Create" && r.actor === "kubelet")).toMatchObject({ result: "Invalid", code: 422 });
  });
});
