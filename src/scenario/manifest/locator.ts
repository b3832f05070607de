// Places an issue found in the scenario value at a line and column of the file the user wrote it
// in: the scenario file, or the manifest file a pod came from (manifestFile, or a plain manifest
// run directly), at the object's own path (a Deployment's pod field spec.x is reported at
// spec.template.spec.x).
import { formatPath, type LocatedIssue } from "../errors.ts";
import type { PathIssue } from "../errors.ts";
import { locate } from "../positions.ts";
import type { DocRef } from "./documents.ts";
import type { ObjectIssue } from "./expand.ts";

/** Where pods[i].manifest was written. */
export interface Origin {
  ref: DocRef;
  /** The object's path in its document. */
  prefix: PropertyKey[];
  /** How issue paths name it: ["pods", i, "manifest"] inline, the object's own path in a manifest file. */
  display: PropertyKey[];
  /** A pod field's path in the object (identity for a Pod). */
  mapPath(podPath: readonly PropertyKey[]): PropertyKey[];
}

export class Locator {
  readonly origins = new Map<number, Origin>();

  /** `main` is the scenario document; null when the scenario was built from a manifest file. */
  constructor(
    private readonly main: DocRef | null,
    private readonly file: string,
  ) {}

  /** The scenario document, when there is one. */
  mainRef(): DocRef | null {
    return this.main;
  }

  place(issue: PathIssue): LocatedIssue {
    const [head, index, field, ...rest] = issue.path;
    const origin = head === "pods" && typeof index === "number" ? this.origins.get(index) : undefined;
    if (origin !== undefined && (field === "manifest" || this.main === null)) {
      const inObject = field === "manifest" ? origin.mapPath(rest) : [];
      return this.inObject(origin, inObject, issue.message, field === "manifest" && (issue.atKey ?? false));
    }
    if (this.main === null) return { file: this.file, line: 1, col: 1, path: formatPath(issue.path), message: issue.message };
    const { line, col } = locate(this.main.doc, this.main.lc, issue.path, issue.atKey ?? false);
    return { file: this.main.file, line, col, path: formatPath(issue.path), message: issue.message };
  }

  /** Whether a field of pods[i].manifest is written in the object (not added by its controller). */
  written(path: readonly PropertyKey[]): boolean {
    const [head, index, field, ...rest] = path;
    const origin = head === "pods" && typeof index === "number" && field === "manifest" ? this.origins.get(index) : undefined;
    if (origin === undefined) return true;
    return origin.ref.doc.hasIn([...origin.prefix, ...origin.mapPath(rest)]);
  }

  /** An issue at a path of pods[index]'s object as written (not of the pod made from it). */
  placeInObject(index: number, issue: ObjectIssue): LocatedIssue {
    const origin = this.origins.get(index);
    if (origin === undefined) return this.place({ path: ["pods", index, "manifest", ...issue.path], message: issue.message, ...(issue.atKey ? { atKey: true } : {}) });
    return this.inObject(origin, issue.path, issue.message, issue.atKey ?? false);
  }

  private inObject(origin: Origin, path: readonly PropertyKey[], message: string, atKey: boolean): LocatedIssue {
    const { line, col } = locate(origin.ref.doc, origin.ref.lc, [...origin.prefix, ...path], atKey);
    return { file: origin.ref.file, line, col, path: formatPath([...origin.display, ...path]), message };
  }
}
