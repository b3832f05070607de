// Models staging/src/k8s.io/apimachinery/pkg/util/validation/field (path.go, errors.go) and
// pkg/util/errors Aggregate: field paths, field errors and the one-line text an ErrorList becomes.
//
// The text is upstream's byte for byte: `spec.containers[0].image: Required value`, bad values
// printed as Go's fmt prints them (strings quoted with strconv.Quote, numbers bare, nil as "null").

/** One step of a field path: a field name, a list index, or a map key. */
export type PathSegment = { name: string } | { index: number } | { key: string };

/** field.Path: built with child/index/key, printed as `spec.containers[0].resources.limits[cpu]`. */
export class FieldPath {
  private constructor(readonly segments: readonly PathSegment[]) {}

  /** field.NewPath */
  static of(...names: string[]): FieldPath {
    return new FieldPath(names.map((name) => ({ name })));
  }

  child(...names: string[]): FieldPath {
    return new FieldPath([...this.segments, ...names.map((name) => ({ name }))]);
  }

  index(i: number): FieldPath {
    return new FieldPath([...this.segments, { index: i }]);
  }

  key(k: string): FieldPath {
    return new FieldPath([...this.segments, { key: k }]);
  }

  /** Path.String: names joined by ".", subscripts in brackets. */
  toString(): string {
    let out = "";
    for (const s of this.segments) {
      if ("name" in s) out += out === "" ? s.name : `.${s.name}`;
      else out += `[${"index" in s ? String(s.index) : s.key}]`;
    }
    return out;
  }

  /** The same path as object keys and list indexes, for finding the field in a YAML document. */
  toKeys(): PropertyKey[] {
    return this.segments.map((s) => ("name" in s ? s.name : "index" in s ? s.index : s.key));
  }
}

/** field.ErrorType, as its String() prints it. */
export const ErrorType = {
  NotFound: "Not found",
  Required: "Required value",
  Duplicate: "Duplicate value",
  Invalid: "Invalid value",
  NotSupported: "Unsupported value",
  Forbidden: "Forbidden",
  TooLong: "Too long",
  TooMany: "Too many",
  Internal: "Internal error",
} as const;
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];

/**
 * A bad value as Go's fmt would see it: a number (int32, int64), a string or named string type
 * (printed quoted), a boolean, null (a nil pointer, printed as "null"), a value with a String()
 * method (printed bare, as resource.Quantity and metav1.Time are), or Go syntax already rendered.
 */
export type BadValue = number | string | boolean | null | { stringer: string } | { goSyntax: string };

export interface FieldError {
  readonly type: ErrorType;
  /** The field path as text (Error.Field). */
  readonly field: string;
  /** The same path as keys, to locate the field in a manifest. */
  readonly path: readonly PropertyKey[];
  readonly badValue: BadValue | undefined;
  readonly detail: string;
}

const make = (type: ErrorType, path: FieldPath, badValue: BadValue | undefined, detail: string): FieldError => ({
  type,
  field: path.toString(),
  path: path.toKeys(),
  badValue,
  detail,
});

export const required = (p: FieldPath, detail: string): FieldError => make(ErrorType.Required, p, undefined, detail);
export const forbidden = (p: FieldPath, detail: string): FieldError => make(ErrorType.Forbidden, p, undefined, detail);
export const invalid = (p: FieldPath, value: BadValue, detail: string): FieldError => make(ErrorType.Invalid, p, value, detail);
export const duplicate = (p: FieldPath, value: BadValue): FieldError => make(ErrorType.Duplicate, p, value, "");
export const notFound = (p: FieldPath, value: BadValue): FieldError => make(ErrorType.NotFound, p, value, "");
/** field.TooLong: the value is not printed. */
export const tooLong = (p: FieldPath, maxLength: number): FieldError =>
  make(ErrorType.TooLong, p, undefined, `must have at most ${maxLength} bytes`);

/** field.NotSupported: "supported values:" and each valid value quoted. */
export function notSupported(p: FieldPath, value: BadValue, validValues: readonly string[]): FieldError {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map(goQuote).join(", ")}` : "";
  return make(ErrorType.NotSupported, p, value, detail);
}

/** Error.ErrorBody: the type, the bad value where the type shows one, then the detail. */
export function errorBody(e: FieldError): string {
  const omit = e.type === ErrorType.Required || e.type === ErrorType.Forbidden || e.type === ErrorType.TooLong
    || e.type === ErrorType.Internal || e.badValue === undefined;
  let s: string = e.type;
  if (!omit) s += `: ${formatValue(e.badValue!)}`;
  if (e.detail.length > 0) s += `: ${e.detail}`;
  return s;
}

/** Error.Error: `field: body`. */
export function errorText(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

function formatValue(v: BadValue): string {
  if (v === null) return goQuote("null");
  if (typeof v === "string") return goQuote(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return "stringer" in v ? v.stringer : v.goSyntax;
}

/** ErrorList.ToAggregate().Error(): duplicates dropped; one error bare, several as `[a, b]`. */
export function aggregateText(errs: readonly FieldError[]): string {
  const seen = new Set<string>();
  const msgs: string[] = [];
  for (const e of errs) {
    const msg = errorText(e);
    if (seen.has(msg)) continue;
    seen.add(msg);
    msgs.push(msg);
  }
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(", ")}]`;
}

/** fmt's %v of an ErrorList (a slice of errors): `[a b]`, as the kubelet's "invalid pod: %v" prints it. */
export function errorListText(errs: readonly FieldError[]): string {
  return `[${errs.map(errorText).join(" ")}]`;
}

/** strconv.Quote: printable characters as they are, the rest escaped as Go escapes them. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    out += quoteRune(ch, cp);
  }
  return `${out}"`;
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x07: "\\a", 0x08: "\\b", 0x0c: "\\f", 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t", 0x0b: "\\v", 0x22: '\\"', 0x5c: "\\\\",
};
// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function quoteRune(ch: string, cp: number): string {
  const short = SHORT_ESCAPES[cp];
  if (short !== undefined) return short;
  // A lone surrogate cannot come out of a Go decoder; it reads as U+FFFD.
  if (cp >= 0xd800 && cp <= 0xdfff) return "\uFFFD";
  if (PRINTABLE.test(ch)) return ch;
  const hex = (n: number, w: number) => n.toString(16).padStart(w, "0");
  if (cp < 0x80) return `\\x${hex(cp, 2)}`;
  return cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
}
