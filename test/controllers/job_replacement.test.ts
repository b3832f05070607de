// The Job controller's replacement of a pod being deleted (race R27): isPodFailed counts it as
// failed at once unless podReplacementPolicy is Failed; IsPodTerminating; the field's validation
// and its gate (1.29).
import { describe, expect, it } from "vitest";
import { checkScenarioText, formatIssue, loadScenarioText } from "../../src/scenario/index.ts";
import { isPodFailed, isPodTerminating } from "../../src/controllers/job.ts";
import type { Pod } from "../../src/k8s/pod.ts";

const pod = (phase: string, deleting: boolean) =>
  ({ metadata: { name: "p", ...(deleting ? { deletionTimestamp: "2025-01-01T00:00:30Z" } : {}) }, spec: { containers: [] }, status: { phase } }) as unknown as Pod;

describe("isPodFailed and isPodTerminating", () => {
  it.each([
    // phase, being deleted, onlyReplaceFailedPods, failed, terminating
    ["Running", false, false, false, false],
    ["Running", true, false, true, true],
    ["Running", true, true, false, true],
    ["Pending", true, false, true, true],
    ["Succeeded", true, false, false, false],
    ["Failed", false, true, true, false],
    ["Failed", true, true, true, false],
  ] as const)("%s, deleting %s, only failed %s: failed %s, terminating %s", (phase, deleting, only, failed, terminating) => {
    expect(isPodFailed(pod(phase, deleting), only)).toBe(failed);
    expect(isPodTerminating(pod(phase, deleting))).toBe(terminating);
  });
});

const job = (policy: string, version = "1.29") => `
name: job
kubelet: { version: "${version}" }
nodes: [{ name: node-a }, { name: node-b }]
pods:
  - manifest:
      apiVersion: batch/v1
      kind: Job
      metadata: { name: train }
      spec:
        ${policy}
        template:
          spec:
            restartPolicy: Never
            containers: [{ name: worker, image: x }]
timeline:
  - { at: 0s, create: train }
  - { at: 30s, delete: { pod: train, target: pod } }
`;

describe("spec.podReplacementPolicy", () => {
  it("is read into the Job entry, and TerminatingOrFailed is the default", () => {
    expect(loadScenarioText(job("podReplacementPolicy: Failed")).scenario.pods[0]!.job?.podReplacementPolicy).toBe("Failed");
    expect(loadScenarioText(job("parallelism: 1")).scenario.pods[0]!.job?.podReplacementPolicy).toBeUndefined();
  });

  it("refuses a value upstream validation rejects, at its field", () => {
    const r = checkScenarioText(job("podReplacementPolicy: Never"), "job.yaml");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map(formatIssue).join("\n")).toContain('spec.podReplacementPolicy: Unsupported value: "Never": supported values: "Failed", "TerminatingOrFailed"');
  });

  it("a delete with target pod deletes the pod, not the Job", () => {
    const steps = loadScenarioText(job("parallelism: 1")).scenario.timeline;
    expect(steps[1]).toMatchObject({ kind: "delete", pod: "default/train-w64sf", target: "pod" });
  });
});
