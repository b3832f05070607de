// Building blocks of the scenario schema: durations, ranges, names and strict objects whose
// duration fields come out renamed with an `Ms` suffix.
//
// The YAML keeps Kubernetes' own, user-friendly names ("syncFrequency: 1m"); the parsed scenario
// carries integer milliseconds under names that say so ("syncFrequencyMs: 60000"), because a model
// reading `syncFrequency` could not tell whether it holds "1m" or 60000.
import { z } from "zod";
import { DurationError, formatDuration, parseDuration } from "../../sim/duration.ts";
import { describeValue } from "../found.ts";
import type { CountRange, RangeMs } from "../types/common.ts";

export type { CountRange, RangeMs };

/** Meta keys the reference generator reads, besides `description`. */
export interface FieldMeta {
  description?: string;
  /** A type name for the reference page when the zod type says too little ("duration"). */
  typeName?: string;
  /** A shorthand the field also accepts, in words, for the reference page. */
  shorthand?: string;
  /** Where the field and its default come from upstream. */
  upstream?: string;
}

/** A schema whose output is integer milliseconds, read from a Go duration string. */
export interface DurationSchema extends z.ZodPipe<z.ZodUnknown, z.ZodTransform<number, unknown>> {
  readonly __duration: true;
}

const DURATION_EXAMPLE = 'expected a duration such as "500ms" or "1m30s"';

/** Why a value is not a duration, in words; undefined when it is one. */
function durationProblem(value: unknown): string | undefined {
  if (value === undefined) return `missing required field; ${DURATION_EXAMPLE}`;
  if (typeof value === "number") {
    const hint = value === 0 ? `write "0s"` : `add a unit, e.g. "${value}s" or "${value}ms"`;
    return `${DURATION_EXAMPLE}, found the number ${value}; ${hint}`;
  }
  if (typeof value !== "string") return `${DURATION_EXAMPLE}, found ${describeValue(value)}`;
  try {
    parseDuration(value);
    return undefined;
  } catch (err) {
    const why = err instanceof DurationError ? err.message : String(err);
    return `${DURATION_EXAMPLE}, found "${value}": ${why}`;
  }
}

/** Bounds a duration field may add to "a duration": a positive period, or a simulator limit. */
export interface DurationBounds {
  /** Zero is refused: a period of 0 would make the loop it drives spin at one instant. */
  positive?: boolean;
  /** The largest value, and what it is, for the message ("the longest run a scenario may ask for"). */
  max?: { ms: number; what: string };
}

function boundsProblem(ms: number, text: string, bounds: DurationBounds): string | undefined {
  if (bounds.positive === true && ms <= 0) return `expected a duration greater than 0s (a period the kubelet repeats), found "${text}"`;
  if (bounds.max !== undefined && ms > bounds.max.ms) {
    return `expected a duration of at most ${formatDuration(bounds.max.ms)} (${bounds.max.what}), found "${text}"`;
  }
  return undefined;
}

function parseDurationValue(value: unknown, ctx: z.core.$RefinementCtx<unknown>, bounds: DurationBounds): number {
  const problem = durationProblem(value);
  if (problem !== undefined) {
    ctx.addIssue({ code: "custom", message: problem });
    return z.NEVER;
  }
  const ms = parseDuration(value as string);
  const outside = boundsProblem(ms, value as string, bounds);
  if (outside !== undefined) {
    ctx.addIssue({ code: "custom", message: outside });
    return z.NEVER;
  }
  return ms;
}

/** A Go-style duration ("1m30s", "500ms") parsed to integer milliseconds. */
export function duration(description: string, bounds: DurationBounds = {}): DurationSchema {
  const schema = z.unknown().transform((v, ctx) => parseDurationValue(v, ctx, bounds)).meta({ description, typeName: "duration" });
  return schema as unknown as DurationSchema;
}

const rangeObject = z
  .strictObject(
    {
      min: duration("The shortest value drawn."),
      max: duration("The longest value drawn."),
    },
    {
      // A scalar reaches here only when it is not a valid duration (see durationRange).
      error: (iss) => {
        if (iss.code !== "invalid_type") return undefined;
        if (iss.input === undefined) return 'missing required field; expected a duration such as "1s" or a range {min, max}';
        return `${durationProblem(iss.input) ?? "expected a duration"} (or a range {min, max})`;
      },
    },
  )
  .superRefine((r, ctx) => {
    if (r.max < r.min) {
      ctx.addIssue({
        code: "custom",
        path: ["max"],
        message: `expected max >= min (${formatDuration(r.min)}), found ${formatDuration(r.max)}`,
      });
    }
  })
  .transform((r): RangeMs => ({ minMs: r.min, maxMs: r.max }));

