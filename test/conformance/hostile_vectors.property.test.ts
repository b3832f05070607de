// Any vector file, however wrong, is reported vector by vector: a vector whose fields are damaged at
// random (a field removed, a value of another type put in its place) comes back ok, failed,
// partial or error, never as an exception, and never as "a bug in kubelet-sim".
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { loadVectorFile, runVector } from "../../src/conformance/index.ts";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const FILES = ["oracle/compute_pod_actions.yaml", "oracle/backoff.yaml", "oracle/prober_worker.yaml", "oracle2/phase.yaml", "oracle2/pleg_events.yaml", "oracle2/status_transitions.yaml", "oracle2/api_status.yaml", "oracle2/pod_workers.yaml", "oracle2-transcribed/pleg_events.yaml", "oracle2-transcribed/status_transitions.yaml", "oracle2-transcribed/pod_workers.yaml"];

/** Every path to a value inside v (objects and arrays included). */
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (typeof v !== "object" || v === null) return out;
  for (const [k, x] of Object.entries(v)) {
    const p = [...at, Array.isArray(v) ? Number(k) : k];
    out.push(p);
    paths(x, p, out);
  }
  return out;
}

const replacement = fc.oneof(
  fc.constant(undefined), fc.constant(null), fc.integer({ min: -3, max: 5 }), fc.boolean(), fc.constantFrom("", "now", "(unset)", "x", "unix:1", "not asserted"),
  fc.constant([]), fc.constant({}), fc.constant([1, "a"]), fc.constant({ a: 1 }),
);

describe("damaged vectors are reported, never thrown", () => {
  it.each(FILES)("%s", (name) => {
    const path = join(FIXTURES, name);
    const file = loadVectorFile(path);
    const doc = parseYaml(readFileSync(path, "utf8")) as { vectors: unknown[] };
    fc.assert(
      fc.property(fc.nat({ max: doc.vectors.length - 1 }), fc.nat(), replacement, (vi, pi, value) => {
        const v = structuredClone(doc.vectors[vi]);
        const all = paths(v);
        if (all.length > 0) {
          const p = all[pi % all.length]!;
          let cur = v as Record<string | number, unknown>;
          for (const k of p.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
          if (value === undefined) delete cur[p.at(-1)!];
          else cur[p.at(-1)!] = structuredClone(value);
        }
        const r = runVector(file, v, vi);
        expect(["ok", "failed", "partial", "error"]).toContain(r.verdict);
        expect(r.error ?? "").not.toMatch(/a bug in kubelet-sim/);
      }),
      { numRuns: 60, seed: 23 },
    );
  });
});
