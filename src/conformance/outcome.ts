// What one vector's run comes to: the differences found (none = passed), or a skip with its reason.

/** A vector the simulator does not cover, reported with why; never counted as passed. */
export interface Skip {
  skipped: string;
}

/** The diff lines (empty when the vector passes), or a skip. */
export type Outcome = string[] | Skip;

/** What a runner knows about the file a vector comes from. */
export interface RunContext {
  /** The kubelet minor the file's pinned upstream code shows; the models run as that release. */
  minor: number;
  /** The vector comes from `newerVersionVectors`: an upstream line newer than the file's pin. */
  newerLine: boolean;
}

export function skip(reason: string): Skip {
  return { skipped: reason };
}

export function isSkip(o: Outcome): o is Skip {
  return !Array.isArray(o);
}
