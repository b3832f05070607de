// A pod pasted from `kubectl get pod -o yaml` loads unchanged; what the simulator does not model
// is listed once, with where it is, and never an error.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadScenarioFile, loadScenarioText } from "../../src/scenario/index.ts";

const FILE = join(import.meta.dirname, "..", "fixtures", "scenarios", "kubectl-get-pod.yaml");

describe("kubectl get pod -o yaml manifests", () => {
  const { scenario, ignored, warnings, notes } = loadScenarioFile(FILE);

  it("load, with unmodelled fields listed once each, sorted, at their keys", () => {
    expect(ignored.map((w) => w.field)).toEqual([
      "metadata.generateName",
      // Pod anti-affinity is the scheduler's; node affinity and tolerations the kubelet's admission reads.
      "spec.affinity.podAntiAffinity",
      "spec.containers[].securityContext",
      "spec.containers[].volumeMounts",
      "spec.enableServiceLinks",
      "spec.preemptionPolicy",
      "spec.securityContext",
      "spec.serviceAccount",
      "spec.volumes",
    ]);
    const affinity = ignored.find((w) => w.field === "spec.affinity.podAntiAffinity")!;
    expect([affinity.line, affinity.col]).toEqual([65, 11]);
    expect(affinity.path).toBe("pods[0].manifest.spec.affinity.podAntiAffinity");
    expect(warnings).toHaveLength(ignored.length);
  });

  it("handles the fields a cluster sets as a new create would, and says so in one note", () => {
    expect(notes.filter((n) => n.startsWith("fields set by a cluster"))).toHaveLength(1);
    for (const field of ["status: discarded", "metadata.managedFields: dropped", "metadata.resourceVersion: dropped", "metadata.ownerReferences: kept"]) {
      expect(notes[0]).toContain(field);
    }
    expect(notes[0]).toMatch(/metadata\.uid, metadata\.creationTimestamp: set anew by the apiserver/);
  });

  it("keeps the modelled fields and applies apiserver defaults", () => {
    const pod = scenario.pods[0]!;
    expect(pod.key).toBe("shop/web-7d4b9c-x2x9q");
    expect(pod.manifest.spec.containers[0]!.livenessProbe?.httpGet?.path).toBe("/healthz");
    expect(pod.manifest.spec.containers[0]!.resources?.requests).toEqual({ cpu: "100m", memory: "128Mi" });
    expect(pod.manifest.metadata.ownerReferences?.[0]?.kind).toBe("ReplicaSet");
    expect(pod.behaviour.app!.then.exitAfterMs).toBeNull();
    expect(scenario.timeline[0]).toEqual({ atMs: 0, kind: "create", pod: "shop/web-7d4b9c-x2x9q" });
  });

  it("reports an ignored field once even when several pods and containers carry it", () => {
    const text = `name: twice
pods:
  - manifest:
      metadata: { name: a }
      spec:
        containers:
          - { name: x, image: i, securityContext: { runAsUser: 1 } }
          - { name: y, image: i, securityContext: { runAsUser: 2 } }
  - manifest:
      metadata: { name: b }
      spec:
        hostAliases: []
        containers: [{ name: x, image: i, securityContext: {} }]
`;
    const { ignored } = loadScenarioText(text, "twice.yaml");
    expect(ignored.map((w) => `${w.field} ${w.line}:${w.col}`)).toEqual([
      "spec.containers[].securityContext 7:34",
      "spec.hostAliases 12:9",
    ]);
  });

  it("defaults a minimal manifest as the apiserver would", () => {
    const text = "name: minimal\npods:\n  - manifest:\n      metadata: { name: w }\n      spec: { containers: [{ name: c, image: 'nginx:latest' }] }\n";
    const pod = loadScenarioText(text).scenario.pods[0]!;
    expect(pod.namespace).toBe("default");
    expect(pod.manifest.spec.restartPolicy).toBe("Always");
    expect(pod.manifest.spec.terminationGracePeriodSeconds).toBe(30);
    expect(pod.manifest.spec.containers[0]!.imagePullPolicy).toBe("Always");
  });
});
