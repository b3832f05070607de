import { describe, expect, it } from "vitest";
import { EPOCH_RFC3339, formatRFC3339, formatRFC3339Nano, parseRFC3339 } from "../../src/apiserver/index.ts";

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
