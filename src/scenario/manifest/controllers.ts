// Models what each workload controller gives the pod it creates from its template, in one place:
// pkg/controller/controller_utils.go (GetPodFromTemplate, getPodsPrefix), deployment/sync.go
// (getNewReplicaSet: pod-template-hash), statefulset/stateful_set_utils.go (newStatefulSetPod,
// updateIdentity, updateStorage), daemon/util/daemonset_util.go (CreatePodTemplate,
// AddOrUpdateDaemonPodTolerations), job/job_controller.go + indexed_job_utils.go and
// pkg/registry/batch/job/strategy.go (generateSelector), cronjob/utils.go (getJobFromTemplate2).
//
// One pod per workload: the simulated kubelet is one node, so `replicas` and `parallelism` are
// read as "this node runs one of them" (a StatefulSet's ordinal 0, a Job's first pod). Generated
// names come from names.ts (deterministic, not random). Not added: a DaemonSet pod's node
// affinity and a Job pod's batch.kubernetes.io/job-tracking finalizer (nothing here reads the
// first; nothing would remove the second).
import { computeHash, generateName, ownerUid } from "./names.ts";
import { isObj, list, str, type Raw } from "../podindex.ts";

export interface ControllerContext {
  /** The minor version of the cluster (the scenario's kubelet): labels a release added are gated on it. */
  minor: number;
}

export interface PodFromController {
  /** The pod the controller would create: a new value, the object is never changed. */
  pod: Raw;
  /** What the controller gave the pod, in words, for the assumptions a run prints. */
  added: string[];
  /** A Job's containers finish: they exit 0 after this long unless the scenario says otherwise. */
  exitAfter: string | null;
}

export interface Controller {
  kind: string;
  apiVersions: readonly string[];
  /** Where the pod template sits in the object. */
  templatePath: readonly string[];
  /** What kubelet-sim assumes for this kind, in one sentence (docs/manifests.md, the assumptions block). */
  assumes: string;
  podFor(obj: Raw, ctx: ControllerContext): PodFromController;
}

/** A Job's containers run this long, then exit 0, when the scenario gives them no behaviour. */
export const JOB_CONTAINER_RUN = "5s";
/** Virtual time 0 (apiserver/time.ts EPOCH_RFC3339, 2025-01-01T00:00:00Z) in minutes since the Unix epoch. */
export const EPOCH_UNIX_MINUTES = 28_928_160;

const at = (obj: Raw, path: readonly string[]): unknown => path.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), obj);
const metaOf = (obj: Raw): Raw => (isObj(obj.metadata) ? obj.metadata : {});
const nameOf = (obj: Raw) => str(metaOf(obj).name) ?? "";
const namespaceOf = (obj: Raw) => str(metaOf(obj).namespace) || "default";

/** GetPodFromTemplate: labels, annotations and finalizers copied, the spec deep-copied, a controller ref. */
function podFromTemplate(template: Raw, owner: { apiVersion: string; kind: string; name: string; namespace: string }): Raw {
  const tm = isObj(template.metadata) ? template.metadata : {};
  const metadata: Raw = { namespace: owner.namespace, labels: { ...(isObj(tm.labels) ? tm.labels : {}) } };
  if (isObj(tm.annotations)) metadata.annotations = { ...tm.annotations };
  if (Array.isArray(tm.finalizers)) metadata.finalizers = [...tm.finalizers];
  metadata.ownerReferences = [{
    apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name,
    uid: ownerUid(`${owner.namespace}/${owner.kind}/${owner.name}`), controller: true, blockOwnerDeletion: true,
  }];
  return { apiVersion: "v1", kind: "Pod", metadata, spec: structuredClone(isObj(template.spec) ? template.spec : {}) };
}

const labels = (pod: Raw): Record<string, unknown> => (metaOf(pod).labels as Record<string, unknown>);
const templateOf = (obj: Raw, path: readonly string[]): Raw => {
  const t = at(obj, path);
  return isObj(t) ? t : {};
};

/** getPodsPrefix: "name-" (upstream falls back to the bare name only when "name-" is not a valid prefix). */
const prefixOf = (name: string) => `${name}-`;

function named(pod: Raw, base: string, identity: string): void {
  metaOf(pod).name = generateName(base, identity);
}

const replicaSetLike = (kind: "ReplicaSet" | "ReplicationController", apiVersion: string): Controller => ({
  kind,
  apiVersions: [apiVersion],
  templatePath: ["spec", "template"],
  assumes: `one pod from the template, named ${kind === "ReplicaSet" ? "<replicaset>" : "<controller>"}-<5 characters>, owned by the ${kind}`,
  podFor(obj) {
    const ns = namespaceOf(obj);
    const pod = podFromTemplate(templateOf(obj, this.templatePath), { apiVersion, kind, name: nameOf(obj), namespace: ns });
    named(pod, prefixOf(nameOf(obj)), `${ns}/${kind}/${nameOf(obj)}`);
    return { pod, added: [`name ${nameOf(pod)} (GenerateName ${prefixOf(nameOf(obj))})`, `ownerReferences: ${kind} ${nameOf(obj)}`], exitAfter: null };
  },
});

