// Generated names: SimpleNameGenerator's form (a base cut to 58 characters plus five characters of
// rand.String's alphabet), derived from the object so they never depend on the run's seed.
import { describe, expect, it } from "vitest";
import { canonicalJson, computeHash, fnv32a, generateName, MAX_GENERATED_NAME_LENGTH, ownerUid, safeEncodeString } from "../../../src/scenario/manifest/names.ts";
import { EPOCH_UNIX_MINUTES } from "../../../src/scenario/manifest/controllers.ts";
import { formatRFC3339 } from "../../../src/apiserver/time.ts";

describe("names", () => {
  it("hashes with FNV-1a 32 (Go's hash/fnv New32a test vectors)", () => {
    expect(fnv32a("")).toBe(0x811c9dc5);
    expect(fnv32a("a")).toBe(0xe40c292c);
    expect(fnv32a("foobar")).toBe(0xbf9cf968);
  });

  it("safe-encodes each character into the alphabet without vowels, as rand.SafeEncodeString", () => {
    // '0' is 48: 48 % 27 = 21 → '4'; '1' → '5'; '9' is 57: 57 % 27 = 3 → 'f'.
    expect(safeEncodeString("019")).toBe("45f");
    expect(computeHash({ spec: { containers: [] } })).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  });

  it("hashes a template the same whatever the order of its keys", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    expect(computeHash({ metadata: { labels: { app: "x" } }, spec: {} })).toBe(computeHash({ spec: {}, metadata: { labels: { app: "x" } } }));
  });

  it("appends five characters to a base cut to 58, the same every time", () => {
    const name = generateName("web-", "default/ReplicaSet/web");
    expect(name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(generateName("web-", "default/ReplicaSet/web")).toBe(name);
    expect(generateName("web-", "default/ReplicaSet/other")).not.toBe(name);
    const long = generateName(`${"x".repeat(70)}-`, "id");
    expect(long).toHaveLength(MAX_GENERATED_NAME_LENGTH + 5);
    expect(long.startsWith("x".repeat(58))).toBe(true);
  });

  it("gives owners UUID-shaped UIDs", () => {
    expect(ownerUid("default/Job/pi")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("names a CronJob's Job after virtual time 0, in minutes since the Unix epoch", () => {
    expect(formatRFC3339(0)).toBe("2025-01-01T00:00:00Z");
    expect(EPOCH_UNIX_MINUTES).toBe(Date.UTC(2025, 0, 1) / 60_000);
  });
});
