// Models what each workload controller gives the pod it creates from its template, in one place:
// pkg/controller/controller_utils.go (GetPodFromTemplate, getPodsPrefix), deployment/sync.go
// (getNewReplicaSet: pod-template-hash), statefulset/stateful_set_utils.go (newStatefulSetPod,
// updateIdentity, updateStorage), daemon/util/daemonset_util.go (CreatePodTemplate,
// AddOrUpdateDaemonPodTolerations) and pkg/controller/daemon/util (ReplaceDaemonSetPodNodeName-
// NodeAffinity), Argo Rollouts' rollout controller (a Deployment's ReplicaSet scheme with the
// rollouts-pod-template-hash label); the batch kinds are in batch.ts.
//
// One pod per workload: the simulated kubelet is one node, so `replicas` is read as "this node
// runs one of them" (a StatefulSet's ordinal 0); every field a controller reads that the
// simulator does not model is listed as such (unmodelled), never dropped in silence. Generated
// names come from names.ts (deterministic, not random).
import { computeHash } from "./names.ts";
import { cronJob, job } from "./batch.ts";
import { isObj, list, str, type Raw } from "../podindex.ts";
import {
  at, labelsOf, metaOf, named, nameOf, namespaceOf, podFromTemplate, prefixOf, templateOf, unreadKeys, validateSelector,
  type Controller, type ObjectIssue,
} from "./template.ts";

export type { Controller, ControllerContext, PodFromController } from "./template.ts";
export { EPOCH_UNIX_MINUTES, JOB_CONTAINER_RUN } from "./batch.ts";

const TEMPLATE: readonly string[] = ["spec", "template"];

/** A kind whose controller keeps a ReplicaSet-like set of pods from spec.template, read for selector and template only. */
function appsKind(kind: string, reads: readonly string[], selectorRequired = true): Pick<Controller, "templatePath" | "unmodelled" | "validate"> {
  return {
    templatePath: TEMPLATE,
    unmodelled: (obj) => unreadKeys(obj, ["spec"], ["template", "selector", ...reads]),
    validate: (obj) => [...validateReplicas(obj), ...validateSelector(obj, TEMPLATE, selectorRequired, kind)],
  };
}

/** ValidateNonnegativeField(spec.replicas): a whole number, at least 0 (the API's int32). */
function validateReplicas(obj: Raw): ObjectIssue[] {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const r = spec.replicas;
  if (r === undefined || r === null) return [];
  if (typeof r !== "number" || !Number.isInteger(r)) return [{ path: ["spec", "replicas"], message: `Invalid value: ${JSON.stringify(r)}: must be a whole number` }];
  if (r < 0) return [{ path: ["spec", "replicas"], message: `Invalid value: ${r}: must be greater than or equal to 0` }];
  return [];
}

/** spec.replicas of a ReplicaSet-like workload (default 1), for a cluster's ReplicaSet controller. */
export function replicasOf(obj: Raw): number {
  const spec = isObj(obj.spec) ? obj.spec : {};
  return typeof spec.replicas === "number" && Number.isInteger(spec.replicas) && spec.replicas >= 0 ? spec.replicas : 1;
}

const replicaSetLike = (kind: "ReplicaSet" | "ReplicationController", apiVersion: string): Controller => ({
  kind,
  apiVersions: [apiVersion],
  ...appsKind(kind, [], kind === "ReplicaSet"),
  assumes: `one pod from the template, named ${kind === "ReplicaSet" ? "<replicaset>" : "<controller>"}-<5 characters>, owned by the ${kind}`,
  podFor(obj) {
    const ns = namespaceOf(obj);
    const pod = podFromTemplate(templateOf(obj, TEMPLATE), { apiVersion, kind, name: nameOf(obj), namespace: ns });
    named(pod, prefixOf(nameOf(obj)), `${ns}/${kind}/${nameOf(obj)}`);
    return { pod, added: [`name ${nameOf(pod)} (GenerateName ${prefixOf(nameOf(obj))})`, `ownerReferences: ${kind} ${nameOf(obj)}`], runsToCompletion: false };
  },
});

/** A Deployment's (or an Argo Rollout's) pod: one of its new ReplicaSet <name>-<hash>, labelled with the hash. */
function newReplicaSetPod(obj: Raw, hashLabel: string) {
  const ns = namespaceOf(obj);
  const template = templateOf(obj, TEMPLATE);
  const hash = computeHash(template);
  const rs = `${nameOf(obj)}-${hash}`;
  const pod = podFromTemplate(template, { apiVersion: "apps/v1", kind: "ReplicaSet", name: rs, namespace: ns });
  labelsOf(pod)[hashLabel] = hash;
  named(pod, prefixOf(rs), `${ns}/ReplicaSet/${rs}`);
  return { pod, added: [`name ${nameOf(pod)} (ReplicaSet ${rs}, GenerateName ${prefixOf(rs)})`, `label ${hashLabel}=${hash}`, `ownerReferences: ReplicaSet ${rs}`], runsToCompletion: false };
}

