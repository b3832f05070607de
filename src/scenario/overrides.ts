// Running a scenario under another kubelet without editing it: `--kubelet-version` and `--variant`
// on `run` and `explore`, and the buggy and fixed sides of every race. An override is written into
// the scenario's YAML value before the schema sees it, so it means exactly what writing it in the
// file would: defaults that depend on the version (feature gates) follow the new version.
import { checkScenarioText, loadScenarioFile, loadScenarioText, type LoadOptions, type LoadResult } from "./load.ts";
import { ScenarioError, type LocatedIssue } from "./errors.ts";
import { readSource } from "./source.ts";
import { parseYaml } from "./yaml.ts";
import { locate } from "./positions.ts";

export interface KubeletOverrides {
  /** kubelet.version, e.g. "1.22". */
  version?: string;
  /** Merged over kubelet.variants: a model switch by name, on or off. */
  variants?: Readonly<Record<string, boolean>>;
  /** Merged over kubelet.featureGates: a feature gate by its upstream name, on or off. */
  featureGates?: Readonly<Record<string, boolean>>;
  /** `--node NAME`: the node the kubelet runs as (node.name); of a manifest dump, the node whose pods run. */
  nodeName?: string;
}

export function hasOverrides(o: KubeletOverrides | undefined): o is KubeletOverrides {
  return o !== undefined && (o.version !== undefined || o.nodeName !== undefined || Object.keys(o.variants ?? {}).length > 0 || Object.keys(o.featureGates ?? {}).length > 0);
}

/** What the loader takes before reading: the node, and the version a manifest's built scenario uses. */
function loadOptions(o: KubeletOverrides | undefined): LoadOptions {
  return { ...(o?.version === undefined ? {} : { kubeletVersion: o.version }), ...(o?.nodeName === undefined ? {} : { nodeName: o.nodeName }) };
}

/** The raw scenario with the overrides written into its `kubelet` section (a new value). */
export function applyKubeletOverrides(raw: Readonly<Record<string, unknown>>, o: KubeletOverrides): Record<string, unknown> {
  if (!hasOverrides(o)) return { ...raw };
  const out: Record<string, unknown> = { ...raw };
  if (o.nodeName !== undefined) out.node = { ...(isRecord(raw.node) ? raw.node : {}), name: o.nodeName };
  const kubelet = isRecord(raw.kubelet) ? { ...raw.kubelet } : {};
  if (o.nodeName !== undefined && kubelet.nodeName !== undefined) kubelet.nodeName = o.nodeName;
  if (o.version !== undefined) kubelet.version = o.version;
  if (o.variants !== undefined && Object.keys(o.variants).length > 0) {
    kubelet.variants = { ...(isRecord(kubelet.variants) ? kubelet.variants : {}), ...o.variants };
  }
  if (o.featureGates !== undefined && Object.keys(o.featureGates).length > 0) {
    kubelet.featureGates = { ...(isRecord(kubelet.featureGates) ? kubelet.featureGates : {}), ...o.featureGates };
  }
  return { ...out, kubelet };
}

/**
 * Loads a scenario file with overrides. The file is checked first as it is (its errors located in
 * it); then the overridden value is checked again, and what no longer fits is reported against the
 * flags, e.g. a feature gate the overriding version does not have.
 */
export function loadScenarioWithOverrides(path: string, o: KubeletOverrides | undefined): LoadResult {
  const loaded = loadScenarioFile(path, loadOptions(o));
  if (!hasOverrides(o)) return loaded;
  const source = readSource(path);
  if (!source.ok) throw new Error(`${path}: changed while it was read`);
  return withOverrides(loaded, source.text, path, o);
}

/** loadScenarioWithOverrides for a text; `fileName` is what error messages call it. */
export function loadScenarioTextWithOverrides(text: string, fileName: string, o: KubeletOverrides | undefined): LoadResult {
  const loaded = loadScenarioText(text, fileName, loadOptions(o));
  return hasOverrides(o) ? withOverrides(loaded, text, fileName, o) : loaded;
}

function withOverrides(loaded: LoadResult, text: string, path: string, o: KubeletOverrides): LoadResult {
  const checked = checkScenarioText(JSON.stringify(applyKubeletOverrides(loaded.raw, o)), path);
  if (!checked.ok) {
    // Positions in the JSON rendering mean nothing to the user: place each issue at its field (or
    // the nearest one that is written) in the file, and say which flags it comes with. A scenario
    // built around a manifest file has no such fields: its issues point at the file's start.
    const flags = overrideFlags(o).trim();
    const yaml = loaded.built === null ? parseYaml(text, path) : null;
    throw new ScenarioError(checked.issues.map((i): LocatedIssue => {
      const { line, col } = yaml !== null && yaml.ok ? locate(yaml.doc, yaml.lineCounter, parsePath(i.path)) : { line: 1, col: 1 };
      return { ...i, file: path, line, col, message: `${i.message} (with ${flags})` };
    }));
  }
  return { ...loaded, scenario: checked.scenario };
}

/** formatPath read back: `pods[0].manifest["a.b"]` → ["pods", 0, "manifest", "a.b"]. */
function parsePath(path: string): PropertyKey[] {
  const out: PropertyKey[] = [];
  const re = /([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const m of path.matchAll(re)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(JSON.parse(m[3]!) as string);
  }
  return out;
}

/**
 * `--variant NAME` switches a variant on, `--variant NAME=false` off (and `=true` on). Throws an
 * Error saying what was expected; the names themselves are checked when the run starts.
 */
export function parseVariantFlags(flags: readonly string[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const flag of flags) {
    const m = /^([a-z][A-Za-z0-9]*)(?:=(true|false))?$/.exec(flag);
    if (m === null) throw new Error(`--variant ${flag}: expected NAME, NAME=true or NAME=false with a camelCase NAME`);
    out[m[1]!] = m[2] !== "false";
  }
  return out;
}

/**
 * `--feature-gate NAME=true|false` (the kubelet's own --feature-gates spelling, one gate per flag).
 * Throws an Error saying what was expected; unknown gates are the schema's to refuse.
 */
export function parseFeatureGateFlags(flags: readonly string[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const flag of flags) {
    const m = /^([A-Z][A-Za-z0-9]*)=(true|false)$/.exec(flag);
    if (m === null) throw new Error(`--feature-gate ${flag}: expected NAME=true or NAME=false with the gate's upstream name, e.g. EventedPLEG=true`);
    out[m[1]!] = m[2] === "true";
  }
  return out;
}

/** The flags that reproduce the overrides, for replay keys: "" or " --kubelet-version 1.22 --variant x=false". */
export function overrideFlags(o: KubeletOverrides | undefined): string {
  if (!hasOverrides(o)) return "";
  const version = (o.version === undefined ? "" : ` --kubelet-version ${o.version}`) + (o.nodeName === undefined ? "" : ` --node ${o.nodeName}`);
  const variants = Object.keys(o.variants ?? {})
    .sort()
    .map((name) => ` --variant ${name}${o.variants![name] ? "" : "=false"}`)
    .join("");
  const gates = Object.keys(o.featureGates ?? {})
    .sort()
    .map((name) => ` --feature-gate ${name}=${o.featureGates![name] ? "true" : "false"}`)
    .join("");
  return version + variants + gates;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
