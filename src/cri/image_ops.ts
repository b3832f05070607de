// Models the ImageService half of the CRI (PullImage, ImageStatus, ListImages, RemoveImage) as
// containerd's CRI plugin answers it: a pull takes the image's pull time and may fail as a
// registry fails (not found, unauthorized, any other error).
import type { Op } from "../sim/index.ts";
import type { AuthConfig, Image, ImageFilter, ImageSpec, PodSandboxConfig } from "./api.ts";
import type { ImageConfig, ImagePullFailure, RangeMs } from "./config.ts";
import type { RuntimeCore } from "./core.ts";
import { CriError } from "./errors.ts";
import { normalizeImage } from "./store.ts";
import { toImage } from "./views.ts";
import type { CallContext } from "./services.ts";

export function imageConfigOf(rt: RuntimeCore, image: string): ImageConfig | undefined {
  return rt.config.images[image] ?? rt.config.images[normalizeImage(image)];
}

/** How long a pull of this image takes: its own pullTime, else the PullImage latency. */
export function pullTimeOf(rt: RuntimeCore, image: string): RangeMs {
  return imageConfigOf(rt, image)?.pullTime ?? rt.config.latency.PullImage;
}

/** Seeds the store with the images a scenario marks present, and the pause image unless marked absent. */
export function preloadImages(rt: RuntimeCore): void {
  const pause = imageConfigOf(rt, rt.config.pauseImage);
  if (pause === undefined || pause.present) rt.store.addImage(rt.config.pauseImage);
  for (const [name, cfg] of Object.entries(rt.config.images)) if (cfg.present) rt.store.addImage(name);
}

/**
 * The registry's answer to a pull that started at `startMs`: null when it succeeds. Counts the
 * attempt, so a failure with `times: N` hits the first N pulls inside its window and no more.
 */
export function pullFailure(rt: RuntimeCore, image: string, startMs: number): CriError | null {
  const fail = imageConfigOf(rt, image)?.fail ?? null;
  if (fail === null) return null;
  if (startMs < fail.fromMs || (fail.toMs !== null && startMs >= fail.toMs)) return null;
  const n = (rt.store.pullAttempts.get(image) ?? 0) + 1;
  rt.store.pullAttempts.set(image, n);
  if (fail.times !== null && n > fail.times) return null;
  return pullError(image, fail);
}

/** The error text containerd returns for each kind of registry failure. */
export function pullError(image: string, fail: Pick<ImagePullFailure, "error" | "message">): CriError {
  const prefix = `failed to pull and unpack image "${image}"`;
  if (fail.message !== null) return new CriError(fail.error === "notFound" ? "NotFound" : "Unknown", fail.message);
  switch (fail.error) {
    case "notFound":
      return new CriError("NotFound", `${prefix}: failed to resolve reference "${image}": ${image}: not found`);
    case "unauthorized":
      return new CriError(
        "Unknown",
        `${prefix}: failed to resolve reference "${image}": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`,
      );
    default:
      return new CriError("Unknown", `${prefix}: failed to resolve reference "${image}": failed to do request: dial tcp: i/o timeout`);
  }
}

/**
 * PullImage: after the image's pull time the image is present, or the registry's error comes back.
 * A caller whose context ends first gets Canceled at once, and nothing is stored: containerd's
 * pull runs on the request's context, so the gRPC cancellation aborts the download.
 */
export function PullImage(
  rt: RuntimeCore,
  image: ImageSpec,
  _auth: AuthConfig | null,
  sandboxConfig: PodSandboxConfig | null,
  ctx: CallContext | null = null,
): Op | CriError {
  const m = sandboxConfig?.metadata;
  const site = { method: "PullImage" as const, pod: m === undefined ? null : `${m.namespace}/${m.name}`, container: null };
  const startMs = rt.nowMs;
  return rt.call<string>(
    site,
    null,
    () => {
      // Simplified: a failing pull takes the same time as a successful one.
      const err = pullFailure(rt, image.image, startMs);
      if (err !== null) return err;
      return rt.store.addImage(image.image).id;
    },
    (ref) => ({ image: image.image, imageRef: ref }),
    pullTimeOf(rt, image.image),
    ctx?.done ?? null,
  );
}

/** ImageStatus: the image, or null when it is not on the node (not an error, as in the CRI). */
export function ImageStatus(rt: RuntimeCore, image: ImageSpec): Op | CriError {
  return rt.call<Image | null>(
    { method: "ImageStatus", pod: null, container: null },
    null,
    () => {
      const rec = rt.store.findImage(image.image);
      return rec === undefined ? null : toImage(rec);
    },
    (img) => ({ image: image.image, present: img !== null }),
  );
}

export function ListImages(rt: RuntimeCore, filter: ImageFilter | null): Op | CriError {
  return rt.call<Image[]>({ method: "ListImages", pod: null, container: null }, null, () => {
    const want = filter?.image?.image;
    const all = [...rt.store.images.values()];
    const matching = want === undefined ? all : all.filter((i) => i.id === want || i.repoTags.includes(normalizeImage(want)));
    return matching.map(toImage);
  }, (list) => ({ count: list.length }));
}

/** RemoveImage: idempotent; an absent image is not an error. */
export function RemoveImage(rt: RuntimeCore, image: ImageSpec): Op | CriError {
  return rt.call<null>({ method: "RemoveImage", pod: null, container: null }, null, () => {
    const rec = rt.store.findImage(image.image);
    if (rec !== undefined) {
      for (const [key, img] of rt.store.images) if (img === rec) rt.store.images.delete(key);
    }
    return null;
  }, () => ({ image: image.image }));
}
