// What one vector's run comes to. A runner returns the differences it found (none: every field it
// read agreed), optionally with fields it names as not modelled; it throws VectorError when the
// vector cannot be run at all (malformed, an unknown op or function, a harness that did not
// settle). run.ts turns that, and the fields nobody read, into the vector's verdict:
// ok, failed, partial or error.

/** Fields of a vector the simulator has nothing to check them against, and why. */
export interface NotModelled {
  /** Field paths in the vector ("expect.updated"); every leaf under them is excused. */
  fields: string[];
  why: string;
}

export interface PartialOutcome {
  diffs: string[];
  notModelled: NotModelled[];
}

/** The diff lines (empty when every checked field agreed), or those with fields not modelled. */
export type Outcome = string[] | PartialOutcome;

/** What a runner knows about the file a vector comes from. */
export interface RunContext {
  /** The kubelet minor the file's pinned upstream code shows; the models run as that release. */
  minor: number;
  /** The vector comes from `newerVersionVectors`: an upstream line newer than the file's pin. */
  newerLine: boolean;
}

/** A vector that cannot run: its `error` line says why. */
export class VectorError extends Error {
  override name = "VectorError";
}

export function notModelled(fields: string[], why: string, diffs: string[] = []): PartialOutcome {
  return { diffs, notModelled: [{ fields, why }] };
}

export function isPartial(o: Outcome): o is PartialOutcome {
  return !Array.isArray(o);
}

/** The diff lines of any outcome. */
export function diffsOf(o: Outcome): string[] {
  return isPartial(o) ? o.diffs : o;
}
