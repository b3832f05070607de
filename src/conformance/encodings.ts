// Encodings the oracle2 files' meta blocks define and every runner reads alike: times written
// against the harness clock ("now", "now-1m", "normalized_now", "unix:N", "startTime+10s", or
// RFC 3339 text), Go's nil written as null, a field the Go test leaves unset written "(unset)" or
// "(nil)".
import { z } from "zod";
import { formatRFC3339, parseRFC3339 } from "../apiserver/time.ts";

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * The virtual ms a time token names, `nowMs` being the harness clock's now (and `startTime` the
 * Go test's startTime variable, when it has one); undefined when the text is not a time.
 * "old (now-1s)" reads as now-1s: the words around a token are the transcriber's.
 */
export function timeTokenMs(text: string, nowMs: number, startMs = nowMs): number | undefined {
  const t = text.trim();
  if (/^\d{4}-\d{2}-\d{2}T/.test(t)) {
    try {
      return parseRFC3339(t);
    } catch {
      return undefined;
    }
  }
  const unix = /^unix:(-?\d+)$/.exec(t);
  if (unix !== null) return parseRFC3339("1970-01-01T00:00:00Z") + Number(unix[1]) * 1000;
  const rel = /(?:^|\()\s*(now|normalized_now|startTime)\s*(?:([+-])\s*(\d+)\s*(ms|s|m|h))?(?=\s|\)|$)/.exec(t);
  if (rel === null) return undefined;
  const base = rel[1] === "startTime" ? startMs : rel[1] === "normalized_now" ? Math.floor(nowMs / 1000) * 1000 : nowMs;
  if (rel[2] === undefined) return base;
  return base + (rel[2] === "-" ? -1 : 1) * Number(rel[3]) * UNIT_MS[rel[4]!]!;
}

/** The RFC 3339 text of a time token (metav1.Time's wire form), or undefined when it is not one. */
export function timeTokenText(text: string, nowMs: number): string | undefined {
  const ms = timeTokenMs(text, nowMs);
  return ms === undefined ? undefined : formatRFC3339(ms);
}

/** Replaces every time token of a value by its RFC 3339 text, recursively (API-shaped objects). */
export function withTimeTokens(value: unknown, nowMs: number): unknown {
  if (typeof value === "string") return timeTokenText(value, nowMs) ?? value;
  if (Array.isArray(value)) return value.map((v) => withTimeTokens(v, nowMs));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, withTimeTokens(x, nowMs)]));
  }
  return value;
}

/** Go's nil or an unset field, as the files write it: null, "(unset)", "(nil)"; a time may also be "(zero)", Go's zero time. */
export function isUnset(v: unknown): boolean {
  return v === null || (typeof v === "string" && /^\((unset|nil|zero)\)$|^nil$|^zero time$/i.test(v));
}

/** An optional field that may also be written as Go's nil or "(unset)": both read as absent. */
export function unsettable<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (isUnset(v) ? undefined : v), schema.optional());
}
