// Models pkg/kubelet/images/puller.go (serialImagePuller, parallelImagePuller, pullResult), v1.29 line.
//
// The kubelet pulls one image at a time by default (serializeImagePulls: true): pulls queue in a
// channel of 10 and one worker goroutine does them in order, so a slow pull delays every pod
// behind it. With serialization off every pull runs in its own goroutine, optionally limited by
// maxParallelImagePulls. Simplified: the best-effort GetImageSize after a pull is not made.
import { send, recv, type Chan, type Proc, type Sim } from "../../sim/index.ts";
import type { CallContext, ImageManagerService } from "../../cri/services.ts";
import type { ImageSpec, PodSandboxConfig } from "../../cri/api.ts";
import { CriError } from "../../cri/errors.ts";

/** pullResult: the image reference, or the runtime's error, and how long the CRI call took. */
export interface PullResult {
  imageRef: string;
  err: CriError | null;
  pullDurationMs: number;
}

export interface ImagePuller {
  /**
   * Hands the pull over; the result arrives on pullChan. May block while the queue is full. The
   * pull runs on ctx (Go passes the caller's context along with the request).
   */
  pullImage(spec: ImageSpec, pullChan: Chan<PullResult>, podSandboxConfig: PodSandboxConfig | null, ctx?: CallContext | null): Proc<void>;
}

/** Maximum number of image pull requests than can be queued. */
export const maxImagePullRequests = 10;

interface ImagePullRequest {
  spec: ImageSpec;
  pullChan: Chan<PullResult>;
  podSandboxConfig: PodSandboxConfig | null;
  ctx: CallContext | null;
}

/** kuberuntime_image.go PullImage, without credentials: the CRI call and its duration. */
function* pullWithTiming(sim: Sim, imageService: ImageManagerService, spec: ImageSpec, cfg: PodSandboxConfig | null, ctx: CallContext | null): Proc<PullResult> {
  const startMs = sim.nowMs;
  const out = yield* imageService.PullImage(spec, null, cfg, ctx);
  const pullDurationMs = sim.nowMs - startMs;
  if (out instanceof CriError) return { imageRef: "", err: out, pullDurationMs };
  return { imageRef: out, err: null, pullDurationMs };
}

export class SerialImagePuller implements ImagePuller {
  private readonly pullRequests: Chan<ImagePullRequest>;

  constructor(
    private readonly sim: Sim,
    private readonly imageService: ImageManagerService,
    group: string,
  ) {
    this.pullRequests = sim.chan<ImagePullRequest>("imagePullRequests", maxImagePullRequests);
    // go wait.Until(imagePuller.processImagePullRequests, time.Second, wait.NeverStop)
    sim.go("imagePuller", () => this.processImagePullRequests(), { daemon: true, group });
  }

  *pullImage(spec: ImageSpec, pullChan: Chan<PullResult>, podSandboxConfig: PodSandboxConfig | null, ctx: CallContext | null = null): Proc<void> {
    yield* send(this.pullRequests, { spec, pullChan, podSandboxConfig, ctx });
  }

  private *processImagePullRequests(): Proc<void> {
    for (;;) {
      const { value: req, ok } = yield* recv(this.pullRequests);
      if (!ok || req === undefined) return;
      const result = yield* pullWithTiming(this.sim, this.imageService, req.spec, req.podSandboxConfig, req.ctx);
      yield* send(req.pullChan, result);
    }
  }
}

export class ParallelImagePuller implements ImagePuller {
  private readonly tokens: Chan<null> | null;

  constructor(
    private readonly sim: Sim,
    private readonly imageService: ImageManagerService,
    private readonly group: string,
    maxParallelImagePulls: number | null = null,
  ) {
    // image_manager.go: a limit below 1 (or none) means no limit.
    this.tokens = maxParallelImagePulls === null || maxParallelImagePulls < 1 ? null : sim.chan<null>("imagePullTokens", maxParallelImagePulls);
  }

  *pullImage(spec: ImageSpec, pullChan: Chan<PullResult>, podSandboxConfig: PodSandboxConfig | null, ctx: CallContext | null = null): Proc<void> {
    const { sim, imageService, tokens } = this;
    sim.go(
      `imagePull/${spec.image}`,
      function* () {
        if (tokens !== null) yield* send(tokens, null);
        const result = yield* pullWithTiming(sim, imageService, spec, podSandboxConfig, ctx);
        if (tokens !== null) yield* recv(tokens);
        yield* send(pullChan, result);
      },
      { group: this.group },
    );
  }
}
