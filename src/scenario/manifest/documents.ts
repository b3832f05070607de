// What a file holds: a kubelet-sim scenario (one YAML document, a mapping of scenario fields) or
// Kubernetes manifests (`apiVersion` and `kind`; several `---` documents; `kind: List` items), and
// where each manifest object sits in it, so errors can point into the file.
import type { Document, LineCounter } from "yaml";
import type { LocatedIssue } from "../errors.ts";
import { describeValue } from "../found.ts";
import { isObj, str, type Raw } from "../podindex.ts";
import { parseYamlStream, type StreamResult } from "../yaml.ts";
import { locate } from "../positions.ts";
import { ACCEPTED_KINDS, noTemplate } from "./expand.ts";
import { noPodReason } from "./controllers.ts";

/** A document of a file, for placing issues in it. */
export interface DocRef {
  file: string;
  doc: Document;
  lc: LineCounter;
}

/** One object of a manifest file: a Pod, a workload, or a kind kubelet-sim cannot run. */
export interface ManifestObject {
  value: Raw;
  ref: DocRef;
  /** Where the object sits in its document: [] or ["items", k] for a List's item. */
  prefix: PropertyKey[];
  /** 1-based line of the object. */
  line: number;
  kind: string;
  name: string;
}

export type Input =
  | { kind: "scenario" }
  | { kind: "manifests"; objects: ManifestObject[]; skipped: ManifestObject[] }
  | { kind: "error"; issues: LocatedIssue[] };

/** The scenario's top-level fields, so a mapping with none of them and no `kind` is neither. */
export function classifyInput(text: string, file: string, scenarioKeys: readonly string[]): Input {
  const stream = parseYamlStream(text, file);
  // A single document that does not parse is left to the scenario loader, which says why in detail;
  // a stream of several is manifests, and each document's syntax errors are said where they are.
  if (!stream.ok) return /^---\s*$/m.test(text.replace(/^\s*---\s*\n/, "")) ? { kind: "error", issues: stream.issues } : { kind: "scenario" };
  const docs = stream.docs.filter((d) => d.value !== null && d.value !== undefined);
  const looksLikeManifest = (v: unknown) => isObj(v) && (v.kind !== undefined || v.apiVersion !== undefined);
  if (docs.length === 1) {
    const v = docs[0]!.value;
    if (!isObj(v) || !looksLikeManifest(v)) {
      if (isObj(v) && !Object.keys(v).some((k) => scenarioKeys.includes(k))) return { kind: "error", issues: [neither(file, docs[0]!.line, v)] };
      return { kind: "scenario" };
    }
  }
  if (docs.length === 0) return { kind: "scenario" };
  // Scenarios in several documents: one scenario per file, as the scenario loader says.
  const scenarioLike = docs.some((d) => isObj(d.value) && !looksLikeManifest(d.value) && Object.keys(d.value).some((k) => scenarioKeys.includes(k)));
  if (scenarioLike) {
    const second = stream.docs[1]!;
    const at = stream.lineCounter.linePos(second.doc.range?.[0] ?? 0);
    return { kind: "error", issues: [{ file, line: at.line, col: 1, path: "", message: "syntax error: expected one YAML document, found several (separated by ---); put one scenario per file" }] };
  }
  return objectsOf(stream, file);
}

function neither(file: string, line: number, v: Raw): LocatedIssue {
  const keys = Object.keys(v).slice(0, 5).join(", ");
  return {
    file, line, col: 1, path: "",
    message: `expected a kubelet-sim scenario (a mapping with name, pods, timeline, ...) or a Kubernetes manifest (apiVersion and kind: ${ACCEPTED_KINDS.join(", ")}), found a mapping with keys ${keys}`,
  };
}

const LIST_ITEMS_MAX = 200;

function objectsOf(stream: Extract<StreamResult, { ok: true }>, file: string): Input {
  const issues: LocatedIssue[] = [];
  const found: ManifestObject[] = [];
  const many = stream.docs.filter((d) => d.value !== null).length > 1;
  stream.docs.forEach((d, n) => {
    if (d.value === null || d.value === undefined) return;
    const ref: DocRef = { file, doc: d.doc, lc: stream.lineCounter };
    const where = many ? `document ${n + 1}: ` : "";
    if (!isObj(d.value) || str(d.value.kind) === undefined) {
      issues.push({ file, line: d.line, col: 1, path: "", message: `${where}expected a Kubernetes object with apiVersion and kind, found ${isObj(d.value) ? "a mapping without kind" : describeValue(d.value)}` });
      return;
    }
    const kind = str(d.value.kind)!;
    if (kind === "List" || (kind.endsWith("List") && Array.isArray(d.value.items))) {
      const items = Array.isArray(d.value.items) ? d.value.items : [];
      items.slice(0, LIST_ITEMS_MAX).forEach((item, k) => {
        const at = locate(d.doc, stream.lineCounter, ["items", k]);
        if (!isObj(item) || str(item.kind) === undefined) {
          issues.push({ file, ...at, path: `items[${k}]`, message: `${where}expected a Kubernetes object with apiVersion and kind, found ${describeValue(item)}` });
        } else found.push(object(item, ref, ["items", k], at.line));
      });
      if (items.length > LIST_ITEMS_MAX) issues.push({ file, line: d.line, col: 1, path: "items", message: `${where}a List of at most ${LIST_ITEMS_MAX} items, found ${items.length}` });
      return;
    }
    found.push(object(d.value, ref, [], d.line));
  });
  if (issues.length > 0) return { kind: "error", issues };
  const runnable = found.filter((o) => noPodReason(o.value) === null);
  const skipped = found.filter((o) => noPodReason(o.value) !== null);
  if (runnable.length === 0) {
    return { kind: "error", issues: skipped.map((o) => ({ file, ...locate(o.ref.doc, o.ref.lc, [...o.prefix, "kind"]), path: "kind", message: noTemplate(o.kind, noPodReason(o.value)!) })) };
  }
  return { kind: "manifests", objects: runnable, skipped };
}

function object(value: Raw, ref: DocRef, prefix: PropertyKey[], line: number): ManifestObject {
  const meta = isObj(value.metadata) ? value.metadata : {};
  return { value, ref, prefix, line, kind: str(value.kind)!, name: str(meta.name) ?? str(meta.generateName) ?? "" };
}
