// Loading is linear in the size of a file: doubling the keys of a mapping at most doubles the work.
// Work is counted, not timed (a loaded machine makes time meaningless): every element that an
// array method (find, some, filter, map, forEach, includes, indexOf, ...) visits while a file is
// checked. The loader's quadratic past was exactly such scans, inside a loop over the same keys:
// the yaml library's duplicate-key check (items.some per key) and the locator's (items.find per
// issue). The times themselves are `npm run bench -- validate-keys`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkScenarioText, formatIssue } from "../../src/scenario/index.ts";
import { MAX_UNKNOWN_FIELDS_LISTED } from "../../src/scenario/messages.ts";

const SCANS = ["find", "findIndex", "findLast", "some", "every", "filter", "map", "flatMap", "forEach", "includes", "indexOf", "reduce"] as const;

/** The array elements visited by array methods while `f` runs. */
function visits(f: () => unknown): number {
  let n = 0;
  const proto = Array.prototype as unknown as Record<string, unknown>;
  const originals = SCANS.map((name) => [name, proto[name]] as const);
  for (const [name, original] of originals) {
    proto[name] = function (this: unknown[], ...args: unknown[]) {
      n += this.length;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
  try {
    f();
  } finally {
    for (const [name, original] of originals) proto[name] = original;
  }
  return n;
}

const BASE = `name: many
pods:
  - manifest:
      metadata:
        name: web
        ANNOTATIONS
      spec: { containers: [{ name: app, image: "nginx:1" }] }
timeline:
  - { at: 0s, create: web }
`;

/** The shapes of file that used to cost n²: unknown top-level keys, and a manifest's large maps. */
const FILES = {
  unknownKeys: (n: number) => `name: many\n${Array.from({ length: n }, (_, i) => `k${i}: 1`).join("\n")}\n`,
  annotations: (n: number) => BASE.replace("ANNOTATIONS", `annotations:\n${Array.from({ length: n }, (_, i) => `          a${i}: "v${i}"`).join("\n")}`),
  labels: (n: number) => BASE.replace("ANNOTATIONS", `labels:\n${Array.from({ length: n }, (_, i) => `          l${i}: x`).join("\n")}`),
  unknownPodFields: (n: number) => BASE.replace("        ANNOTATIONS\n", "").replace("  - manifest:", `  - ${Array.from({ length: n }, (_, i) => `f${i}: 1`).join("\n    ")}\n    manifest:`),
  duplicateKeys: (n: number) => `name: many\n${Array.from({ length: n }, (_, i) => `k${i % Math.max(1, n >> 1)}: 1`).join("\n")}\n`,
};

describe("loading is linear in the number of keys", () => {
  it("doubling the keys at most doubles the array work, for every shape of file that was quadratic", () => {
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(FILES) as (keyof typeof FILES)[])), fc.integer({ min: 400, max: 1500 }), (shape, n) => {
        const once = visits(() => checkScenarioText(FILES[shape](n), "f.yaml"));
        const twice = visits(() => checkScenarioText(FILES[shape](2 * n), "f.yaml"));
        // 10% and a constant for what does not grow with n (the schema's own lists, the pod's checks).
        expect(twice, `${shape} at ${n} and ${2 * n} keys: ${once} then ${twice} visits`).toBeLessThanOrEqual(2.2 * once + 20_000);
      }),
      { seed: 27, numRuns: 12 },
    );
  });

  it("the count sees quadratic work: a scan per key, as the old duplicate check did, fails the bound", () => {
    const quadratic = (n: number) => visits(() => Array.from({ length: n }, (_, i) => i).forEach((_, i, all) => all.some((k) => k === i)));
    expect(quadratic(2000)).toBeGreaterThan(2.2 * quadratic(1000) + 20_000);
  });

  it("lists the first unknown fields of a mapping one by one and counts the rest in one issue", () => {
    const r = checkScenarioText(FILES.unknownKeys(5_000), "f.yaml");
    expect(r.ok).toBe(false);
    const lines = r.ok ? [] : r.issues.map(formatIssue);
    expect(lines).toHaveLength(MAX_UNKNOWN_FIELDS_LISTED + 1);
    expect(lines[0]).toBe('f.yaml:2:1: k0: unknown field "k0"; expected one of: name, description, refs, seed, until, kubelet, node, nodes, runtime, apiserver, pods, scheduler, ...');
    expect(lines.at(-1)).toBe(`f.yaml:${MAX_UNKNOWN_FIELDS_LISTED + 2}:1: k${MAX_UNKNOWN_FIELDS_LISTED}: and ${5_000 - MAX_UNKNOWN_FIELDS_LISTED} more unknown fields in this mapping from here on (5000 in all)`);
  });

  it("still finds a duplicate key, where the second one is written", () => {
    const r = checkScenarioText("name: a\nseed: 1\npods: []\nseed: 2\n", "d.yaml");
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual(['d.yaml:4:1: syntax error: duplicate key "seed": each key may appear once in a mapping']);
    const flow = checkScenarioText("name: a\nkubelet: { version: \"1.30\", version: \"1.31\" }\n", "f.yaml");
    expect(flow.ok ? [] : flow.issues.map(formatIssue)).toEqual(['f.yaml:2:29: syntax error: duplicate key "version": each key may appear once in a mapping']);
  });
});
