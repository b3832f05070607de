import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { defaultPod, type Pod } from "../../src/k8s/pod.ts";
import { containerSchema, podSchema, probeSchema } from "../../src/k8s/pod_schema.ts";
import { parseImageName } from "../../src/k8s/image.ts";
import {
  findContainerByName,
  getPodFullName,
  isRestartableInitContainer,
  podKey,
} from "../../src/k8s/podutil.ts";

const KUBECTL_YAML = `
apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: null
  name: web
  labels: { app: web }
  managedFields: [{ manager: kubectl }]
spec:
  dnsPolicy: ClusterFirst
  volumes: [{ name: data, emptyDir: {} }]
  initContainers:
  - name: proxy
    image: envoy:v1
    restartPolicy: Always
  containers:
  - name: app
    image: nginx
    volumeMounts: [{ name: data, mountPath: /data }]
    resources: { limits: { cpu: 500m, memory: 64Mi } }
    livenessProbe: { httpGet: { port: 8080 }, initialDelaySeconds: 5 }
    lifecycle: { preStop: { exec: { command: [sleep, "5"] } } }
status: {}
`;

function load(text: string): Pod {
  return podSchema.parse(parseYaml(text));
}

describe("podSchema", () => {
  it("accepts a kubectl-printed manifest and keeps unmodelled fields", () => {
    const pod = load(KUBECTL_YAML);
    expect(pod.metadata.name).toBe("web");
    expect((pod.spec as Record<string, unknown>)["volumes"]).toBeDefined();
    expect((pod.metadata as Record<string, unknown>)["managedFields"]).toBeDefined();
  });

  it("rejects wrong types with a path", () => {
    const r = podSchema.safeParse({ metadata: { name: "x" }, spec: { containers: [{ name: "a", image: 1 }] } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["spec", "containers", 0, "image"]);
  });

  it("keeps object schemas introspectable for the loader", () => {
    expect(Object.keys(podSchema.shape)).toEqual(["apiVersion", "kind", "metadata", "spec", "status"]);
    expect(Object.keys(containerSchema.shape)).toContain("livenessProbe");
    expect(Object.keys(probeSchema.shape)).toContain("terminationGracePeriodSeconds");
  });
});

describe("defaultPod (SetDefaults_*)", () => {
  const pod = defaultPod(load(KUBECTL_YAML));
  const app = pod.spec.containers[0]!;

  it("defaults the pod spec and namespace", () => {
    expect(pod.metadata.namespace).toBe("default");
    expect(pod.spec.restartPolicy).toBe("Always");
    expect(pod.spec.terminationGracePeriodSeconds).toBe(30);
  });

  it("defaults probes and their HTTP handlers", () => {
    expect(app.livenessProbe).toMatchObject({
      initialDelaySeconds: 5,
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
      httpGet: { path: "/", scheme: "HTTP", port: 8080 },
    });
  });

  it("defaults requests to limits and container message fields", () => {
    expect(app.resources?.requests).toEqual({ cpu: "500m", memory: "64Mi" });
    expect(app.terminationMessagePath).toBe("/dev/termination-log");
    expect(app.terminationMessagePolicy).toBe("File");
  });

  it("keeps explicit values and does not mutate the input", () => {
    const input = load(KUBECTL_YAML);
    input.spec.restartPolicy = "Never";
    input.spec.terminationGracePeriodSeconds = 0;
    const out = defaultPod(input);
    expect(out.spec.restartPolicy).toBe("Never");
    expect(out.spec.terminationGracePeriodSeconds).toBe(0);
    expect(input.metadata.namespace).toBeUndefined();
  });

  it.each([
    ["nginx", "Always"],
    ["nginx:latest", "Always"],
    ["nginx:1.25", "IfNotPresent"],
    ["registry:5000/team/app", "Always"],
    ["registry:5000/team/app:v2", "IfNotPresent"],
    [`nginx@sha256:${"a".repeat(64)}`, "IfNotPresent"],
    [`nginx:latest@sha256:${"a".repeat(64)}`, "Always"],
    ["", "IfNotPresent"],
  ])("image %j defaults imagePullPolicy to %s", (image, policy) => {
    const p = defaultPod({ metadata: { name: "p" }, spec: { containers: [{ name: "c", image }] } });
    expect(p.spec.containers[0]!.imagePullPolicy).toBe(policy);
  });

  it("defaults host ports under hostNetwork", () => {
    const p = defaultPod({
      metadata: { name: "p" },
      spec: { hostNetwork: true, containers: [{ name: "c", image: "x:1", ports: [{ containerPort: 80 }] }] },
    });
    expect(p.spec.containers[0]!.ports![0]!.hostPort).toBe(80);
  });
});

describe("parseImageName", () => {
  it("splits repository, tag and digest", () => {
    expect(parseImageName("localhost:5000/a/b:c")).toMatchObject({ repository: "localhost:5000/a/b", tag: "c" });
    expect(parseImageName("Upper:1").valid).toBe(false);
  });
});

describe("podutil", () => {
  const pod = defaultPod(load(KUBECTL_YAML));
  it("names pods like the kubelet and the apiserver", () => {
    expect(getPodFullName(pod)).toBe("web_default");
    expect(podKey(pod)).toBe("default/web");
  });
  it("finds containers across the lists and spots sidecars", () => {
    expect(findContainerByName(pod, "proxy")).toMatchObject({ kind: "initContainers", index: 0 });
    expect(findContainerByName(pod, "app")).toMatchObject({ kind: "containers", index: 0 });
    expect(findContainerByName(pod, "nope")).toBeUndefined();
    expect(isRestartableInitContainer(pod.spec.initContainers![0])).toBe(true);
    expect(isRestartableInitContainer(pod.spec.containers[0])).toBe(false);
  });
});
