// Models pkg/kubelet/config/common.go (applyDefaults, generatePodName, tryDecodeSinglePod) for static pods.
import { md5 } from "@noble/hashes/legacy.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { freeze } from "immer";
import type { Pod } from "../../k8s/pod.ts";
import { podSchema } from "../../k8s/pod_schema.ts";
import { defaultPod } from "../../k8s/defaults.ts";
import { canonicalJSON } from "../container/helpers.ts";
import { decodeErrors } from "../../apiserver/validation/index.ts";
import { applyDefaultsAfterUID, validateStaticPod } from "./static_pod.ts";

export { generatePodName } from "./static_pod.ts";

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
    // A pure-JS md5 (@noble/hashes), so the kubelet models run in a browser too.
    const hasher = md5.create();
    hasher.update(utf8ToBytes(canonicalJSON(pod)));
    // DeepHashObject resets the hash, so the pod source information is written after it.
    hasher.update(utf8ToBytes(`host:${nodeName}`));
    hasher.update(utf8ToBytes(`file:${source}`));
    pod.metadata.uid = bytesToHex(hasher.digest());
  }
  applyDefaultsAfterUID(pod, nodeName);
  return pod;
}

/** `validationSkipped`: the error a skipped validation would have given (skipApiValidation). */
export type DecodeResult = { pod: Pod; err: null; validationSkipped?: string } | { pod: null; err: Error };

/**
 * tryDecodeSinglePod: decode (with the API defaults), require a name, applyDefaults, then
 * ValidatePodCreate with zero options ("invalid pod: [...]"). A manifest here is the parsed object
 * (the YAML layer is the scenario loader's); anything that is not a valid pod is an error, and the
 * file is skipped, as upstream logs and skips it. `skipValidation` is a scenario's
 * skipApiValidation: the check a bug would have to bypass.
 */
export function tryDecodeSinglePod(manifest: unknown, source: string, nodeName: string, skipValidation = false): DecodeResult {
  const parsed = podSchema.safeParse(manifest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { pod: null, err: new Error(`${source}: couldn't parse as pod(${issue.path.join(".")}: ${issue.message}), please check config file`) };
  }
  const undecodable = decodeErrors(parsed.data);
  if (undecodable.length > 0) {
    return { pod: null, err: new Error(`${source}: couldn't parse as pod(${undecodable[0]!.message}), please check config file`) };
  }
  if (!parsed.data.metadata.name) return { pod: null, err: new Error("invalid pod: name is needed for the pod") };
  const pod = applyDefaults(defaultPod(parsed.data), source, nodeName);
  const invalid = validateStaticPod(pod);
  if (invalid !== null && !skipValidation) return { pod: null, err: new Error(invalid) };
  return { pod: freeze(pod, true), err: null, ...(invalid === null ? {} : { validationSkipped: invalid }) };
}
