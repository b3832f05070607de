// Generates docs/scenario-reference.md from the zod schema: one section per object, one row per
// field, with its type, default and description. A test fails when the page is out of date.
import type { z } from "zod";
import { podSchema } from "../k8s/pod_schema.ts";
import { CONTROLLERS } from "./manifest/controllers.ts";
import { defaultOf, defOf, isOptional, metaOf, unwrap } from "./introspect.ts";
import { scenarioSchema } from "./schema/scenario.ts";
import { MAX_FILE_BYTES } from "./source.ts";
import { MAX_ALIASES, MAX_DEPTH } from "./yaml.ts";

interface Section {
  title: string;
  anchor: string;
  description: string;
  rows: string[];
}

const anchorOf = (path: string) => path.replace(/\[\]/g, "-item").replace(/\.\*/g, "-entry").replace(/[^A-Za-z0-9-]+/g, "-").toLowerCase();
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The schema that describes a field's elements, for lists and maps of objects. */
function containerOf(schema: z.ZodType): { kind: "list" | "map" | "object"; inner: z.ZodType } | undefined {
  const s = unwrap(schema);
  const def = defOf(s);
  if (def.type === "object") return { kind: "object", inner: s };
  const isSection = (t: z.ZodType) => defOf(unwrap(t)).type === "object" && !metaOf(t).typeName;
  if (def.type === "array" && def.element && isSection(def.element)) return { kind: "list", inner: def.element };
  if (def.type === "record" && def.valueType && isSection(def.valueType)) return { kind: "map", inner: def.valueType };
  return undefined;
}

/** The field's schema without the optional/default wrapper that carries the field's own description. */
function stripOptional(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  return ["optional", "default", "prefault"].includes(def.type) && def.innerType ? stripOptional(def.innerType) : schema;
}

