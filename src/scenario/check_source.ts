// The loader's core, for check.ts and load.ts: from a source text to the checked scenario, with a
// reader for the manifest files it names. Apart from check.ts so that the package's declarations
// (check.ts's) do not reach the manifest reader's types, which hold the yaml library's.
import { checkPodsAgainstApi } from "./api_validation.ts";
import type { CheckResult, LoadOptions, LoadResult } from "./check.ts";
import { crossCheck } from "./crossref.ts";
import { dedupeIssues, formatPath, sortIssues, type LocatedIssue, type PathIssue } from "./errors.ts";
import { ignoredManifestFields } from "./ignored.ts";
import { classifyInput } from "./manifest/documents.ts";
import { scenarioFromManifests } from "./manifest/default_scenario.ts";
import { prepareEntries, type ManifestReader } from "./manifest/entries.ts";
import { Locator } from "./manifest/locator.ts";
import { issueMessages } from "./messages.ts";
import { resolveScenario, type Scenario } from "./resolve.ts";
import { scenarioSchema, SCENARIO_KEYS } from "./schema/scenario.ts";
import type { SourceResult } from "./source_text.ts";
import { parseYaml } from "./yaml.ts";
import { Document, LineCounter } from "yaml";

export function checkSource(source: SourceResult, file: string, read: ManifestReader | undefined, opts: LoadOptions = {}): CheckResult {
  if (!source.ok) return { ok: false, issues: [source.issue] };
  const input = classifyInput(source.text, file, SCENARIO_KEYS);
  if (input.kind === "error") return { ok: false, issues: sortIssues(input.issues) };
  if (input.kind === "manifests") {
    const built = scenarioFromManifests(input.objects, input.skipped, file, opts);
    return checkValue(built.raw, built.locator, { read: undefined, built: { assumptions: built.assumptions }, prior: built.errors });
  }
  const yaml = parseYaml(source.text, file);
  if (!yaml.ok) return { ok: false, issues: sortIssues(yaml.issues) };
  return checkValue(withNodeName(yaml.value, opts.nodeName), new Locator({ file, doc: yaml.doc, lc: yaml.lineCounter }, file), { read, built: null, prior: [] });
}

/** A scenario run with --node: its node is that one, whichever field named it. */
function withNodeName(raw: Record<string, unknown>, name: string | undefined): Record<string, unknown> {
  if (name === undefined) return raw;
  const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  const node = isRecord(raw.node) ? raw.node : {};
  const kubelet = isRecord(raw.kubelet) ? raw.kubelet : undefined;
  return { ...raw, node: { ...node, name }, ...(kubelet !== undefined && kubelet.nodeName !== undefined ? { kubelet: { ...kubelet, nodeName: name } } : {}) };
}

/** The scenario value through the manifests' preparation, the schema and the cross-checks. */
function checkValue(raw: Record<string, unknown>, locator: Locator, opts: { read: ManifestReader | undefined; built: LoadResult["built"]; prior: LocatedIssue[] }): CheckResult {
  const prepared = prepareEntries(raw, locator, { read: opts.read, fromManifestFile: opts.built !== null });
  const value = prepared.forSchema;
  // An object that gave no pod was reported as such; what the schema says of it would only repeat that.
  const broken = [...prepared.expanded].filter(([, e]) => e.pod === null).map(([i]) => `pods[${i}].manifest`);
  const keep = (i: PathIssue) => {
    const path = formatPath(i.path);
    return !broken.some((b) => path === b || path.startsWith(`${b}.`) || path.startsWith(`${b}[`));
  };
  const parsed = scenarioSchema.safeParse(value, { reportInput: true });
  const schemaIssues = parsed.success ? [] : parsed.error.issues.flatMap((i) => issueMessages(i, scenarioSchema)).filter(keep);
  const cross = crossCheck(value);
  // A value the schema already refused needs no second complaint about what it refers to.
  const refused = new Set(schemaIssues.map((i) => formatPath(i.path)));
  // A pod whose manifestFile could not be read has no known name: references to it cannot be judged.
  const unknownPod = (i: PathIssue) => prepared.unresolved > 0 && /^no pod "/.test(i.message);
  const crossIssues = cross.issues.filter((i) => !refused.has(formatPath(i.path)) && !unknownPod(i)).filter(keep);
  // Only a pod the schema accepted can be defaulted and judged as the apiserver would; its issues
  // name the expanded pod's fields, which the locator places in the workload or manifest file.
  const api = parsed.success ? checkPodsAgainstApi(parsed.data) : { issues: [], warnings: [] };
  const place = (issues: PathIssue[]) => issues.map((i) => locator.place(i));
  const issues = dedupeIssues(sortIssues([...opts.prior, ...prepared.errors, ...place([...schemaIssues, ...crossIssues, ...api.issues])]));
  if (!parsed.success || issues.length > 0) return { ok: false, issues };
  // Fields a controller added (a StatefulSet pod's hostname) are its doing, not the user's: not listed.
  const podFields = ignoredManifestFields(value.pods).filter((f) => locator.written(f.path)).map((f) => ({
    ...locator.place({ path: f.path, atKey: true, message: IGNORED_MESSAGE }),
    field: f.field,
  }));
  // A workload's own fields the simulator does not model (replicas, backoffLimit, ...), once each.
  const workloadFields = [...prepared.expanded].flatMap(([i, e]) => e.unmodelled.map((path) => ({
    ...locator.placeInObject(i, { path, atKey: true, message: IGNORED_MESSAGE }),
    field: `${e.kind} ${formatPath(path)}`,
  })));
  const ignored = [...podFields, ...workloadFields.filter((w, k) => workloadFields.findIndex((x) => x.field === w.field) === k)];
  const warnings = sortIssues([...prepared.warnings, ...place(cross.warnings), ...place(api.warnings), ...ignored]);
  return { ok: true, scenario: resolveScenario(parsed.data), warnings, ignored, raw: prepared.written, notes: prepared.notes, built: opts.built };
}

const IGNORED_MESSAGE = "ignored: the simulator does not model this field";

/**
 * A scenario already in value form, as JSON would carry it: an edit of a scenario that loaded
 * (exploration's swarm draws, shrinking's candidates). The same checks as its JSON text gets from
 * checkScenarioText, without writing that text and parsing it back twice (classifyInput, then
 * parseYaml: more than half of what such a compile cost). The text-level refusals (size, NUL
 * bytes, nesting, aliases) guard hostile files, which an edit of a loaded scenario is not. The
 * value is read, never changed. Only the scenario comes back (a value has no positions to place
 * warnings at); null when it does not pass, and checkScenarioText of its JSON says why.
 */
export function compileScenarioValue(raw: Record<string, unknown>, fileName = "<scenario>"): Scenario | null {
  const ref = { file: fileName, doc: new Document(null), lc: new LineCounter() };
  const r = checkValue(raw, new Locator(ref, fileName), { read: undefined, built: null, prior: [] });
  return r.ok ? r.scenario : null;
}
