// What the HTML page carries: the timeline model of each run it shows (one, or two for a diff) and,
// for a diff, where the two traces first differ. The page's script (src/report/html_client/) reads
// it from a JSON script element; both sides share these types.
import type { FirstDifference } from "../diff.ts";
import type { TimelineModel } from "../timeline/model.ts";

export type { FirstDifference };

export interface PageData {
  /** "kubelet-sim 0.1.0". */
  generator: string;
  runs: TimelineModel[];
  /** Set for a diff of two runs; null when they do not differ, or for a single run. */
  diff: FirstDifference | null;
  /** True for a diff (even of two identical runs). */
  isDiff: boolean;
  /** Goroutines (names or name prefixes) the narrowed view keeps besides those the violation names. */
  narrowActors: string[];
}

/** The id of the script element holding the page data. */
export const PAGE_DATA_ID = "kubelet-sim-data";
