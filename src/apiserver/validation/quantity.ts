// Models staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (ParseQuantity, Cmp,
// MilliValue, String/CanonicalizeBytes) and suffix.go: what "100m", "1.5Gi" or "1e3" mean, and how
// the apiserver prints them back in messages ("0.5" comes back as "500m").
//
// The value is kept exactly as inf.Dec keeps it: an integer `unscaled` times 10^-scale. Upstream's
// int64 fast path and its inf.Dec path give the same numbers; only the fast path remembers the
// text the user wrote when that text is already canonical, which `original` models.
// Simplification: hugepage divisibility is not modelled, and a DecimalSI value whose exponent has
// no SI suffix (above E) prints with an exponent ("1e21") rather than upstream's empty suffix.

export const ERR_FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const ERR_SUFFIX = "unable to parse quantity's suffix";
export const ERR_NUMERIC = "unable to parse numeric part of quantity";

export type Format = "DecimalExponent" | "BinarySI" | "DecimalSI";

export interface Quantity {
  /** value = unscaled × 10^-scale */
  readonly unscaled: bigint;
  readonly scale: number;
  readonly format: Format;
  /** The text as written, kept when it is already canonical (upstream's q.s). */
  readonly original: string | null;
}

const DEC_SUFFIXES: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BIN_SUFFIXES: Readonly<Record<string, number>> = { "": 0, Ki: 10, Mi: 20, Ti: 40, Gi: 30, Pi: 50, Ei: 60 };
const NANO = 9;
const MAX_INT64 = (1n << 63n) - 1n;

export type ParseResult = { ok: true; q: Quantity } | { ok: false; err: string };

