// Models pkg/kubelet/images/image_manager.go (shouldPullImage, applyDefaultImageTag, EnsureImageExists' decisions), v1.29 line.
//
// EnsureImageExists talks to the image service and waits for pulls; the SyncPod process does that.
// These are its decisions as values: what to do before a pull, and what a failed pull means.
// Simplified: the KubeletEnsureSecretPulledImages rules (pulled-by-secret checks) are not modelled.
import type { Container, Pod } from "../../k8s/pod.ts";
import { parseImageName } from "../../k8s/image.ts";
import { formatDuration } from "../../sim/duration.ts";
import type { Backoff } from "../util/backoff.ts";

/** Errors of pkg/kubelet/images/types.go, as their string values (they become waiting reasons). */
export const ErrImagePullBackOff = "ImagePullBackOff";
export const ErrImageInspect = "ImageInspectError";
export const ErrImagePull = "ErrImagePull";
export const ErrImageNeverPull = "ErrImageNeverPull";
export const ErrRegistryUnavailable = "RegistryUnavailable";
export const ErrInvalidImageName = "InvalidImageName";

/** shouldPullImage returns whether to pull an image according to its presence and the pull policy. */
export function shouldPullImage(container: Container, imagePresent: boolean): boolean {
  if (container.imagePullPolicy === "Never") return false;
  return container.imagePullPolicy === "Always" || (container.imagePullPolicy === "IfNotPresent" && !imagePresent);
}

/** applyDefaultImageTag: append ":latest" to a name with neither tag nor digest; undefined if unparsable. */
export function applyDefaultImageTag(image: string): string | undefined {
  const parsed = parseImageName(image);
  if (!parsed.valid) return undefined;
  const tagged = image.slice(image.lastIndexOf("/") + 1).split("@")[0]!.includes(":");
  return tagged || parsed.digest !== "" ? image : `${image}:latest`;
}

export type EventType = "Normal" | "Warning";

/** What EnsureImageExists does before (and instead of) a pull. */
export type ImageDecision =
  | { action: "error"; err: string; message: string; event: { type: EventType; reason: string } }
  | { action: "present"; image: string; message: string; event: { type: EventType; reason: string } }
  | { action: "pull"; image: string; backOffKey: string; message: string; event: { type: EventType; reason: string } };

/** The image-pull backoff key: "<podUID>_<image>". */
export function imageBackOffKey(pod: Pod, container: Container): string {
  return `${pod.metadata.uid ?? ""}_${container.image ?? ""}`;
}

/**
 * EnsureImageExists up to the pull. imagePresent stands for GetImageRef returning a non-empty
 * ref; the pull backoff is asked with IsInBackOffSinceUpdate(key, now).
 */
export function ensureImageExistsDecision(pod: Pod, container: Container, imagePresent: boolean, backOff: Backoff): ImageDecision {
  const name = container.image ?? "";
  const image = applyDefaultImageTag(name);
  if (image === undefined) {
    const message = `Failed to apply default image tag ${JSON.stringify(name)}: couldn't parse image reference ${JSON.stringify(name)}`;
    return { action: "error", err: ErrInvalidImageName, message, event: { type: "Warning", reason: "InspectFailed" } };
  }
  if (!shouldPullImage(container, imagePresent)) {
    if (imagePresent) {
      const message = `Container image ${JSON.stringify(name)} already present on machine`;
      return { action: "present", image, message, event: { type: "Normal", reason: "Pulled" } };
    }
    const message = `Container image ${JSON.stringify(name)} is not present with pull policy of Never`;
    return { action: "error", err: ErrImageNeverPull, message, event: { type: "Warning", reason: "ErrImageNeverPull" } };
  }
  const backOffKey = imageBackOffKey(pod, container);
  if (backOff.IsInBackOffSinceUpdate(backOffKey, backOff.clock.nowMs())) {
    const message = `Back-off pulling image ${JSON.stringify(name)}`;
    return { action: "error", err: ErrImagePullBackOff, message, event: { type: "Normal", reason: "BackOff" } };
  }
  return { action: "pull", image, backOffKey, message: `Pulling image ${JSON.stringify(name)}`, event: { type: "Normal", reason: "Pulling" } };
}

/**
 * After a failed pull: advance the pull backoff and say what the container's waiting reason
 * becomes. (The Failed event carries `Failed to pull image "x": <err>`.)
 */
export function imagePullFailed(container: Container, pullErr: string, backOffKey: string, backOff: Backoff): { err: string; message: string } {
  backOff.Next(backOffKey, backOff.clock.nowMs());
  if (pullErr === ErrRegistryUnavailable) {
    return { err: ErrRegistryUnavailable, message: `image pull failed for ${container.image ?? ""} because the registry is unavailable.` };
  }
  return { err: ErrImagePull, message: pullErr };
}

/** After a successful pull the manager garbage-collects its backoff entries. */
export function imagePullSucceeded(container: Container, pullDurationMs: number, backOff: Backoff): string {
  backOff.GC();
  return `Successfully pulled image ${JSON.stringify(container.image ?? "")} in ${formatDuration(pullDurationMs)}`;
}
