// Turns zod issues into messages for people: what was expected, what was found, and a likely fix.
import type { z } from "zod";
import { describeValue, suggestion } from "./found.ts";
import { objectKeys, recordKeys, schemaAt, unwrap } from "./introspect.ts";
import { errorBody, FieldPath, notSupported as notSupportedError } from "../apiserver/validation/field.ts";

import type { PathIssue } from "./errors.ts";

export type { PathIssue };

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "a mapping",
  array: "a list",
  record: "a mapping",
  null: "null",
  literal: "a fixed value",
};

const quoteList = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

/**
 * Unknown fields of one mapping reported one by one; past this many, one more issue counts the
 * rest. A file of 100,000 unknown keys is refused as quickly as one of a hundred, and nobody reads
 * the 101st "unknown field" line of the same mapping.
 */
export const MAX_UNKNOWN_FIELDS_LISTED = 100;

/** Flattens one zod issue into messages for people, one per unknown key. */
export function issueMessages(issue: z.core.$ZodIssue, root: z.ZodType): PathIssue[] {
  const path = [...issue.path];
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case "unrecognized_keys": {
      const listed = issue.keys.slice(0, MAX_UNKNOWN_FIELDS_LISTED).map((key): PathIssue => ({ path: [...path, key], atKey: true, message: unknownKey(key, root, path) }));
      const rest = issue.keys.length - listed.length;
      if (rest === 0) return listed;
      const first = issue.keys[MAX_UNKNOWN_FIELDS_LISTED]!;
      return [...listed, { path: [...path, first], atKey: true, message: `and ${rest} more unknown fields in this mapping from here on (${issue.keys.length} in all)` }];
    }
    case "invalid_key": {
      const inner = issue.issues[0];
      const why = inner && "message" in inner && inner.message.startsWith("expected") ? inner.message : "not allowed here";
      return [{ path, atKey: true, message: `invalid key ${JSON.stringify(String(input ?? path.at(-1)))}: ${why}` }];
    }
    case "invalid_union":
      return [{ path, message: unionMessage(issue, input) }];
    case "invalid_value":
      // A pod's enumerated field, refused in the words the apiserver uses (field.NotSupported).
      if (inManifest(path) && issue.values.length > 1 && typeof input === "string") return [{ path, message: notSupported(input, issue.values) }];
      return [{ path, message: singleMessage(issue, input) }];
    default: {
      const message = singleMessage(issue, input);
      // Zod says "number" for integer fields too; the schema knows better.
      const isInt = (unwrap(schemaAt(root, path) ?? root) as unknown as { isInt?: boolean }).isInt === true;
      return [{ path, message: isInt ? message.replace("expected a number ", "expected an integer ") : message }];
    }
  }
}

/** A field of a pod's manifest (pods[i].manifest...), where the apiserver's words apply. */
const inManifest = (path: readonly PropertyKey[]) => path[0] === "pods" && path[2] === "manifest";

/**
 * field.NotSupported's text (apimachinery's validation/field/errors.go): `Unsupported value:
 * "Sometimes": supported values: "Always", "OnFailure", "Never"`, each value quoted as Go's
 * strconv.Quote does, in the schema's order, which is the apiserver's (src/apiserver/validation
 * lists the same values).
 */
export function notSupported(value: string, supported: readonly unknown[]): string {
  return errorBody(notSupportedError(FieldPath.of(), value, supported.map(String)));
}

function unknownKey(key: string, root: z.ZodType, parentPath: PropertyKey[]): string {
  const parent = schemaAt(root, parentPath);
  const known = parent ? (objectKeys(parent) ?? recordKeys(parent) ?? []) : [];
  const hint = suggestion(key, known);
  if (hint !== "") return `unknown field ${JSON.stringify(key)}${hint}`;
  if (known.length === 0) return `unknown field ${JSON.stringify(key)}`;
  const list = known.length > 12 ? `${known.slice(0, 12).join(", ")}, ...` : known.join(", ");
  return `unknown field ${JSON.stringify(key)}; expected one of: ${list}`;
}

function singleMessage(issue: z.core.$ZodIssue, input: unknown): string {
  const found = describeValue(input);
  // Schemas written here phrase their own messages ("expected ..."); zod's defaults start otherwise.
  if (issue.code === "custom") return issue.message;
  if (/^(expected|missing) /.test(issue.message)) {
    return /found |missing /.test(issue.message) ? issue.message : `${issue.message}, found ${found}`;
  }
  switch (issue.code) {
    case "invalid_type": {
      const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
      if (input === undefined) return `missing required field; expected ${expected}`;
      return `expected ${expected}, found ${found}`;
    }
    case "invalid_value": {
      if (issue.values.length === 1) return `expected ${JSON.stringify(issue.values[0])}, found ${found}`;
      const hint = typeof input === "string" ? suggestion(input, issue.values.map(String)) : "";
      return `expected one of ${quoteList(issue.values)}, found ${found}${hint}`;
    }
    case "too_small":
      return `expected ${bound(issue.origin, issue.minimum, issue.inclusive, "min")}, found ${sizeOf(issue.origin, input)}`;
    case "too_big":
      return `expected ${bound(issue.origin, issue.maximum, issue.inclusive, "max")}, found ${sizeOf(issue.origin, input)}`;
    case "invalid_format":
      return `expected ${issue.format} format, found ${found}`;
    default:
      return `${issue.message}, found ${found}`;
  }
}

function bound(origin: string, limit: number | bigint, inclusive: boolean | undefined, side: "min" | "max"): string {
  const n = Number(limit);
  if (origin === "string") return side === "min" && n === 1 ? "a non-empty string" : `a string of ${side === "min" ? "at least" : "at most"} ${n} characters`;
  if (origin === "array") return side === "min" && n === 1 ? "a non-empty list" : `a list of ${side === "min" ? "at least" : "at most"} ${n} items`;
  const op = side === "min" ? (inclusive === false ? ">" : ">=") : inclusive === false ? "<" : "<=";
  return `a number ${op} ${n}`;
}

function sizeOf(origin: string, input: unknown): string {
  if (origin === "array" && Array.isArray(input)) return `${input.length} item${input.length === 1 ? "" : "s"}`;
  if (origin === "string" && typeof input === "string" && input.length > 40) return `${input.length} characters`;
  return describeValue(input);
}

/** Zod tries each branch of a union; say what the branches wanted, or the closest branch's complaint. */
function unionMessage(issue: z.core.$ZodIssueInvalidUnion, input: unknown): string {
  const branches = issue.errors;
  const allTypes = branches.every((b) => b.length === 1 && b[0]!.code === "invalid_type" && b[0]!.path.length === 0);
  if (allTypes) {
    const words = branches.map((b) => {
      const first = b[0] as z.core.$ZodIssueInvalidType;
      return TYPE_WORDS[first.expected] ?? first.expected;
    });
    return `expected ${[...new Set(words)].join(" or ")}, found ${describeValue(input)}`;
  }
  const closest = [...branches].sort((a, b) => a.length - b.length)[0]?.[0];
  return closest ? singleMessage(closest, (closest as { input?: unknown }).input ?? input) : `unexpected ${describeValue(input)}`;
}
