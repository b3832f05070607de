// What each controller gives the pod it makes from its template, one row per kind, and what a
// pod copied from a cluster keeps and loses (expandObject, the single place that says it).
import { describe, expect, it } from "vitest";
import { expandObject, type ExpandOptions } from "../../../src/scenario/manifest/expand.ts";
import { CONTROLLERS, EPOCH_UNIX_MINUTES } from "../../../src/scenario/manifest/controllers.ts";
import type { Raw } from "../../../src/scenario/podindex.ts";

const OPTS: ExpandOptions = { minor: 30, nodeName: "node-1", source: undefined, fromManifestFile: true };
const template = { metadata: { labels: { app: "x" }, annotations: { note: "n" } }, spec: { containers: [{ name: "c", image: "i" }] } };
const SELECTED = ["Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Rollout"];
const workload = (kind: string, apiVersion: string, spec: Raw = {}): Raw => ({
  apiVersion, kind, metadata: { name: "w", namespace: "ns" },
  spec: { ...(SELECTED.includes(kind) ? { selector: { matchLabels: { app: "x" } } } : {}), template, ...spec },
});
const meta = (p: Raw | null) => p!.metadata as Raw;
const labels = (p: Raw | null) => meta(p).labels as Record<string, string>;
const owner = (p: Raw | null) => (meta(p).ownerReferences as Raw[])[0]!;
const NAME5 = "[bcdfghjklmnpqrstvwxz2456789]{5}";

