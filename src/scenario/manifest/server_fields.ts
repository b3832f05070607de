// Fields `kubectl get pod -o yaml` prints that the apiserver and the kubelet set, not the user:
// what happens to each when such a pod is created again, as the apiserver's create path
// (rest.BeforeCreate, FillObjectMetaSystemFields, podStrategy.PrepareForCreate) and the kubelet's
// static pod handling (pkg/kubelet/config/common.go, pkg/kubelet/types/pod_update.go) would do it.
import { isObj, str, type Raw } from "../podindex.ts";

/** The kubelet's own annotations on a mirror pod (kubetypes ConfigMirrorAnnotationKey and friends). */
export const CONFIG_MIRROR = "kubernetes.io/config.mirror";
const KUBELET_ANNOTATIONS = [CONFIG_MIRROR, "kubernetes.io/config.hash", "kubernetes.io/config.source", "kubernetes.io/config.seen"];

/** Each field, and what creating the pod again does with it, in the words of the note line. */
const DROPPED_META: ReadonlyArray<readonly [string, string]> = [
  ["uid", "set anew by the apiserver"],
  ["creationTimestamp", "set anew by the apiserver"],
  ["resourceVersion", "dropped (a create may not set it)"],
  ["managedFields", "dropped (server-side field ownership, not modelled)"],
  ["generation", "dropped (set by the apiserver)"],
  ["selfLink", "dropped (no longer served)"],
  ["deletionTimestamp", "cleared (a create starts a new life)"],
  ["deletionGracePeriodSeconds", "cleared (a create starts a new life)"],
];

export interface ServerFields {
  /** The pod to create: a new value without the fields the apiserver sets. */
  pod: Raw;
  /** "field: what happened", one per field found, for the note line. */
  handled: string[];
  /** Set when the pod is a mirror pod copied from a node: the static pod it mirrors. */
  mirrorOf: { name: string; node: string | null } | null;
}

/**
 * What creating `input` (a Pod as kubectl printed it) again does with its server-set fields. A
 * static pod's manifest (`source: file`) keeps its uid: the kubelet's file source uses a uid the
 * manifest sets (config/common.go applyDefaults), and a scenario may set one on purpose.
 */
export function handleServerFields(input: Raw, source: "api" | "file" | undefined): ServerFields {
  const pod: Raw = { ...input };
  const meta: Raw = isObj(input.metadata) ? { ...input.metadata } : {};
  pod.metadata = meta;
  const handled: string[] = [];
  if (pod.status !== undefined) {
    delete pod.status;
    handled.push("status: discarded (the apiserver resets it on create)");
  }
  const staticManifest = source === "file" && !isMirror(meta);
  for (const [field, what] of DROPPED_META) {
    if (meta[field] === undefined || (staticManifest && field === "uid")) continue;
    delete meta[field];
    handled.push(`metadata.${field}: ${what}`);
  }
  if (meta.ownerReferences !== undefined && !isMirror(meta)) {
    handled.push("metadata.ownerReferences: kept (no garbage collector runs here, so a missing owner deletes nothing)");
  }
  if (Array.isArray(meta.finalizers) && meta.finalizers.length > 0) {
    handled.push("metadata.finalizers: kept, not modelled (a delete does not wait for them)");
  }
  return { pod, handled, mirrorOf: isMirror(meta) ? mirrorTarget(pod) : null };
}

function isMirror(meta: Raw): boolean {
  return isObj(meta.annotations) && meta.annotations[CONFIG_MIRROR] !== undefined;
}

/** The static pods kubeadm writes on a control-plane node: their mirrors are <component>-<node>. */
const KUBEADM_STATIC_PODS = ["kube-apiserver", "kube-controller-manager", "kube-scheduler", "etcd"];

/**
 * A mirror pod is named <static pod>-<node> (kubelet config.generatePodName). The node is
 * spec.nodeName; a dump without it still names its node as the mirror's Node owner (the kubelet
 * sets it), and a kubeadm static pod's name says it after the component's.
 */
function mirrorTarget(pod: Raw): { name: string; node: string | null } {
  const meta = pod.metadata as Raw;
  const name = str(meta.name) ?? "";
  const node = (isObj(pod.spec) ? str(pod.spec.nodeName) : undefined) ?? nodeOwner(meta) ?? kubeadmNode(name);
  const suffix = node === undefined ? "" : `-${node.toLowerCase()}`;
  const stripped = suffix !== "" && name.endsWith(suffix) && name.length > suffix.length ? name.slice(0, -suffix.length) : name;
  return { name: stripped, node: node ?? null };
}

function nodeOwner(meta: Raw): string | undefined {
  const owner = Array.isArray(meta.ownerReferences) ? meta.ownerReferences.find((o) => isObj(o) && o.kind === "Node") : undefined;
  return isObj(owner) ? str(owner.name) : undefined;
}

function kubeadmNode(name: string): string | undefined {
  const component = KUBEADM_STATIC_PODS.find((c) => name.startsWith(`${c}-`) && name.length > c.length + 1);
  return component === undefined ? undefined : name.slice(component.length + 1);
}

/**
 * A mirror pod run as the static pod it mirrors: the manifest the kubelet reads from its static
 * pod directory has the static name and none of the annotations or the Node owner the kubelet adds.
 */
export function asStaticPod(pod: Raw, name: string): { pod: Raw; handled: string } {
  const meta: Raw = { ...(pod.metadata as Raw), name };
  const annotations = Object.fromEntries(Object.entries(isObj(meta.annotations) ? meta.annotations : {}).filter(([k]) => !KUBELET_ANNOTATIONS.includes(k)));
  if (Object.keys(annotations).length > 0) meta.annotations = annotations;
  else delete meta.annotations;
  const owners = Array.isArray(meta.ownerReferences) ? meta.ownerReferences.filter((o) => !(isObj(o) && o.kind === "Node")) : [];
  if (owners.length > 0) meta.ownerReferences = owners;
  else delete meta.ownerReferences;
  return {
    pod: { ...pod, metadata: meta },
    handled: `metadata.annotations["${CONFIG_MIRROR}"]: a mirror pod; run as the static pod ${name} from the kubelet's manifest directory (the kubelet's annotations and Node owner dropped, as its file source never had them)`,
  };
}
