// Which group/versions the apiserver of each release serves for the kinds a manifest holds, from
// the Kubernetes deprecated API migration guide and the CHANGELOGs: the beta workload APIs
// (extensions/v1beta1, apps/v1beta1, apps/v1beta2) stopped being served in 1.16, batch/v1beta1
// CronJob, policy/v1beta1 and the other 1.25 removals in 1.25, autoscaling/v2beta2 in 1.26, and
// the 1.22 removals (Ingress, RBAC, PriorityClass, CustomResourceDefinition v1beta1) in 1.22.
// `kubectl apply` of a kind in a version the apiserver does not serve fails with
// `no matches for kind "X" in version "Y"`; so does a known kind in a group that does not have it.
// A kind not listed here (a custom resource) is not checked.

export interface ServedVersion {
  apiVersion: string;
  /** The first minor release that serves it (undefined: every release the simulator models). */
  since?: number;
  /** The first minor release that no longer serves it. */
  removedIn?: number;
}

/** Every kind's group/versions across releases; the replacement is the last one listed. */
export const API_VERSIONS: Readonly<Record<string, readonly ServedVersion[]>> = {
  Pod: [{ apiVersion: "v1" }],
  ReplicationController: [{ apiVersion: "v1" }],
  Deployment: [{ apiVersion: "extensions/v1beta1", removedIn: 16 }, { apiVersion: "apps/v1beta1", removedIn: 16 }, { apiVersion: "apps/v1beta2", removedIn: 16 }, { apiVersion: "apps/v1" }],
  ReplicaSet: [{ apiVersion: "extensions/v1beta1", removedIn: 16 }, { apiVersion: "apps/v1beta1", removedIn: 16 }, { apiVersion: "apps/v1beta2", removedIn: 16 }, { apiVersion: "apps/v1" }],
  DaemonSet: [{ apiVersion: "extensions/v1beta1", removedIn: 16 }, { apiVersion: "apps/v1beta2", removedIn: 16 }, { apiVersion: "apps/v1" }],
  StatefulSet: [{ apiVersion: "apps/v1beta1", removedIn: 16 }, { apiVersion: "apps/v1beta2", removedIn: 16 }, { apiVersion: "apps/v1" }],
  Job: [{ apiVersion: "batch/v1" }],
  CronJob: [{ apiVersion: "batch/v1beta1", removedIn: 25 }, { apiVersion: "batch/v1", since: 21 }],
  Service: [{ apiVersion: "v1" }],
  ConfigMap: [{ apiVersion: "v1" }],
  Secret: [{ apiVersion: "v1" }],
  ServiceAccount: [{ apiVersion: "v1" }],
  PersistentVolumeClaim: [{ apiVersion: "v1" }],
  Namespace: [{ apiVersion: "v1" }],
  PodDisruptionBudget: [{ apiVersion: "policy/v1beta1", removedIn: 25 }, { apiVersion: "policy/v1", since: 21 }],
  PodSecurityPolicy: [{ apiVersion: "extensions/v1beta1", removedIn: 16 }, { apiVersion: "policy/v1beta1", removedIn: 25 }],
  HorizontalPodAutoscaler: [
    { apiVersion: "autoscaling/v2beta1", removedIn: 25 }, { apiVersion: "autoscaling/v2beta2", removedIn: 26 }, { apiVersion: "autoscaling/v1" }, { apiVersion: "autoscaling/v2", since: 23 },
  ],
  Ingress: [{ apiVersion: "extensions/v1beta1", removedIn: 22 }, { apiVersion: "networking.k8s.io/v1beta1", removedIn: 22 }, { apiVersion: "networking.k8s.io/v1", since: 19 }],
  NetworkPolicy: [{ apiVersion: "extensions/v1beta1", removedIn: 16 }, { apiVersion: "networking.k8s.io/v1" }],
  PriorityClass: [{ apiVersion: "scheduling.k8s.io/v1beta1", removedIn: 22 }, { apiVersion: "scheduling.k8s.io/v1" }],
  CustomResourceDefinition: [{ apiVersion: "apiextensions.k8s.io/v1beta1", removedIn: 22 }, { apiVersion: "apiextensions.k8s.io/v1" }],
  ...Object.fromEntries(["Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"].map((k) => [k, [
    { apiVersion: "rbac.authorization.k8s.io/v1beta1", removedIn: 22 }, { apiVersion: "rbac.authorization.k8s.io/v1" },
  ]])),
  RuntimeClass: [{ apiVersion: "node.k8s.io/v1beta1", removedIn: 25 }, { apiVersion: "node.k8s.io/v1", since: 20 }],
  EndpointSlice: [{ apiVersion: "discovery.k8s.io/v1beta1", removedIn: 25 }, { apiVersion: "discovery.k8s.io/v1", since: 21 }],
};

const served = (v: ServedVersion, minor: number) => (v.since === undefined || minor >= v.since) && (v.removedIn === undefined || minor < v.removedIn);

/**
 * Why the apiserver of `1.<minor>` would not take `kind` in `apiVersion`, in kubectl's words and
 * with what to use instead; null when it would, or when the kind is not one this table knows.
 */
export function unservedApiVersion(kind: string, apiVersion: string, minor: number): string | null {
  const versions = API_VERSIONS[kind];
  if (versions === undefined) return null;
  const known = versions.find((v) => v.apiVersion === apiVersion);
  if (known !== undefined && served(known, minor)) return null;
  const head = `no matches for kind "${kind}" in version "${apiVersion}"`;
  const now = versions.filter((v) => served(v, minor)).map((v) => v.apiVersion);
  const use = now.length === 0 ? `Kubernetes 1.${minor} serves no version of ${kind}` : `use ${now.at(-1)}`;
  if (known === undefined) return `${head}: ${kind} is not in group ${groupOf(apiVersion)} (${use})`;
  if (known.removedIn !== undefined && minor >= known.removedIn) {
    return `${head}: the apiserver no longer serves ${apiVersion} ${kind} from Kubernetes 1.${known.removedIn} (this scenario's kubelet is 1.${minor}); ${use}`;
  }
  return `${head}: the apiserver serves ${apiVersion} ${kind} from Kubernetes 1.${known.since} (this scenario's kubelet is 1.${minor}); ${use}`;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? `"" (the core group)` : `"${apiVersion.slice(0, slash)}"`;
}