describe("expandObject: the pod each controller makes", () => {
  it.each<[string, Raw, RegExp, string, string]>([
    ["Deployment", workload("Deployment", "apps/v1"), new RegExp(`^w-[a-z0-9]+-${NAME5}$`), "ReplicaSet", "apps/v1"],
    ["ReplicaSet", workload("ReplicaSet", "apps/v1"), new RegExp(`^w-${NAME5}$`), "ReplicaSet", "apps/v1"],
    ["ReplicationController", workload("ReplicationController", "v1"), new RegExp(`^w-${NAME5}$`), "ReplicationController", "v1"],
    ["StatefulSet", workload("StatefulSet", "apps/v1", { serviceName: "svc" }), /^w-0$/, "StatefulSet", "apps/v1"],
    ["DaemonSet", workload("DaemonSet", "apps/v1"), new RegExp(`^w-${NAME5}$`), "DaemonSet", "apps/v1"],
    ["Rollout", workload("Rollout", "argoproj.io/v1alpha1"), new RegExp(`^w-[a-z0-9]+-${NAME5}$`), "ReplicaSet", "apps/v1"],
    ["Job", workload("Job", "batch/v1"), new RegExp(`^w-${NAME5}$`), "Job", "batch/v1"],
    ["CronJob", { apiVersion: "batch/v1", kind: "CronJob", metadata: { name: "w", namespace: "ns" }, spec: { schedule: "*/5 * * * *", jobTemplate: { spec: { template } } } },
      new RegExp(`^w-${EPOCH_UNIX_MINUTES}-${NAME5}$`), "Job", "batch/v1"],
  ])("%s: name, namespace, template labels and annotations, a controller owner reference", (_kind, obj, name, ownerKind, ownerApi) => {
    const e = expandObject(obj, OPTS);
    expect(e.errors).toEqual([]);
    expect(meta(e.pod).name).toMatch(name);
    expect(meta(e.pod).namespace).toBe("ns");
    expect(labels(e.pod).app).toBe("x");
    expect((meta(e.pod).annotations as Raw).note).toBe("n");
    expect(owner(e.pod)).toMatchObject({ kind: ownerKind, apiVersion: ownerApi, controller: true, blockOwnerDeletion: true });
    expect((e.pod!.spec as Raw).containers).toEqual(template.spec.containers);
    // An error in the pod's spec is reported in the template, where it was written.
    expect(e.mapPath(["spec", "containers", 0, "image"]).slice(-5)).toEqual(["template", "spec", "containers", 0, "image"]);
  });

  it("is the same pod every time, and never changes the object", () => {
    const obj = workload("Deployment", "apps/v1");
    const before = structuredClone(obj);
    expect(expandObject(obj, OPTS).pod).toEqual(expandObject(obj, OPTS).pod);
    expect(obj).toEqual(before);
  });

  it("Deployment: the pod-template-hash label names the ReplicaSet that owns the pod", () => {
    const pod = expandObject(workload("Deployment", "apps/v1"), OPTS).pod;
    const hash = labels(pod)["pod-template-hash"]!;
    expect(owner(pod).name).toBe(`w-${hash}`);
    expect(meta(pod).name).toMatch(new RegExp(`^w-${hash}-`));
  });

  it("StatefulSet: identity labels, hostname and subdomain, a claim volume per template (pod-index from 1.28)", () => {
    const obj = workload("StatefulSet", "apps/v1", { serviceName: "svc", volumeClaimTemplates: [{ metadata: { name: "data" } }, { metadata: { name: "aaa" } }] });
    const pod = expandObject(obj, OPTS).pod!;
    expect(labels(pod)).toMatchObject({ "statefulset.kubernetes.io/pod-name": "w-0", "apps.kubernetes.io/pod-index": "0" });
    expect(labels(pod)["controller-revision-hash"]).toMatch(/^w-/);
    expect(pod.spec).toMatchObject({ hostname: "w-0", subdomain: "svc" });
    expect((pod.spec as Raw).volumes).toEqual([
      { name: "aaa", persistentVolumeClaim: { claimName: "aaa-w-0" } },
      { name: "data", persistentVolumeClaim: { claimName: "data-w-0" } },
    ]);
    expect(labels(expandObject(obj, { ...OPTS, minor: 27 }).pod)["apps.kubernetes.io/pod-index"]).toBeUndefined();
  });

  it("DaemonSet: the daemon tolerations after the template's own, network-unavailable with hostNetwork", () => {
    const obj = workload("DaemonSet", "apps/v1", { template: { ...template, spec: { ...template.spec, hostNetwork: true, tolerations: [{ key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute" }] } } });
    const tolerations = (expandObject(obj, OPTS).pod!.spec as Raw).tolerations as Raw[];
    expect(tolerations.map((t) => t.key)).toEqual([
      "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable", "node.kubernetes.io/disk-pressure", "node.kubernetes.io/memory-pressure",
      "node.kubernetes.io/pid-pressure", "node.kubernetes.io/unschedulable", "node.kubernetes.io/network-unavailable",
    ]);
  });

  it("DaemonSet: its pod is pinned to this node by required node affinity, replacing the template's required terms", () => {
    const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: "a", operator: "Exists" }] }] }, preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }] } };
    const obj = workload("DaemonSet", "apps/v1", { template: { ...template, spec: { ...template.spec, affinity } } });
    expect((expandObject(obj, { ...OPTS, nodeName: "worker-7" }).pod!.spec as Raw).affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["worker-7"] }] }] },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }],
      },
    });
  });

  it("Rollout (Argo): a Deployment's scheme with the rollouts-pod-template-hash label", () => {
    const pod = expandObject(workload("Rollout", "argoproj.io/v1alpha1", { strategy: { canary: {} } }), OPTS).pod;
    const hash = labels(pod)["rollouts-pod-template-hash"]!;
    expect(owner(pod)).toMatchObject({ kind: "ReplicaSet", name: `w-${hash}` });
    expect(labels(pod)["pod-template-hash"]).toBeUndefined();
  });

  it.each<[string, Raw, string[]]>([
    ["Deployment", workload("Deployment", "apps/v1", { replicas: 3, strategy: { type: "Recreate" }, minReadySeconds: 5 }), ["spec.replicas", "spec.strategy", "spec.minReadySeconds"]],
    ["StatefulSet", workload("StatefulSet", "apps/v1", { serviceName: "s", replicas: 2, podManagementPolicy: "Parallel" }), ["spec.replicas", "spec.podManagementPolicy"]],
    ["Job", workload("Job", "batch/v1", { parallelism: 2, completions: 4, backoffLimit: 1, ttlSecondsAfterFinished: 60, completionMode: "Indexed" }),
      ["spec.parallelism", "spec.completions", "spec.backoffLimit", "spec.ttlSecondsAfterFinished"]],
    ["CronJob", { apiVersion: "batch/v1", kind: "CronJob", metadata: { name: "w" }, spec: { schedule: "@hourly", concurrencyPolicy: "Forbid", timeZone: "Etc/UTC", startingDeadlineSeconds: 30,
      jobTemplate: { spec: { template, backoffLimit: 2 } } } }, ["spec.concurrencyPolicy", "spec.timeZone", "spec.startingDeadlineSeconds", "spec.jobTemplate.spec.backoffLimit"]],
  ])("%s: every field its controller reads that the simulator does not model is listed", (_kind, obj, want) => {
    expect(expandObject(obj, OPTS).unmodelled.map((p) => p.join("."))).toEqual(want);
  });

  it.each<[string, Raw, Array<{ path: string; message: string }>]>([
    ["no selector", { ...workload("Deployment", "apps/v1"), spec: { template } }, [{ path: "spec.selector", message: "Required value" }]],
    ["a selector the template's labels do not match", workload("Deployment", "apps/v1", { selector: { matchLabels: { app: "y" } } }),
      [{ path: "spec.template.metadata.labels", message: "Invalid value: map[app:x]: `selector` does not match template `labels`" }]],
    ["an empty selector", workload("StatefulSet", "apps/v1", { selector: {} }), [{ path: "spec.selector", message: "Invalid value: {}: empty selector is invalid for statefulset" }]],
    ["matchExpressions that select the template", workload("DaemonSet", "apps/v1", { selector: { matchExpressions: [{ key: "app", operator: "In", values: ["x", "z"] }] } }), []],
    ["a ReplicationController's selector may be left out", { ...workload("ReplicationController", "v1"), spec: { template } }, []],
  ])("apps/v1 selector: %s", (_name, obj, want) => {
    expect(expandObject(obj, OPTS).errors.map((e) => ({ path: e.path.join("."), message: e.message }))).toEqual(
      want.map((w) => ({ path: w.path, message: `the apiserver would reject this ${String(obj.kind)} with 422 Invalid: ${w.path}: ${w.message}` })),
    );
  });

  it("Job: the apiserver's selector labels, restartPolicy Never when the template names none, containers that finish", () => {
    const e = expandObject(workload("Job", "batch/v1"), OPTS);
    expect(labels(e.pod)).toMatchObject({ "job-name": "w", "batch.kubernetes.io/job-name": "w" });
    expect(labels(e.pod)["controller-uid"]).toBe(owner(e.pod).uid);
    expect((e.pod!.spec as Raw).restartPolicy).toBe("Never");
    expect(e.exitAfter).toEqual({ c: "5s" });
    expect(e.completes).toBe(true);
    expect(e.assumptions.join(" ")).toContain("restartPolicy Never");
    const indexed = expandObject(workload("Job", "batch/v1", { completionMode: "Indexed" }), OPTS).pod!;
    expect(meta(indexed).name).toMatch(new RegExp(`^w-0-${NAME5}$`));
    expect((meta(indexed).annotations as Raw)["batch.kubernetes.io/job-completion-index"]).toBe("0");
  });

  it("Job: a template that restarts Always is refused where it is written", () => {
    const obj = workload("Job", "batch/v1", { template: { ...template, spec: { ...template.spec, restartPolicy: "Always" } } });
    expect(expandObject(obj, OPTS).errors).toEqual([
      { path: ["spec", "template", "spec", "restartPolicy"], message: 'Unsupported value: "Always": supported values: "OnFailure", "Never" (a Job\'s pods may not restart Always)' },
    ]);
  });

  it("refuses a kind without a pod template, and a workload without its template or name", () => {
    expect(expandObject({ apiVersion: "v1", kind: "Service", metadata: { name: "s" } }, OPTS).errors[0]!.message).toMatch(/^Service has no pod template; kubelet-sim runs pods: expected a Pod, Deployment, /);
    expect(expandObject({ apiVersion: "apps/v1", kind: "Deployment", metadata: {}, spec: {} }, OPTS).errors.map((e) => e.path.join("."))).toEqual(["metadata.name", "spec.template"]);
  });

  it("every controller has an assumption for the docs and an apiVersion", () => {
    for (const c of CONTROLLERS) {
      expect(c.assumes.length).toBeGreaterThan(20);
      expect(c.apiVersions.length).toBeGreaterThan(0);
    }
  });
});

