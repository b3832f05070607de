// Models pkg/kubelet/images/image_manager.go (EnsureImageExists) and kuberuntime_image.go
// (GetImageRef), v1.29 line, as a process: inspect, decide, queue the pull, wait, record events.
//
// The decisions (pull policy, backoff, messages) are the pure cores of image_pull.ts; this file
// does the waiting around them. It lives under kuberuntime/ rather than images/ only because of
// who owns which folder. Simplified: no credentials, no image-pull spam filter, no pull metrics.
import { recv, type Proc, type Sim } from "../../sim/index.ts";
import type { Container, Pod } from "../../k8s/pod.ts";
import type { PodSandboxConfig } from "../../cri/api.ts";
import { CriError } from "../../cri/errors.ts";
import type { CallContext, ImageManagerService } from "../../cri/services.ts";
import { formatDuration } from "../../sim/duration.ts";
import type { Backoff } from "../util/backoff.ts";
import { applyDefaultImageTag, ensureImageExistsDecision, ErrImageInspect, ErrImagePullBackOff, imageBackOffKey, imagePullFailed } from "./image_pull.ts";
import type { ImagePuller, PullResult } from "./image_puller.ts";
import { FailedToInspectImage, FailedToPullImage, PulledImage, containerFieldPath, type EventRecorder } from "./events.ts";

/** EnsureImageExists' result: the image reference, or an error name and its message. */
export type EnsureImageResult = { imageRef: string; err: null; msg: "" } | { imageRef: ""; err: string; msg: string };

export class ImageManager {
  constructor(
    private readonly sim: Sim,
    private readonly imageService: ImageManagerService,
    private readonly recorder: EventRecorder,
    private readonly backOff: Backoff,
    private readonly puller: ImagePuller,
    /**
     * ≥1.32 (#127918): the back-off's message carries the error of the pull that put the image in
     * back-off ("Back-off pulling image \"x\": ErrImagePull: <error>"), as the container's waiting
     * message; the BackOff event keeps the short text.
     */
    private readonly backOffCarriesPullError = false,
  ) {}

  /** prevPullErrMsg: the last pull error per back-off key, "<err>: <msg>". */
  private readonly prevPullErrMsg = new Map<string, string>();

  /** GetImageRef: the image's ID if it is on the node, "" if not (ImageStatus answers nil). */
  *GetImageRef(image: string): Proc<string | CriError> {
    const resp = yield* this.imageService.ImageStatus({ image });
    if (resp instanceof CriError) return resp;
    return resp === null ? "" : resp.id;
  }

  /**
   * EnsureImageExists pulls the image for the specified pod and container, and returns (imageRef,
   * error message, error). The pull runs on ctx; a cancelled pull fails like any other pull.
   */
  *EnsureImageExists(pod: Pod, container: Container, podSandboxConfig: PodSandboxConfig | null, ctx: CallContext | null = null): Proc<EnsureImageResult> {
    const fieldPath = containerFieldPath(pod, container);
    const logIt = (type: "Normal" | "Warning", reason: string, msg: string) => this.recorder.Eventf(pod, type, reason, msg, fieldPath);
    const image = applyDefaultImageTag(container.image ?? "");
    let imageRef = "";
    if (image !== undefined) {
      const ref = yield* this.GetImageRef(image);
      if (ref instanceof CriError) {
        const msg = `Failed to inspect image ${JSON.stringify(container.image ?? "")}: ${ref.message}`;
        logIt("Warning", FailedToInspectImage, msg);
        return { imageRef: "", err: ErrImageInspect, msg };
      }
      imageRef = ref;
    }
    const decision = ensureImageExistsDecision(pod, container, imageRef !== "", this.backOff);
    logIt(decision.event.type, decision.event.reason, decision.message);
    if (decision.action === "error") {
      const prev = this.backOffCarriesPullError && decision.err === ErrImagePullBackOff ? this.prevPullErrMsg.get(imageBackOffKey(pod, container)) : undefined;
      return { imageRef: "", err: decision.err, msg: prev === undefined ? decision.message : `${decision.message}: ${prev}` };
    }
    if (decision.action === "present") return { imageRef, err: null, msg: "" };
    // Ensure that the map cannot grow indefinitely.
    this.prevPullErrMsg.delete(decision.backOffKey);
    return yield* this.pull(pod, container, decision.image, decision.backOffKey, podSandboxConfig, logIt, ctx);
  }

  private *pull(
    pod: Pod,
    container: Container,
    image: string,
    backOffKey: string,
    podSandboxConfig: PodSandboxConfig | null,
    logIt: (type: "Normal" | "Warning", reason: string, msg: string) => void,
    ctx: CallContext | null,
  ): Proc<EnsureImageResult> {
    const startMs = this.sim.nowMs;
    const pullChan = this.sim.chan<PullResult>(`pullChan ${pod.metadata.name}/${container.name}`, 0);
    yield* this.puller.pullImage({ image }, pullChan, podSandboxConfig, ctx);
    const { value: result } = yield* recv(pullChan);
    const r = result!;
    if (r.err !== null) {
      logIt("Warning", FailedToPullImage, `Failed to pull image ${JSON.stringify(container.image ?? "")}: ${r.err.message}`);
      // evalCRIPullErr: a runtime error that is not ErrRegistryUnavailable becomes ErrImagePull.
      const failed = imagePullFailed(container, r.err.message, backOffKey, this.backOff);
      // Store the actual pull error for providing that information during the image pull back-off.
      if (this.backOffCarriesPullError) this.prevPullErrMsg.set(backOffKey, `${failed.err}: ${failed.message}`);
      return { imageRef: "", err: failed.err, msg: failed.message };
    }
    const waitedMs = this.sim.nowMs - startMs;
    logIt(
      "Normal",
      PulledImage,
      `Successfully pulled image ${JSON.stringify(container.image ?? "")} in ${formatDuration(r.pullDurationMs)} (${formatDuration(waitedMs)} including waiting)`,
    );
    this.backOff.GC();
    return { imageRef: r.imageRef, err: null, msg: "" };
  }
}