const deployment: Controller = {
  kind: "Deployment",
  apiVersions: ["apps/v1"],
  templatePath: ["spec", "template"],
  assumes: "one pod of its new ReplicaSet <deployment>-<pod-template-hash>, named <replicaset>-<5 characters>, labelled pod-template-hash",
  podFor(obj) {
    const ns = namespaceOf(obj);
    const template = templateOf(obj, this.templatePath);
    const hash = computeHash(template);
    const rs = `${nameOf(obj)}-${hash}`;
    const pod = podFromTemplate(template, { apiVersion: "apps/v1", kind: "ReplicaSet", name: rs, namespace: ns });
    labels(pod)["pod-template-hash"] = hash;
    named(pod, prefixOf(rs), `${ns}/ReplicaSet/${rs}`);
    return { pod, added: [`name ${nameOf(pod)} (ReplicaSet ${rs}, GenerateName ${prefixOf(rs)})`, `label pod-template-hash=${hash}`, `ownerReferences: ReplicaSet ${rs}`], exitAfter: null };
  },
};

const statefulSet: Controller = {
  kind: "StatefulSet",
  apiVersions: ["apps/v1"],
  templatePath: ["spec", "template"],
  assumes: "the pod of ordinal 0, <statefulset>-0, with its hostname, subdomain, identity labels and a volume per volumeClaimTemplate (claim <template>-<statefulset>-0)",
  podFor(obj, ctx) {
    const ns = namespaceOf(obj);
    const set = nameOf(obj);
    const template = templateOf(obj, this.templatePath);
    const pod = podFromTemplate(template, { apiVersion: "apps/v1", kind: "StatefulSet", name: set, namespace: ns });
    const podName = `${set}-0`;
    metaOf(pod).name = podName;
    const l = labels(pod);
    l["controller-revision-hash"] = `${set}-${computeHash(template)}`;
    // updateIdentity
    l["statefulset.kubernetes.io/pod-name"] = podName;
    if (ctx.minor >= 28) l["apps.kubernetes.io/pod-index"] = "0";
    const spec = pod.spec as Raw;
    spec.hostname = podName;
    const service = str(at(obj, ["spec", "serviceName"]));
    if (service !== undefined && service !== "") spec.subdomain = service;
    const claims = claimVolumes(obj, set);
    if (claims.length > 0) spec.volumes = [...claims, ...list(spec.volumes).filter((v) => !claims.some((c) => c.name === (v as Raw).name))];
    const added = [`name ${podName}`, `hostname ${podName}`, `labels controller-revision-hash, statefulset.kubernetes.io/pod-name${ctx.minor >= 28 ? ", apps.kubernetes.io/pod-index" : ""}`];
    if (claims.length > 0) added.push(`volumes ${claims.map((c) => `${String(c.name)} (claim ${String((c.persistentVolumeClaim as Raw).claimName)})`).join(", ")}`);
    return { pod, added, exitAfter: null };
  },
};

/** updateStorage: one volume per claim template, sorted by name (upstream ranges over a map). */
function claimVolumes(obj: Raw, set: string): Raw[] {
  const names = list(at(obj, ["spec", "volumeClaimTemplates"])).flatMap((t) => (isObj(t) && isObj(t.metadata) && str(t.metadata.name) ? [str(t.metadata.name)!] : []));
  return [...new Set(names)].sort().map((n) => ({ name: n, persistentVolumeClaim: { claimName: `${n}-${set}-0` } }));
}

/** AddOrUpdateDaemonPodTolerations, in its order. */
function daemonTolerations(hostNetwork: boolean): Raw[] {
  const t = (key: string, effect: string): Raw => ({ key: `node.kubernetes.io/${key}`, operator: "Exists", effect });
  const out = [t("not-ready", "NoExecute"), t("unreachable", "NoExecute"), t("disk-pressure", "NoSchedule"), t("memory-pressure", "NoSchedule"), t("pid-pressure", "NoSchedule"), t("unschedulable", "NoSchedule")];
  if (hostNetwork) out.push(t("network-unavailable", "NoSchedule"));
  return out;
}