interface Parts {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

/** parseQuantityString: sign, numerator (leading zeros stripped), denominator, suffix. */
function parseQuantityString(s: string): Parts | null {
  let pos = 0;
  let positive = true;
  if (s[0] === "-" || s[0] === "+") {
    positive = s[0] === "+";
    pos++;
  }
  while (pos < s.length && s[pos] === "0") pos++;
  if (pos >= s.length) return { positive, num: "0", denom: "", suffix: "" };
  const numStart = pos;
  while (pos < s.length && isDigit(s[pos]!)) pos++;
  const num = s.slice(numStart, pos) || "0";
  let denom = "";
  if (s[pos] === ".") {
    const denomStart = ++pos;
    while (pos < s.length && isDigit(s[pos]!)) pos++;
    denom = s.slice(denomStart, pos);
  }
  const suffixStart = pos;
  while (pos < s.length && "eEinumkKMGTP".includes(s[pos]!)) pos++;
  if (s[pos] === "-" || s[pos] === "+") pos++;
  while (pos < s.length && isDigit(s[pos]!)) pos++;
  // Anything after the exponent digits is not a quantity.
  if (pos < s.length) return null;
  return { positive, num, denom, suffix: s.slice(suffixStart) };
}

const isDigit = (c: string) => c >= "0" && c <= "9";

/** suffixHandler.interpret: decimal SI, binary SI, or an exponent "e3"/"E-2". */
function interpret(suffix: string): { base: 10 | 2; exponent: number; format: Format } | null {
  if (suffix in DEC_SUFFIXES) return { base: 10, exponent: DEC_SUFFIXES[suffix]!, format: "DecimalSI" };
  if (suffix in BIN_SUFFIXES) return { base: 2, exponent: BIN_SUFFIXES[suffix]!, format: "BinarySI" };
  if (suffix.length > 1 && (suffix[0] === "e" || suffix[0] === "E") && /^[-+]?\d+$/.test(suffix.slice(1))) {
    const exponent = Number(suffix.slice(1));
    // strconv.ParseInt(..., 64) then int32(): exponents beyond int64 fail, beyond int32 wrap.
    if (!Number.isSafeInteger(exponent)) return null;
    return { base: 10, exponent: Number(BigInt.asIntN(32, BigInt(exponent))), format: "DecimalExponent" };
  }
  return null;
}

/** ParseQuantity */
export function parseQuantity(text: string): ParseResult {
  if (text.length === 0) return { ok: false, err: ERR_FORMAT_WRONG };
  if (text === "0") return { ok: true, q: { unscaled: 0n, scale: 0, format: "DecimalSI", original: "0" } };
  const parts = parseQuantityString(text);
  if (parts === null) return { ok: false, err: ERR_FORMAT_WRONG };
  const suffix = interpret(parts.suffix);
  if (suffix === null) return { ok: false, err: ERR_SUFFIX };
  const sign = parts.positive ? 1n : -1n;
  let unscaled = BigInt(parts.num + parts.denom) * sign;
  let scale = parts.denom.length;
  if (suffix.base === 10) scale -= suffix.exponent;
  else unscaled *= 1n << BigInt(suffix.exponent);
  // Round non-zero values away from zero to the nanounit, so a tiny request still asks for something.
  if (scale > NANO) {
    unscaled = roundUpToNano(unscaled, scale, sign);
    scale = NANO;
  }
  let format = suffix.format;
  if (format === "BinarySI" && cmpDec(unscaled, scale, MAX_INT64, 0) > 0) {
    unscaled = MAX_INT64;
    scale = 0;
  }
  if (format === "BinarySI" && unscaled > 0n && cmpDec(unscaled, scale, 1n, 0) < 0) format = "DecimalSI";
  return { ok: true, q: { unscaled, scale, format, original: canonicalAsWritten(parts, suffix) ? text : null } };
}

/** Divides by 10^(scale-9), rounding away from zero; a value far below a nanounit becomes one nanounit. */
function roundUpToNano(unscaled: bigint, scale: number, sign: bigint): bigint {
  if (unscaled === 0n) return 0n;
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().length;
  if (scale - NANO > digits) return sign;
  const div = 10n ** BigInt(scale - NANO);
  const q = unscaled / div;
  return unscaled % div === 0n ? q : q + sign;
}

/** Whether upstream takes the int64 fast path (and so never caps a BinarySI value). */
function fastPath(parts: Parts, suffix: { base: 10 | 2; exponent: number }): boolean {
  const digits = parts.num.length + parts.denom.length;
  if (suffix.base === 10) return 18 - digits >= 0 && -suffix.exponent + parts.denom.length <= NANO && fitsInt64(parts, 1n);
  if (parts.denom.length > 0 || suffix.exponent < 0) return false;
  const precision = 15 - parts.num.length - Math.trunc((suffix.exponent * 3) / 10) - 1;
  return precision >= 0 && fitsInt64(parts, 1n << BigInt(suffix.exponent));
}

function fitsInt64(parts: Parts, mantissa: bigint): boolean {
  const v = BigInt(parts.num + parts.denom) * mantissa;
  return v <= MAX_INT64;
}

/** The fast path keeps the written text when it is already in canonical form. */
function canonicalAsWritten(parts: Parts, suffix: { base: 10 | 2; exponent: number }): boolean {
  if (!fastPath(parts, suffix)) return false;
  const shifted = parts.num + parts.denom;
  if (suffix.base === 2) return suffix.exponent % 10 === 0 && (BigInt(shifted) & 7n) !== 0n;
  const scale = suffix.exponent - parts.denom.length;
  return scale % 3 === 0 && !shifted.endsWith("000") && shifted[0] !== "0";
}

/** Compares a×10^-sa with b×10^-sb. */
function cmpDec(a: bigint, sa: number, b: bigint, sb: number): number {
  const sign = (x: bigint) => (x > 0n ? 1 : x < 0n ? -1 : 0);
  if (sign(a) !== sign(b)) return sign(a) - sign(b);
  if (a === 0n) return 0;
  // Magnitudes first, so that "1e999999" against "1" needs no million-digit power.
  const mag = (x: bigint, s: number) => (x < 0n ? -x : x).toString().length - s;
  const ma = mag(a, sa);
  const mb = mag(b, sb);
  if (ma !== mb) return (ma > mb ? 1 : -1) * sign(a);
  const [x, y] = sa > sb ? [a, b * 10n ** BigInt(sa - sb)] : [a * 10n ** BigInt(sb - sa), b];
  return x === y ? 0 : x > y ? 1 : -1;
}

/** Quantity.Cmp */
export function cmpQuantity(a: Quantity, b: Quantity): number {
  return cmpDec(a.unscaled, a.scale, b.unscaled, b.scale);
}

export const isZero = (q: Quantity) => q.unscaled === 0n;
export const sign = (q: Quantity) => (q.unscaled > 0n ? 1 : q.unscaled < 0n ? -1 : 0);

/** MilliValue % 1000 !== 0: whether the value, rounded up to milli-units, is not a whole number. */
export function hasFraction(q: Quantity): boolean {
  const abs = q.unscaled < 0n ? -q.unscaled : q.unscaled;
  const milliScale = q.scale - 3;
  // A value with no digits below the unit is whole; only scales down to nano reach here otherwise.
  if (q.scale <= 0) return false;
  const milli = milliScale <= 0 ? abs * 10n ** BigInt(-milliScale) : ceilDiv(abs, 10n ** BigInt(milliScale));
  return milli % 1000n !== 0n;
}

const ceilDiv = (a: bigint, b: bigint) => a / b + (a % b === 0n ? 0n : 1n);

/** Quantity.String: the text as written when canonical, else the canonical form. */
export function quantityString(q: Quantity): string {
  if (q.original !== null) return q.original;
  if (q.unscaled === 0n) return "0";
  let format = q.format;
  if (format === "BinarySI") {
    const small = cmpDec(q.unscaled, q.scale, -1024n, 0) > 0 && cmpDec(q.unscaled, q.scale, 1024n, 0) < 0;
    if (small || !isInteger(q)) format = "DecimalSI";
  }
  if (format === "BinarySI") return canonicalBinary(toInteger(q));
  const [digits, exponent] = canonicalDecimal(q);
  const suffix = format === "DecimalSI" ? decimalSuffix(exponent) : undefined;
  if (suffix !== undefined) return digits + suffix;
  return exponent === 0 ? digits : `${digits}e${exponent}`;
}

const isInteger = (q: Quantity) => q.scale <= 0 || q.unscaled % 10n ** BigInt(q.scale) === 0n;
const toInteger = (q: Quantity) => (q.scale <= 0 ? q.unscaled * 10n ** BigInt(-q.scale) : q.unscaled / 10n ** BigInt(q.scale));

/** AsCanonicalBytes: factors of ten moved into the exponent, which must be a multiple of three. */
function canonicalDecimal(q: Quantity): [string, number] {
  // On the decimal text, so a million-digit value costs a million steps, not a million divisions.
  const negative = q.unscaled < 0n;
  const text = (negative ? -q.unscaled : q.unscaled).toString();
  const zeros = trailingZeros(text);
  let digits = text.slice(0, text.length - zeros);
  let exponent = -q.scale + zeros;
  const adjust = ((exponent % 3) + 3) % 3;
  digits += "0".repeat(adjust);
  exponent -= adjust;
  return [(negative ? "-" : "") + digits, exponent];
}

/**
 * The zeros at the end of a digit string, counted back from its end: each step reads one zero,
 * and the step that reads a non-zero digit is the last. (A regular expression /0+$/ here was tried
 * at every run of zeros and took 10 s on "1", 40,000 zeros, "1": quadratic in the run's length.)
 */
export function trailingZeros(digits: string): number {
  let i = digits.length;
  while (i > 0 && digits.charCodeAt(i - 1) === 48) i--;
  return digits.length - i;
}

function decimalSuffix(exponent: number): string | undefined {
  return Object.keys(DEC_SUFFIXES).find((k) => DEC_SUFFIXES[k] === exponent);
}

/** AsCanonicalBase1024Bytes: divide by 1024 while it divides. */
function canonicalBinary(value: bigint): string {
  let amount = value;
  let exponent = 0;
  while (amount !== 0n && amount % 1024n === 0n && exponent < 6) {
    amount /= 1024n;
    exponent++;
  }
  const suffix = Object.keys(BIN_SUFFIXES).find((k) => BIN_SUFFIXES[k] === exponent * 10) ?? "";
  return amount.toString() + suffix;
}