describe("expandObject: a pod copied from a cluster", () => {
  const copied: Raw = {
    apiVersion: "v1", kind: "Pod",
    metadata: { name: "p", uid: "u", resourceVersion: "7", creationTimestamp: "2024-01-01T00:00:00Z", managedFields: [{}], ownerReferences: [{ kind: "ReplicaSet" }] },
    spec: { nodeName: "worker-3", containers: [{ name: "c" }] },
    status: { phase: "Running" },
  };

  it("drops what the apiserver sets, keeps owner references, and says what it did", () => {
    const e = expandObject(copied, OPTS);
    expect(Object.keys(meta(e.pod)).sort()).toEqual(["name", "ownerReferences"]);
    expect(e.pod!.status).toBeUndefined();
    expect(e.node).toBe("worker-3");
    expect(e.handled.map((h) => h.split(":")[0])).toEqual(["status", "metadata.uid", "metadata.creationTimestamp", "metadata.resourceVersion", "metadata.managedFields", "metadata.ownerReferences"]);
  });

  it("keeps a static pod manifest's uid, which the file source uses", () => {
    expect(meta(expandObject(copied, { ...OPTS, source: "file" }).pod).uid).toBe("u");
  });

  it("runs a mirror pod as the static pod it mirrors: from a manifest file, or with source: file", () => {
    const mirror: Raw = {
      kind: "Pod",
      metadata: { name: "etcd-cp-1", namespace: "kube-system", annotations: { "kubernetes.io/config.mirror": "h", "kubernetes.io/config.hash": "h", keep: "y" }, ownerReferences: [{ kind: "Node", name: "cp-1" }] },
      spec: { nodeName: "cp-1", containers: [{ name: "etcd" }] },
    };
    const e = expandObject(mirror, OPTS);
    expect([e.source, e.node, meta(e.pod).name]).toEqual(["file", "cp-1", "etcd"]);
    expect(meta(e.pod).annotations).toEqual({ keep: "y" });
    expect(meta(e.pod).ownerReferences).toBeUndefined();
    const inScenario = expandObject(mirror, { ...OPTS, fromManifestFile: false, source: "api" });
    expect(inScenario.source).toBe("api");
    expect(inScenario.warnings[0]!.message).toMatch(/^a mirror pod: the kubelet takes a pod with this annotation for the mirror of a static pod/);
  });
});