const daemonSet: Controller = {
  kind: "DaemonSet",
  apiVersions: ["apps/v1"],
  templatePath: ["spec", "template"],
  assumes: "the one pod for this node, named <daemonset>-<5 characters>, with the daemon tolerations and the controller-revision-hash and pod-template-generation labels",
  podFor(obj) {
    const ns = namespaceOf(obj);
    const template = templateOf(obj, this.templatePath);
    const pod = podFromTemplate(template, { apiVersion: "apps/v1", kind: "DaemonSet", name: nameOf(obj), namespace: ns });
    const hash = computeHash(template);
    Object.assign(labels(pod), { "controller-revision-hash": hash, "pod-template-generation": "1" });
    const spec = pod.spec as Raw;
    const own = list(spec.tolerations).filter(isObj);
    const extra = daemonTolerations(spec.hostNetwork === true).filter((t) => !own.some((o) => o.key === t.key && o.effect === t.effect));
    spec.tolerations = [...own, ...extra];
    named(pod, prefixOf(nameOf(obj)), `${ns}/DaemonSet/${nameOf(obj)}`);
    return { pod, added: [`name ${nameOf(pod)}`, `labels controller-revision-hash=${hash}, pod-template-generation=1`, `${extra.length} daemon toleration(s) (node.kubernetes.io/not-ready, unreachable, ...)`], exitAfter: null };
  },
};

const job: Controller = {
  kind: "Job",
  apiVersions: ["batch/v1"],
  templatePath: ["spec", "template"],
  assumes: `its first pod, named <job>-<5 characters> (<job>-0-<5 characters> when Indexed), labelled as the apiserver labels a Job's template; its containers exit 0 after ${JOB_CONTAINER_RUN}`,
  podFor: (obj, ctx) => jobPod(obj, ctx, ["spec", "template"]),
};

function jobPod(obj: Raw, ctx: ControllerContext, templatePath: readonly string[]): PodFromController {
  const ns = namespaceOf(obj);
  const name = nameOf(obj);
  const pod = podFromTemplate(templateOf(obj, templatePath), { apiVersion: "batch/v1", kind: "Job", name, namespace: ns });
  const added: string[] = [];
  // generateSelector (pkg/registry/batch/job/strategy.go): unless manualSelector, the template's labels.
  if (at(obj, ["spec", "manualSelector"]) !== true) {
    const uid = ownerUid(`${ns}/Job/${name}`);
    const l = labels(pod);
    if (ctx.minor >= 27) Object.assign(l, { "batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name });
    Object.assign(l, { "controller-uid": uid, "job-name": name });
    added.push(`labels ${ctx.minor >= 27 ? "batch.kubernetes.io/controller-uid, batch.kubernetes.io/job-name, " : ""}controller-uid, job-name`);
  }
  let prefix = prefixOf(name);
  if (at(obj, ["spec", "completionMode"]) === "Indexed") {
    prefix = `${name}-0-`;
    const meta = metaOf(pod);
    meta.annotations = { ...(isObj(meta.annotations) ? meta.annotations : {}), "batch.kubernetes.io/job-completion-index": "0" };
    if (ctx.minor >= 28) labels(pod)["batch.kubernetes.io/job-completion-index"] = "0";
    (pod.spec as Raw).hostname = `${name}-0`;
    added.push("completion index 0 (annotation, hostname)");
  }
  named(pod, prefix, `${ns}/Job/${name}`);
  added.unshift(`name ${nameOf(pod)}`);
  added.push(`ownerReferences: Job ${name}`);
  return { pod, added, exitAfter: JOB_CONTAINER_RUN };
}

const cronJob: Controller = {
  kind: "CronJob",
  apiVersions: ["batch/v1"],
  templatePath: ["spec", "jobTemplate", "spec", "template"],
  assumes: `the pod of the Job its schedule creates at the run's start, <cronjob>-${EPOCH_UNIX_MINUTES} (minutes since the Unix epoch of 2025-01-01T00:00:00Z); its containers exit 0 after ${JOB_CONTAINER_RUN}`,
  podFor(obj, ctx) {
    // getJobFromTemplate2: the Job is named after the scheduled time, in minutes.
    const jobName = `${nameOf(obj)}-${EPOCH_UNIX_MINUTES}`;
    const jt = templateOf(obj, ["spec", "jobTemplate"]);
    const jm = isObj(jt.metadata) ? jt.metadata : {};
    const theJob: Raw = { metadata: { ...jm, name: jobName, namespace: namespaceOf(obj) }, spec: isObj(jt.spec) ? jt.spec : {} };
    const r = jobPod(theJob, ctx, ["spec", "template"]);
    return { ...r, added: [`Job ${jobName}, as if the schedule ${JSON.stringify(str(at(obj, ["spec", "schedule"])) ?? "")} fired at the run's start`, ...r.added] };
  },
};

/** The kinds with a pod template, each with what its controller adds. */
export const CONTROLLERS: readonly Controller[] = [
  deployment,
  replicaSetLike("ReplicaSet", "apps/v1"),
  statefulSet,
  daemonSet,
  job,
  cronJob,
  replicaSetLike("ReplicationController", "v1"),
];

export function controllerOf(kind: string): Controller | undefined {
  return CONTROLLERS.find((c) => c.kind === kind);
}
