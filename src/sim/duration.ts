// Go-style durations ("1m30s", "500ms", "2h") as integer virtual milliseconds.
// Mirrors time.ParseDuration / Duration.String, restricted to millisecond resolution, because the
// kernel's clock ticks in whole milliseconds.

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** The largest duration we accept: about 285 years, far below Number.MAX_SAFE_INTEGER. */
export const MAX_DURATION_MS = 9_000_000_000_000;

export class DurationError extends Error {
  override name = "DurationError";
}

const PART = /^(\d+(?:\.\d*)?|\.\d+)(ms|s|m|h)/;

/**
 * Parses a Go duration string into milliseconds. Accepts an optional sign ("-" only for "0"),
 * sequences like "1h2m3.5s", and "0". Fractions must resolve to whole milliseconds.
 * Units below a millisecond (ns, us, µs) are refused with a message that says why.
 */
export function parseDuration(text: string): number {
  const input = text.trim();
  if (input === "0") return 0;
  if (input === "") throw new DurationError('empty duration; expected e.g. "500ms", "10s", "1m30s"');
  if (/^[+-]?\d+(\.\d+)?$/.test(input)) {
    throw new DurationError(`duration "${text}" has no unit; expected e.g. "${input}s" or "${input}ms"`);
  }
  // A unit below a millisecond after a number ("10ns"); a word that merely contains "us" ("bogus") is just invalid.
  if (/[\d.](ns|us|µs)/.test(input)) {
    throw new DurationError(`duration "${text}" is finer than a millisecond; the virtual clock ticks in ms`);
  }
  let rest = input.startsWith("+") ? input.slice(1) : input;
  if (rest.startsWith("-")) throw new DurationError(`duration "${text}" is negative; expected >= 0`);
  let totalMs = 0;
  while (rest.length > 0) {
    const m = PART.exec(rest);
    if (!m) throw new DurationError(`invalid duration "${text}"; expected e.g. "500ms", "10s", "1m30s", "2h"`);
    totalMs += Number(m[1]) * UNIT_MS[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  const rounded = Math.round(totalMs);
  if (Math.abs(rounded - totalMs) > 1e-6) {
    throw new DurationError(`duration "${text}" is not a whole number of milliseconds`);
  }
  if (rounded > MAX_DURATION_MS) throw new DurationError(`duration "${text}" is too large`);
  return rounded;
}

/** Formats milliseconds as Go's Duration.String does: "1h2m3.5s", "500ms", "0s". */
export function formatDuration(ms: number): string {
  if (!Number.isInteger(ms)) throw new DurationError(`not a whole number of milliseconds: ${ms}`);
  if (ms === 0) return "0s";
  const sign = ms < 0 ? "-" : "";
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const frac = rest - s * 1000;
  const secs = frac === 0 ? `${s}` : `${s}.${String(frac).padStart(3, "0").replace(/0+$/, "")}`;
  if (h > 0) return `${sign}${h}h${m}m${secs}s`;
  if (m > 0) return `${sign}${m}m${secs}s`;
  return `${sign}${secs}s`;
}