function typeName(schema: z.ZodType, link: string | undefined): string {
  const meta = metaOf(schema);
  if (meta.typeName) return meta.typeName;
  const s = unwrap(schema);
  const def = defOf(s);
  switch (def.type) {
    case "string":
      return "string";
    case "number":
      return (s as unknown as { isInt?: boolean }).isInt ? "integer" : "number";
    case "boolean":
      return "boolean";
    case "enum":
      return Object.values(def.entries ?? {}).map((v) => `\`${String(v)}\``).join(" | ");
    case "literal":
      return (def.values ?? []).map((v) => `\`${JSON.stringify(v)}\``).join(" | ");
    case "object":
      return link ? `[object](#${link})` : "object";
    case "array":
      return `list of ${link ? `[objects](#${link})` : typeName(def.element!, undefined)}`;
    case "record":
      return `map of ${typeName(def.keyType!, undefined)} to ${link ? `[objects](#${link})` : typeName(def.valueType!, undefined)}`;
    case "union":
      return (def.options ?? []).map((o) => typeName(o, undefined)).join(" or ");
    default:
      return def.type;
  }
}

function defaultText(schema: z.ZodType): string {
  const d = defaultOf(schema);
  if (d === undefined) return isOptional(schema) ? "" : "**required**";
  const v = d.value;
  if (typeof v === "string") return v === "" ? '`""`' : `\`${v}\``;
  if (v !== null && typeof v === "object" && Object.keys(v).length === 0) return Array.isArray(v) ? "`[]`" : "`{}`";
  return `\`${JSON.stringify(v)}\``;
}

/** Sections already written, by the object schema they document, so a shared schema appears once. */
type Seen = Map<z.ZodType, string>;

function collect(schema: z.ZodType, path: string, title: string, out: Section[], seen: Seen, fieldDescription?: string): void {
  const s = unwrap(schema);
  seen.set(s, anchorOf(path));
  const shape = defOf(s).shape ?? {};
  const meta = metaOf(schema);
  meta.description ??= fieldDescription;
  const section: Section = { title, anchor: anchorOf(path), description: meta.description ?? "", rows: [] };
  out.push(section);
  for (const [key, field] of Object.entries(shape)) {
    const fieldPath = path === "" ? key : `${path}.${key}`;
    // Fields with a type name of their own (ranges, counts) are values, not sections.
    const nested = key === "manifest" || metaOf(field).typeName ? undefined : containerOf(field);
    const suffix = nested?.kind === "list" ? "[]" : nested?.kind === "map" ? ".*" : "";
    const earlier = nested ? seen.get(unwrap(nested.inner)) : undefined;
    const link = earlier ?? (nested ? anchorOf(fieldPath + suffix) : key === "manifest" ? "manifest" : undefined);
    const fieldMeta = metaOf(field);
    const shorthand = fieldMeta.shorthand ? ` Shorthand: ${fieldMeta.shorthand}.` : "";
    const type = key === "manifest" ? "[v1.Pod or workload](#manifest)" : typeName(field, link);
    section.rows.push(`| \`${key}\` | ${cell(type)} | ${cell(defaultText(field))} | ${cell((fieldMeta.description ?? "") + shorthand)} |`);
    if (nested && earlier === undefined) {
      const target = nested.kind === "object" ? stripOptional(field) : nested.inner;
      collect(target, fieldPath + suffix, `\`${fieldPath + suffix}\``, out, seen, fieldMeta.description);
    }
  }
}

/** Names written with placeholders ("<job>-<5 characters>") as code, so Markdown shows the brackets. */
export function codeNames(text: string): string {
  return text.replace(/[^\s(),]*<[^>]+>[^\s(),]*/g, (m) => `\`${m}\``);
}

/** Manifest fields the models read, one line per object schema (shared schemas listed once). */
function modelledFields(schema: z.ZodType, path: string, out: Map<z.ZodType, { paths: string[]; keys: string[] }>, depth: number): void {
  const s = unwrap(schema);
  const def = defOf(s);
  if (depth > 16) return;
  if (def.type === "array" && def.element) return modelledFields(def.element, `${path}[]`, out, depth + 1);
  if (def.type !== "object" || !def.shape) return;
  const seen = out.get(s);
  if (seen) {
    seen.paths.push(path);
    return;
  }
  out.set(s, { paths: [path], keys: Object.keys(def.shape) });
  for (const [key, child] of Object.entries(def.shape)) {
    if (path === "" && key === "status") continue;
    modelledFields(child, path === "" ? key : `${path}.${key}`, out, depth + 1);
  }
}

function manifestSection(): string {
  const objects = new Map<z.ZodType, { paths: string[]; keys: string[] }>();
  modelledFields(podSchema, "", objects, 0);
  const lines = [...objects.values()].map(({ paths, keys }) => {
    const where = paths.map((p) => (p === "" ? "(the pod)" : `\`${p}\``));
    const head = where.length > 3 ? `${where.slice(0, 3).join(", ")} and ${where.length - 3} more` : where.join(", ");
    return `- ${head}: ${keys.length === 0 ? "(accepted, not read further)" : keys.join(", ")}`;
  });
  const kinds = CONTROLLERS.map((c) => `| ${c.kind} | \`${c.apiVersions.join("`, `")}\` | \`${c.templatePath.join(".")}\` | ${cell(codeNames(c.assumes))} |`);
  return (
    `<a id="manifest"></a>\n\n## \`pods[].manifest\`\n\n` +
    "An unchanged v1.Pod, as `kubectl get pod -o yaml` prints it, or a workload whose controller would create " +
    "the pod from its template. The apiserver's defaults are applied " +
    "(namespace `default`, restartPolicy `Always`, terminationGracePeriodSeconds 30, imagePullPolicy, probe " +
    "periods and thresholds...). Fields a cluster sets are handled as a new create would: `status` is discarded, " +
    "`uid` and `creationTimestamp` are set anew, `resourceVersion`, `managedFields`, `generation`, `selfLink` are " +
    "dropped, `ownerReferences` are kept (no garbage collector runs); a pod with the `kubernetes.io/config.mirror` " +
    "annotation and `source: file` runs as the static pod it mirrors. The simulator reads the fields below; any " +
    "other field is accepted and listed once as ignored.\n\n" +
    "Workloads (one pod each; [manifests.md](manifests.md) says more):\n\n" +
    "| Kind | apiVersion | Pod template | The pod kubelet-sim runs |\n|---|---|---|---|\n" +
    kinds.join("\n") +
    "\n\nFields of the pod the models read:\n\n" +
    lines.join("\n") +
    "\n"
  );
}

const INTRO = `# Scenario file reference

<!-- Generated from src/scenario/schema/ by \`npm run docs:reference\`. Do not edit by hand:
     a test fails when this page and the schema disagree. -->

A scenario is one YAML file. For a guided tour with examples, see [scenarios.md](scenarios.md).

**Durations** are written as Go and Kubernetes write them: \`500ms\`, \`10s\`, \`1m30s\`, \`2h\`
(units ms, s, m, h; no bare numbers). In the parsed scenario every duration is an integer number of
milliseconds whose name ends in \`Ms\` (\`syncFrequency: 1m\` becomes \`syncFrequencyMs: 60000\`).
A **range** \`{ min, max }\` is drawn from the run's seeded random streams; a single duration means min = max.

**Errors** are reported all at once, one per line, as \`file:line:col: path.to.field: message\`.
Unknown fields are errors everywhere except inside pod manifests, where fields the simulator does
not model are accepted and listed once as ignored. Files are refused when larger than
${MAX_FILE_BYTES} bytes (1 MiB), binary (NUL bytes or invalid UTF-8), empty, not a mapping at the
top level, nested deeper than ${MAX_DEPTH} levels, or expanding more than ${MAX_ALIASES} aliases.
`;

export function generateReference(): string {
  const sections: Section[] = [];
  collect(scenarioSchema, "", "Top level", sections, new Map());
  const parts = [INTRO];
  for (const s of sections) {
    parts.push(`<a id="${s.anchor === "" ? "top-level" : s.anchor}"></a>\n\n## ${s.title}\n`);
    if (s.description) parts.push(`${s.description}\n`);
    parts.push("| Field | Type | Default | Description |\n|---|---|---|---|");
    parts.push(`${s.rows.join("\n")}\n`);
  }
  parts.push(manifestSection());
  return parts.join("\n");
}
