// From a scenario's text to the compiled scenario: parse YAML, turn manifests into the pods the
// kubelet gets, validate against the schema, across fields and as the apiserver would, and report
// every problem at once, placed in the file the user wrote it in. No file system and no Node
// built-ins: load.ts reads files around it, and play mode's page compiles the learner's timing
// with it in the browser.
import { checkSource } from "./check_source.ts";
import { ScenarioError, type LocatedIssue } from "./errors.ts";
import type { Scenario } from "./resolve.ts";
import { checkText } from "./source_text.ts";

export interface LoadResult {
  scenario: Scenario;
  /** Things that are accepted but worth knowing: ignored manifest fields, dropped sidecar fields. */
  warnings: LocatedIssue[];
  /** Manifest fields the simulator does not model, once each, where each first occurs. */
  ignored: IgnoredFieldWarning[];
  /** The scenario as a YAML value, as written, with every manifestFile read in: self-contained (explore copies it into repro files). */
  raw: Record<string, unknown>;
  /** Short `note:` lines about the input: fields a cluster set and what became of them, the node taken from the manifests. */
  notes: string[];
  /** Set when the file was a plain manifest and the scenario was built around it: what was assumed, in a few lines. */
  built: { assumptions: string[] } | null;
}

/** A warning about an unmodelled manifest field, named as in the manifest: `spec.containers[].securityContext`. */
export interface IgnoredFieldWarning extends LocatedIssue {
  field: string;
}

export type CheckResult = ({ ok: true } & LoadResult) | { ok: false; issues: LocatedIssue[] };

/** Loads and validates scenario text; `fileName` is what error messages call it. */
export function loadScenarioText(text: string, fileName = "<scenario>", opts: LoadOptions = {}): LoadResult {
  return unwrapResult(checkScenarioText(text, fileName, opts));
}

/**
 * What the command line may say about the scenario before it is read: the node to run as
 * (`--node`: a scenario's node.name, or which node's pods a manifest dump runs), and, for a
 * scenario built around a manifest, the kubelet version (`--kubelet-version`: which apiVersions
 * its cluster serves; a scenario file's version is overridden after loading, overrides.ts).
 */
export interface LoadOptions {
  kubeletVersion?: string;
  nodeName?: string;
}

/** Text has no folder, so its pods cannot name a manifestFile. */
export function checkScenarioText(text: string, fileName = "<scenario>", opts: LoadOptions = {}): CheckResult {
  return checkSource(checkText(text, fileName), fileName, undefined, opts);
}

export function unwrapResult(result: CheckResult): LoadResult {
  if (!result.ok) throw new ScenarioError(result.issues);
  const { ok: _ok, ...loaded } = result;
  return loaded;
}