/** `500ms` (fixed) or `{ min: 100ms, max: 2s }` (drawn from the run's seeded PRNG). */
export function durationRange(description: string) {
  return z
    .preprocess((v) => (typeof v === "string" && durationProblem(v) === undefined ? { min: v, max: v } : v), rangeObject)
    .meta({ description, typeName: "duration or {min, max}", shorthand: "a single duration means min = max" });
}

export function countRange(description: string) {
  const object = z
    .strictObject({
      min: z.number().int().min(0).default(0).describe("The smallest count that matches."),
      max: z.number().int().min(0).optional().describe("The largest count that matches; no upper bound when omitted."),
    })
    .transform((r): CountRange => ({ min: r.min, max: r.max ?? null }));
  return z
    .preprocess((v) => (typeof v === "number" ? { min: v, max: v } : v), object)
    .meta({ description, typeName: "integer or {min, max}", shorthand: "a single integer means exactly that count" });
}

/** A name that refers to a pod in this scenario: "web" or "namespace/web". */
export const podRef = (description: string) =>
  z
    .string()
    .regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?\/)?[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/, {
      error: "expected a pod name such as \"web\" or \"default/web\"",
    })
    .describe(description);

/** A container name (a DNS-1123 label, as the apiserver validates it). */
export const containerName = (description: string) =>
  z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, { error: "expected a container name (a DNS label such as \"app\")" })
    .describe(description);

/** Accepts `true` as shorthand for an object of defaults: `restartKubelet: true`. */
export function trueOrObject<T extends z.ZodType>(schema: T, description: string) {
  return z.preprocess((v) => (v === true ? {} : v), schema).meta({ description, shorthand: "`true` means all defaults" });
}

/** Accepts a plain string as shorthand for `{ [key]: string }`: `delete: web`. */
export function stringOrObject<T extends z.ZodType>(key: string, schema: T, description: string) {
  return z
    .preprocess((v) => (typeof v === "string" ? { [key]: v } : v), schema)
    .meta({ description, shorthand: `a plain string sets \`${key}\`` });
}

// ---- strict objects with Ms-renamed duration fields ----

type Unwrap<S> =
  S extends z.ZodOptional<infer I> ? Unwrap<I>
  : S extends z.ZodPrefault<infer I> ? Unwrap<I>
  : S extends z.ZodDefault<infer I> ? Unwrap<I>
  : S extends z.ZodNullable<infer I> ? Unwrap<I>
  : S;

type DurationKeys<Sh> = { [K in keyof Sh]: Unwrap<Sh[K]> extends { readonly __duration: true } ? K : never }[keyof Sh];

/** The parsed object: every duration key `k` becomes `kMs`. */
export type RenameMs<Sh extends z.ZodRawShape> = {
  [K in keyof z.output<z.ZodObject<Sh>> as K extends DurationKeys<Sh> ? `${K & string}Ms` : K]: z.output<
    z.ZodObject<Sh>
  >[K];
};

function isDurationSchema(schema: z.ZodType): boolean {
  let s: z.ZodType = schema;
  for (let i = 0; i < 8; i++) {
    if (z.globalRegistry.get(s)?.typeName === "duration") return true;
    const def = s._zod.def as { type: string; innerType?: z.ZodType };
    if (!def.innerType || !["optional", "prefault", "default", "nullable"].includes(def.type)) return false;
    s = def.innerType;
  }
  return false;
}

/**
 * A strict object (unknown keys are errors) whose duration fields come out as `<name>Ms`.
 * Only the top level of `shape` is renamed; nested objects do their own renaming.
 */
export function obj<Sh extends z.ZodRawShape>(shape: Sh) {
  const durationKeys = Object.keys(shape).filter((k) => isDurationSchema(shape[k] as z.ZodType));
  return z.strictObject(shape).transform((value): RenameMs<Sh> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[durationKeys.includes(k) ? `${k}Ms` : k] = v;
    return out as RenameMs<Sh>;
  });
}
