// Loads a scenario file: read safely, parse YAML, validate against the schema and across fields,
// and report every problem at once as `file:line:col: path: message`.
import type { Document, LineCounter } from "yaml";
import { checkPodsAgainstApi } from "./api_validation.ts";
import { crossCheck } from "./crossref.ts";
import { dedupeIssues, formatPath, ScenarioError, sortIssues, type LocatedIssue } from "./errors.ts";
import { ignoredManifestFields } from "./ignored.ts";
import { issueMessages, type PathIssue } from "./messages.ts";
import { locate } from "./positions.ts";
import { resolveScenario, type Scenario } from "./resolve.ts";
import { scenarioSchema } from "./schema/scenario.ts";
import { checkText, readSource, type SourceResult } from "./source.ts";
import { parseYaml } from "./yaml.ts";

export interface LoadResult {
  scenario: Scenario;
  /** Things that are accepted but worth knowing: ignored manifest fields, dropped sidecar fields. */
  warnings: LocatedIssue[];
  /** Manifest fields the simulator does not model, once each, where each first occurs. */
  ignored: IgnoredFieldWarning[];
}

/** A warning about an unmodelled manifest field, named as in the manifest: `spec.containers[].securityContext`. */
export interface IgnoredFieldWarning extends LocatedIssue {
  field: string;
}

export type CheckResult = ({ ok: true } & LoadResult) | { ok: false; issues: LocatedIssue[] };

/** Loads and validates a scenario file; throws ScenarioError listing every problem. */
export function loadScenarioFile(path: string): LoadResult {
  return unwrapResult(checkScenarioFile(path));
}

/** Loads and validates scenario text; `fileName` is what error messages call it. */
export function loadScenarioText(text: string, fileName = "<scenario>"): LoadResult {
  return unwrapResult(checkScenarioText(text, fileName));
}

/** Like loadScenarioFile, but returns the problems instead of throwing. */
export function checkScenarioFile(path: string): CheckResult {
  return checkSource(readSource(path), path);
}

export function checkScenarioText(text: string, fileName = "<scenario>"): CheckResult {
  return checkSource(checkText(text, fileName), fileName);
}

function unwrapResult(result: CheckResult): LoadResult {
  if (!result.ok) throw new ScenarioError(result.issues);
  return { scenario: result.scenario, warnings: result.warnings, ignored: result.ignored };
}

function checkSource(source: SourceResult, file: string): CheckResult {
  if (!source.ok) return { ok: false, issues: [source.issue] };
  const yaml = parseYaml(source.text, file);
  if (!yaml.ok) return { ok: false, issues: sortIssues(yaml.issues) };
  const place = (issues: PathIssue[]) => issues.map((i) => placeIssue(i, file, yaml.doc, yaml.lineCounter));
  const parsed = scenarioSchema.safeParse(yaml.value, { reportInput: true });
  const schemaIssues = parsed.success ? [] : parsed.error.issues.flatMap((i) => issueMessages(i, scenarioSchema));
  const cross = crossCheck(yaml.value);
  // A value the schema already refused needs no second complaint about what it refers to.
  const refused = new Set(schemaIssues.map((i) => formatPath(i.path)));
  const crossIssues = cross.issues.filter((i) => !refused.has(formatPath(i.path)));
  // Only a pod the schema accepted can be defaulted and judged as the apiserver would.
  const api = parsed.success ? checkPodsAgainstApi(parsed.data) : { issues: [], warnings: [] };
  const issues = dedupeIssues(sortIssues(place([...schemaIssues, ...crossIssues, ...api.issues])));
  if (!parsed.success || issues.length > 0) return { ok: false, issues };
  const ignored = ignoredManifestFields(yaml.value.pods).map((f) => ({
    ...placeIssue({ path: f.path, atKey: true, message: IGNORED_MESSAGE }, file, yaml.doc, yaml.lineCounter),
    field: f.field,
  }));
  const warnings = sortIssues([...place(cross.warnings), ...place(api.warnings), ...ignored]);
  return { ok: true, scenario: resolveScenario(parsed.data), warnings, ignored };
}

const IGNORED_MESSAGE = "ignored: the simulator does not model this field";

function placeIssue(issue: PathIssue, file: string, doc: Document, lc: LineCounter): LocatedIssue {
  const { line, col } = locate(doc, lc, issue.path, issue.atKey ?? false);
  return { file, line, col, path: formatPath(issue.path), message: issue.message };
}
