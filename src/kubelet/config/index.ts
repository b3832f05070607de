// Models pkg/kubelet/kubelet.go makePodSourceConfig: the pod config with its file and apiserver sources.
//
// Start it from a composition root (no process needed): the sources spawn their own processes.
//   const { podConfig } = makePodSourceConfig(sim, { nodeName: "node-1", kubeClient: api.client("kubelet"), manifestDir });
//   ... the syncLoop reads podConfig.updates and asks podConfig.SeenAllSources(seen).
import type { Sim } from "../../sim/index.ts";
import type { PodsClient } from "../../apiserver/client.ts";
import { PodConfig } from "./config.ts";
import { NewSourceApiserver } from "./apiserver.ts";
import { DEFAULT_FILE_CHECK_FREQUENCY_MS, NewSourceFile, type SourceFile } from "./file.ts";
import type { ManifestDir } from "./manifest_dir.ts";
import { ApiserverSource, FileSource } from "./pod_update.ts";
import type { Reflector } from "./reflector.ts";
import type { BackoffParams } from "./wait_backoff.ts";

export * from "./pod_update.ts";
export { PodConfig, UPDATES_CHANNEL_CAPACITY, incrementalNotifications } from "./config.ts";
export { merge, checkAndUpdatePod, emptyPodStorage, type PodStorageState, type MergeResult } from "./merge.ts";
export { ManifestDir, type FsEvent, type FsOp } from "./manifest_dir.ts";
export { Reflector, NewListWatchFromClient, type ListerWatcher } from "./reflector.ts";
export { SourceFile, DEFAULT_FILE_CHECK_FREQUENCY_MS } from "./file.ts";
export { REFLECTOR_BACKOFF, ExponentialBackoffManager, type BackoffParams } from "./wait_backoff.ts";
export { applyDefaults, generatePodName } from "./common.ts";

export interface PodSourceConfigOptions {
  readonly nodeName: string;
  /** kubeDeps.KubeClient: when set, the apiserver source ("api") is added. */
  readonly kubeClient?: PodsClient;
  /** StaticPodPath: when set, the file source ("file") is added. */
  readonly manifestDir?: ManifestDir;
  /** FileCheckFrequency (default 20 s). */
  readonly fileCheckFrequencyMs?: number;
  /** The reflector's backoff (default upstream's). */
  readonly reflectorBackoff?: BackoffParams;
  /** Static pods ("namespace/name") whose validation the scenario skips (skipApiValidation). */
  readonly skipStaticPodValidation?: ReadonlySet<string>;
}

export interface PodSourceConfig {
  readonly podConfig: PodConfig;
  readonly reflector: Reflector | null;
  readonly fileSource: SourceFile | null;
}

/** makePodSourceConfig: NewPodConfig(Incremental), then the file source, then the apiserver source. */
export function makePodSourceConfig(sim: Sim, opts: PodSourceConfigOptions): PodSourceConfig {
  const podConfig = new PodConfig(sim);
  let fileSource: SourceFile | null = null;
  let reflector: Reflector | null = null;
  if (opts.manifestDir !== undefined) {
    const period = opts.fileCheckFrequencyMs ?? DEFAULT_FILE_CHECK_FREQUENCY_MS;
    fileSource = NewSourceFile(sim, opts.manifestDir, opts.nodeName, period, podConfig.Channel(FileSource), opts.skipStaticPodValidation);
  }
  if (opts.kubeClient !== undefined) {
    const backoff = opts.reflectorBackoff === undefined ? {} : { backoff: opts.reflectorBackoff };
    reflector = NewSourceApiserver(sim, opts.kubeClient, opts.nodeName, podConfig.Channel(ApiserverSource), backoff);
  }
  return { podConfig, reflector, fileSource };
}
