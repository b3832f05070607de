// The simulated container runtime's configuration as the parsed scenario carries it
// (schema/runtime.ts parses it).
import type { CriFault, ImageConfig } from "../../cri/config.ts";
import type { CriMethod } from "../../cri/methods.ts";
import type { RangeMs } from "./common.ts";

/** CRI RuntimeService and ImageService methods the simulated runtime serves: cri/methods.ts's list (the scenario layer sits above cri/). */
export { CRI_METHODS, type CriMethod } from "../../cri/methods.ts";

// A pull failure, an image and a fault are what cri/config.ts says they are (the runtime takes the
// compiled scenario's section as it is).
export type { CriFault, ImageConfig, ImagePullFailure } from "../../cri/config.ts";

export interface RuntimeConfig {
  latency: Record<CriMethod, RangeMs>;
  pauseImage: string;
  images: Record<string, ImageConfig>;
  faults: CriFault[];
  containerEventDelay: RangeMs;
  podSandboxStatusTimestamp: boolean;
}
