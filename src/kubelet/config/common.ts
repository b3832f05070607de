// Models pkg/kubelet/config/common.go (applyDefaults, generatePodName, tryDecodeSinglePod) for static pods.
import { createHash } from "node:crypto";
import { freeze } from "immer";
import { podSchema, type Pod } from "../../k8s/pod.ts";
import { defaultPod, DEFAULT_NAMESPACE } from "../../k8s/defaults.ts";
import { canonicalJSON } from "../container/helpers.ts";
import { ConfigHashAnnotationKey } from "../types.ts";

/** generatePodName: a name unique among nodes, "<name>-<lowercased node name>". */
export function generatePodName(name: string, nodeName: string): string {
  return `${name}-${nodeName.toLowerCase()}`;
}

/**
 * applyDefaults (isFile = true): when metadata.uid is unset, the UID is the md5 of the pod and
 * its source ("host:<node>", "file:<path>"), so the same manifest at the same path always gets the
 * same UID (races R03 and R04 turn on this). Then the name gets the node suffix, the namespace
 * defaults, the pod is bound to the node, config.hash records the UID, static pods tolerate every
 * NoExecute taint, and the phase is Pending.
 * Simplification: upstream hashes the Go object with DeepHashObject (a spew dump); this hashes
 * the pod's canonical JSON, so the hex differs from a real kubelet's, but it is stable the same way.
 */
export function applyDefaults(input: Pod, source: string, nodeName: string): Pod {
  const pod = structuredClone(input);
  if (!pod.metadata.uid) {
    const hasher = createHash("md5");
    hasher.update(canonicalJSON(pod));
    // DeepHashObject resets the hash, so the pod source information is written after it.
    hasher.update(`host:${nodeName}`);
    hasher.update(`file:${source}`);
    pod.metadata.uid = hasher.digest("hex");
  }
  pod.metadata.name = generatePodName(pod.metadata.name, nodeName);
  if (!pod.metadata.namespace) pod.metadata.namespace = DEFAULT_NAMESPACE;
  pod.spec.nodeName = nodeName;
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [ConfigHashAnnotationKey]: pod.metadata.uid };
  addOrUpdateToleration(pod, { operator: "Exists", effect: "NoExecute" });
  pod.status = { ...(pod.status ?? {}), phase: "Pending" };
  return pod;
}

/** helper.AddOrUpdateTolerationInPod: add the toleration unless an equal one is there. */
function addOrUpdateToleration(pod: Pod, toleration: Record<string, string>): void {
  const spec = pod.spec as Pod["spec"] & { tolerations?: Record<string, unknown>[] };
  const list = spec.tolerations ?? [];
  if (!list.some((t) => canonicalJSON(t) === canonicalJSON(toleration))) list.push(toleration);
  spec.tolerations = list;
}

export type DecodeResult = { pod: Pod; err: null } | { pod: null; err: Error };

/**
 * tryDecodeSinglePod: decode (with the API defaults), require a name, applyDefaults, validate.
 * A manifest here is the parsed object (the YAML layer is the scenario loader's); anything that is
 * not a valid pod is an error, and the file is skipped, as upstream logs and skips it.
 */
export function tryDecodeSinglePod(manifest: unknown, source: string, nodeName: string): DecodeResult {
  const parsed = podSchema.safeParse(manifest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { pod: null, err: new Error(`${source}: couldn't parse as pod(${issue.path.join(".")}: ${issue.message}), please check config file`) };
  }
  if (!parsed.data.metadata.name) return { pod: null, err: new Error("invalid pod: name is needed for the pod") };
  const pod = applyDefaults(defaultPod(parsed.data), source, nodeName);
  return { pod: freeze(pod, true), err: null };
}
