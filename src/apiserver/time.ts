// Models metav1.Time's wire form (RFC 3339, whole seconds, UTC) on the virtual clock.
//
// Virtual time 0 is EPOCH_RFC3339; a timestamp is computed with integer arithmetic (the civil-from-days
// algorithm of H. Hinnant), never with the host's Date, so a run's timestamps depend on the seed only.
// metav1.Time serializes with second precision, so sub-second virtual time is truncated, as upstream.

import { perKey } from "../k8s/memo.ts";

/** Virtual time 0. */
export const EPOCH_RFC3339 = "2025-01-01T00:00:00Z";
/** Days from 1970-01-01 to 2025-01-01. */
const EPOCH_DAYS = 20089;
const MS_PER_DAY = 86_400_000;

/**
 * Both directions are pure functions of their argument, and the models convert the same few
 * instants over and over (every status sync normalizes every timestamp of the pod: parse, then
 * format): the results are kept in small bounded maps.
 */
const CACHE_ENTRIES = 4096;
const formatted = perKey(formatSeconds, CACHE_ENTRIES);
const parsed = perKey(parseUncached, CACHE_ENTRIES);

/** The RFC 3339 text of virtual time ms, truncated to whole seconds, as metav1.Time marshals it. */
export function formatRFC3339(ms: number): string {
  if (!Number.isFinite(ms)) throw new RangeError(`formatRFC3339: bad time ${ms}`);
  const totalSeconds = Math.floor(ms / 1000);
  return formatted(totalSeconds);
}

function formatSeconds(totalSeconds: number): string {
  const days = Math.floor(totalSeconds / 86_400) + EPOCH_DAYS;
  const secOfDay = totalSeconds - (days - EPOCH_DAYS) * 86_400;
  const { y, m, d } = civilFromDays(days);
  const hh = Math.floor(secOfDay / 3600);
  const mm = Math.floor((secOfDay % 3600) / 60);
  const ss = secOfDay % 60;
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}Z`;
}

/** Virtual ms of an RFC 3339 UTC timestamp ("Z" only, optional fraction ignored). */
export function parseRFC3339(text: string): number {
  return parsed(text);
}

function parseUncached(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z$/.exec(text);
  if (m === null) throw new RangeError(`parseRFC3339: not an RFC 3339 UTC time: ${JSON.stringify(text)}`);
  const [y, mo, d, hh, mi, ss] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const days = daysFromCivil(y, mo, d) - EPOCH_DAYS;
  return days * MS_PER_DAY + ((hh * 60 + mi) * 60 + ss) * 1000;
}

/**
 * parseRFC3339 of the common form "YYYY-MM-DDTHH:MM:SS[.digits]Z", read digit by digit (no
 * RegExp, no string built), with the fraction's value in ms (truncated) added as parseMicroTime
 * adds it; null for any other text, which the callers then parse as before.
 */
export function parseRFC3339Milli(text: string): number | null {
  const n = text.length;
  if (n < 20 || text.charCodeAt(n - 1) !== 90 /* Z */) return null;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return null;
  const y = digits(text, 0, 4), mo = digits(text, 5, 2), d = digits(text, 8, 2);
  const hh = digits(text, 11, 2), mi = digits(text, 14, 2), ss = digits(text, 17, 2);
  if (y < 0 || mo < 0 || d < 0 || hh < 0 || mi < 0 || ss < 0) return null;
  let frac = 0;
  if (n > 20) {
    if (n === 21 || text.charCodeAt(19) !== 46 /* . */ || digits(text, 20, n - 21) < 0) return null;
    frac = Math.floor(Number(`0.${text.slice(20, n - 1)}`) * 1000);
  }
  const days = daysFromCivil(y, mo, d) - EPOCH_DAYS;
  return days * MS_PER_DAY + ((hh * 60 + mi) * 60 + ss) * 1000 + frac;
}

/** The decimal value of text[from, from+count) when every one is an ASCII digit; -1 otherwise. */
function digits(text: string, from: number, count: number): number {
  let v = 0;
  for (let i = from; i < from + count; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Days since 1970-01-01 of a proleptic Gregorian date. */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function civilFromDays(z0: number): { y: number; m: number; d: number } {
  const z = z0 + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** time.RFC3339Nano of virtual ms (kubetypes.NewTimestamp().GetString()): trailing zeros trimmed. */
export function formatRFC3339Nano(ms: number): string {
  const base = formatRFC3339(ms);
  const frac = ((ms % 1000) + 1000) % 1000;
  if (frac === 0) return base;
  return `${base.slice(0, -1)}.${String(frac).padStart(3, "0").replace(/0+$/, "")}Z`;
}
