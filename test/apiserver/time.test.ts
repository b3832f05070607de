import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { EPOCH_RFC3339, formatRFC3339, formatRFC3339Nano, parseRFC3339 } from "../../src/apiserver/index.ts";
import { parseRFC3339Milli } from "../../src/apiserver/time.ts";
import { parseMicroTime } from "../../src/k8s/node_api.ts";

describe("virtual RFC 3339 timestamps", () => {
  it.each([
    [0, "2025-01-01T00:00:00Z"],
    [999, "2025-01-01T00:00:00Z"],
    [1000, "2025-01-01T00:00:01Z"],
    [59 * 86_400_000 + 3_723_000, "2025-03-01T01:02:03Z"],
    [365 * 86_400_000, "2026-01-01T00:00:00Z"],
    [(365 + 365 + 365 + 366) * 86_400_000 + 86_399_000, "2029-01-01T23:59:59Z"], // across leap 2028,
  ])("formats %i ms as %s (whole seconds, as metav1.Time)", (ms, text) => {
    expect(formatRFC3339(ms)).toBe(text);
  });

  it("starts at the fixed epoch and round-trips whole seconds", () => {
    expect(formatRFC3339(0)).toBe(EPOCH_RFC3339);
    for (const ms of [0, 1000, 86_400_000, 123_456_789_000, 10 * 365 * 86_400_000]) expect(parseRFC3339(formatRFC3339(ms))).toBe(ms);
  });

  it("RFC3339Nano trims trailing zeros like Go", () => {
    expect(formatRFC3339Nano(1500)).toBe("2025-01-01T00:00:01.5Z");
    expect(formatRFC3339Nano(1020)).toBe("2025-01-01T00:00:01.02Z");
    expect(formatRFC3339Nano(2000)).toBe("2025-01-01T00:00:02Z");
  });

  it("rejects text that is not RFC 3339 UTC", () => {
    expect(() => parseRFC3339("2025-01-01 00:00:00")).toThrow(RangeError);
  });
});

describe("parseRFC3339Milli (parseMicroTime's fast path)", () => {
  // The reference: parseMicroTime as it read before the fast path (two RegExps and parseRFC3339).
  const reference = (text: string): number | null => {
    try {
      const m = /\.(\d+)Z$/.exec(text);
      return parseRFC3339(text) + (m === null ? 0 : Math.floor(Number(`0.${m[1]}`) * 1000));
    } catch {
      return null;
    }
  };
  const wellFormed = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
  const texts = fc.oneof(
    fc.integer({ min: 0, max: 10 ** 13 }).map((ms) => formatRFC3339Nano(ms)),
    fc.tuple(fc.integer({ min: 0, max: 10 ** 12 }), fc.stringMatching(/^[0-9]{1,12}$/)).map(([ms, f]) => `${formatRFC3339(ms).slice(0, -1)}.${f}Z`),
    // One character of a valid text replaced by up to two others (or removed).
    fc.tuple(fc.integer({ min: 0, max: 10 ** 12 }), fc.nat(24), fc.string({ maxLength: 2 })).map(([ms, at, s]) => {
      const t = formatRFC3339Nano(ms);
      return t.slice(0, at) + s + t.slice(at + 1);
    }),
  );

  it("reads the common form as parseRFC3339 and the fraction did, and nothing else", () => {
    fc.assert(
      fc.property(texts, (text) => {
        const fast = parseRFC3339Milli(text);
        expect(fast === null).toBe(!wellFormed.test(text));
        if (fast !== null) expect(fast).toBe(reference(text));
        if (reference(text) !== null) expect(parseMicroTime(text)).toBe(reference(text));
      }),
      { numRuns: 5000 },
    );
    expect(parseMicroTime("2025-01-01T00:00:10.123456Z")).toBe(10_123);
    expect(parseMicroTime("2025-01-01T00:00:10Z")).toBe(10_000);
  });
});