const deployment: Controller = {
  kind: "Deployment",
  apiVersions: ["apps/v1"],
  ...appsKind("Deployment", []),
  assumes: "one pod of its new ReplicaSet <deployment>-<pod-template-hash>, named <replicaset>-<5 characters>, labelled pod-template-hash",
  podFor: (obj) => newReplicaSetPod(obj, "pod-template-hash"),
};

/** An Argo Rollout (argoproj.io) with its own pod template; one that points at a Deployment (workloadRef) is skipped. */
const rollout: Controller = {
  kind: "Rollout",
  apiVersions: ["argoproj.io/v1alpha1"],
  ...appsKind("Rollout", []),
  assumes: "one pod of its stable ReplicaSet <rollout>-<pod-template-hash>, named <replicaset>-<5 characters>, labelled rollouts-pod-template-hash (Argo Rollouts)",
  podFor: (obj) => newReplicaSetPod(obj, "rollouts-pod-template-hash"),
};

const statefulSet: Controller = {
  kind: "StatefulSet",
  apiVersions: ["apps/v1"],
  ...appsKind("StatefulSet", ["serviceName", "volumeClaimTemplates"]),
  assumes: "the pod of ordinal 0, <statefulset>-0, with its hostname, subdomain, identity labels and a volume per volumeClaimTemplate (claim <template>-<statefulset>-0)",
  podFor(obj, ctx) {
    const ns = namespaceOf(obj);
    const set = nameOf(obj);
    const template = templateOf(obj, TEMPLATE);
    const pod = podFromTemplate(template, { apiVersion: "apps/v1", kind: "StatefulSet", name: set, namespace: ns });
    const podName = `${set}-0`;
    metaOf(pod).name = podName;
    const l = labelsOf(pod);
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
    return { pod, added, runsToCompletion: false };
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

/**
 * ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes one term selecting
 * the node by metadata.name (any required terms the template had are replaced; preferred kept).
 */
function pinToNode(spec: Raw, nodeName: string): void {
  const affinity: Raw = isObj(spec.affinity) ? { ...spec.affinity } : {};
  const nodeAffinity: Raw = isObj(affinity.nodeAffinity) ? { ...affinity.nodeAffinity } : {};
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
    nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: [nodeName] }] }],
  };
  spec.affinity = { ...affinity, nodeAffinity };
}

const daemonSet: Controller = {
  kind: "DaemonSet",
  apiVersions: ["apps/v1"],
  ...appsKind("DaemonSet", []),
  assumes: "the one pod for this node, named <daemonset>-<5 characters>, with node affinity to this node, the daemon tolerations and the controller-revision-hash and pod-template-generation labels",
  podFor(obj, ctx) {
    const ns = namespaceOf(obj);
    const template = templateOf(obj, TEMPLATE);
    const pod = podFromTemplate(template, { apiVersion: "apps/v1", kind: "DaemonSet", name: nameOf(obj), namespace: ns });
    const hash = computeHash(template);
    Object.assign(labelsOf(pod), { "controller-revision-hash": hash, "pod-template-generation": "1" });
    const spec = pod.spec as Raw;
    const own = list(spec.tolerations).filter(isObj);
    const extra = daemonTolerations(spec.hostNetwork === true).filter((t) => !own.some((o) => o.key === t.key && o.effect === t.effect));
    spec.tolerations = [...own, ...extra];
    pinToNode(spec, ctx.nodeName);
    named(pod, prefixOf(nameOf(obj)), `${ns}/DaemonSet/${nameOf(obj)}`);
    return {
      pod,
      added: [`name ${nameOf(pod)}`, `node affinity metadata.name In [${ctx.nodeName}]`, `labels controller-revision-hash=${hash}, pod-template-generation=1`, `${extra.length} daemon toleration(s) (node.kubernetes.io/not-ready, unreachable, ...)`],
      runsToCompletion: false,
    };
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
  rollout,
];

export function controllerOf(kind: string): Controller | undefined {
  return CONTROLLERS.find((c) => c.kind === kind);
}

/**
 * Why an object gives no pod here, or null when it does: no pod template, a Rollout whose pods
 * come from a Deployment it names, a custom resource whose controller is not known.
 */
export function noPodReason(obj: Raw): string | null {
  const kind = str(obj.kind) ?? "Pod";
  if (kind === "Pod") return null;
  if (kind === "Rollout" && at(obj, TEMPLATE) === undefined && isObj(at(obj, ["spec", "workloadRef"]))) {
    const ref = at(obj, ["spec", "workloadRef"]) as Raw;
    return `its pods come from the ${str(ref.kind) ?? "Deployment"} ${str(ref.name) ?? "?"} that spec.workloadRef names (run that object's manifest instead)`;
  }
  if (controllerOf(kind) !== undefined) return null;
  if (isObj(at(obj, TEMPLATE)) || isObj(at(obj, ["spec", "jobTemplate"]))) {
    return `a custom resource (${str(obj.apiVersion) ?? "?"} ${kind}): it has a pod template, but kubelet-sim does not know what its controller makes of it`;
  }
  return "no pod template";
}
