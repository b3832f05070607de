// The property that makes a conformance pass mean something: change any one expectation leaf of any
// public vector (and of the transcribed ones) and the vector no longer passes. An expectation leaf
// is a leaf under a key that names an expectation (expect, expected, expectEvents, thenGetExpect...);
// the change keeps the leaf's type where it can (a number + 1, a boolean negated, another value the
// same key takes elsewhere in the file, a time one second later). Prose fields read by pattern
// ("not asserted (drained)", "set = T1"...) may say the same thing after a change, so they are
// excepted, each listed below with why.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { formatRFC3339, parseRFC3339 } from "../../src/apiserver/time.ts";
import { loadVectorFile, runVector, type VectorFile } from "../../src/conformance/index.ts";
import { isProseKey } from "../../src/conformance/tracked.ts";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const FILES = [
  "oracle/compute_pod_actions.yaml", "oracle/backoff.yaml", "oracle/prober_worker.yaml",
  "oracle2/phase.yaml", "oracle2/pleg_events.yaml", "oracle2/status_transitions.yaml", "oracle2/api_status.yaml", "oracle2/pod_workers.yaml",
  "oracle2-transcribed/pleg_events.yaml", "oracle2-transcribed/status_transitions.yaml", "oracle2-transcribed/pod_workers.yaml",
];

/**
 * Expectation leaves read by pattern, whose text may keep its meaning under a change: the key (the
 * last path segment) and the values it takes, with why each is exempt.
 */
const PATTERN_READ: readonly { key: string; values: RegExp; why: string }[] = [
  { key: "expectEvents", values: /^not asserted/, why: "a step whose events the Go test drains or ignores: any text saying so asserts nothing" },
  { key: "lastTransitionTime", values: /^(no condition|copied from old|updated|set)/, why: "updateLastTransitionTime's outcome in words (nothing, the old time, now)" },
  { key: "readyLastTransitionTime", values: /T1/, why: "a time named relative to an earlier step (set = T1, not before T1)" },
  { key: "effect", values: /update|drops/, why: "checkContainerStateTransition's effect in words; `illegal` beside it is the exact check" },
  { key: "startedStaticPodsByFullname", values: /^not asserted/, why: "Test_allowPodStart leaves the map unchecked" },
  { key: "waitingToStartStaticPodsByFullname", values: /^not asserted/, why: "Test_allowPodStart leaves the map unchecked" },
  { key: "startTime", values: /non-?zero/, why: "TestNewStatus asserts only that the start time is set" },
];

/**
 * Lists of alternatives: a history one of which each pod's must equal, a superset the events sent
 * must fit in. An element no run needs (removing it leaves the vector passing: the deterministic
 * harness never takes that branch of a racy Go test) may change without effect; its leaves are
 * excepted, the others are not.
 */
const ALTERNATIVES = /OneOf$|SubsetOf$/;

function isExempt(path: (string | number)[], value: unknown): boolean {
  const key = [...path].reverse().find((k) => typeof k === "string") as string | undefined;
  return typeof value === "string" && PATTERN_READ.some((p) => p.key === key && p.values.test(value));
}

interface Leaf {
  path: (string | number)[];
  value: unknown;
}

/** The expectation leaves of a vector: leaves under an expectation key, prose keys left out. */
function expectationLeaves(v: unknown, path: (string | number)[] = [], under = false, out: Leaf[] = []): Leaf[] {
  const isContainer = typeof v === "object" && v !== null;
  const empty = isContainer && (Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0);
  if (!isContainer || empty) {
    if (under) out.push({ path, value: v });
    return out;
  }
  if (Array.isArray(v)) {
    v.forEach((x, i) => expectationLeaves(x, [...path, i], under, out));
    return out;
  }
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (isProseKey(k)) continue;
    expectationLeaves(x, [...path, k], under || /expect/i.test(k), out);
  }
  return out;
}

/** Every value each key takes in a file: a changed string is another of them where there is one. */
function valuesByKey(doc: unknown, out = new Map<string, Set<string>>()): Map<string, Set<string>> {
  if (Array.isArray(doc)) doc.forEach((x) => valuesByKey(x, out));
  else if (typeof doc === "object" && doc !== null) {
    for (const [k, x] of Object.entries(doc as Record<string, unknown>)) {
      if (typeof x === "string") out.set(k, (out.get(k) ?? new Set()).add(x));
      else valuesByKey(x, out);
    }
  }
  return out;
}

/** A time token moved (one second later, or its offset one unit larger), or undefined when the text is not a time. */
function movedTime(s: string): string | undefined {
  const unix = /^unix:(-?\d+)$/.exec(s);
  if (unix !== null) return `unix:${Number(unix[1]) + 1}`;
  const rel = /^(now|normalized_now|startTime)(?:([+-])(\d+)(ms|s|m|h))?$/.exec(s);
  if (rel !== null) return rel[2] === undefined ? `${rel[1]}+1s` : `${rel[1]}${rel[2]}${Number(rel[3]) + 1}${rel[4]}`;
  if (/^\d{4}-\d{2}-\d{2}T/.test(s)) return formatRFC3339(parseRFC3339(s) + 1000);
  return undefined;
}

function mutate(value: unknown, key: string | undefined, values: Map<string, Set<string>>): unknown {
  if (typeof value === "number") return value + 1;
  if (typeof value === "boolean") return !value;
  if (typeof value === "string") {
    const time = movedTime(value);
    if (time !== undefined) return time;
    // Another value of the key, but not one the value implies (terminatedUnknown is terminated).
    const other = [...(values.get(key ?? "") ?? [])].find((x) => x !== value && !value.startsWith(x) && movedTime(x) === undefined);
    return other ?? `${value}-mutated`;
  }
  if (value === null) return "mutated";
  if (Array.isArray(value)) return ["mutated"];
  return { mutated: 1 };
}

function setAt(root: unknown, path: (string | number)[], value: unknown): void {
  let cur = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[path.at(-1)!] = value;
}

interface Survivor {
  vector: string;
  path: string;
  from: unknown;
  to: unknown;
}

/** The path of the alternatives-list element a leaf sits in, if any ("...historyPerPodIsOneOf", 1). */
function alternativeOf(path: (string | number)[]): (string | number)[] | null {
  const i = path.findIndex((k) => typeof k === "string" && ALTERNATIVES.test(k));
  return i < 0 || typeof path[i + 1] !== "number" ? null : path.slice(0, i + 2);
}

/** Whether the vector passes without that element of its alternatives list. */
function unneeded(file: VectorFile, v: unknown, element: (string | number)[], index: number, newer: boolean): boolean {
  const copy = structuredClone(v);
  let list = copy as Record<string | number, unknown>;
  for (const k of element.slice(0, -1)) list = list[k] as Record<string | number, unknown>;
  (list as unknown as unknown[]).splice(element.at(-1) as number, 1);
  return runVector(file, copy, index, newer).verdict === "ok";
}

function survivors(file: VectorFile, doc: { vectors: unknown[]; newerVersionVectors?: unknown[] }): { checked: number; survived: Survivor[] } {
  const values = valuesByKey(doc);
  const entries = [...doc.vectors.map((v) => ({ v, newer: false })), ...(doc.newerVersionVectors ?? []).map((v) => ({ v, newer: true }))];
  let checked = 0;
  const survived: Survivor[] = [];
  entries.forEach(({ v, newer }, index) => {
    const spare = new Map<string, boolean>();
    for (const leaf of expectationLeaves(v)) {
      if (isExempt(leaf.path, leaf.value)) continue;
      const alt = alternativeOf(leaf.path);
      if (alt !== null) {
        const k = alt.join(".");
        if (!spare.has(k)) spare.set(k, unneeded(file, v, alt, index, newer));
        if (spare.get(k) === true) continue;
      }
      const key = [...leaf.path].reverse().find((k) => typeof k === "string") as string | undefined;
      const to = mutate(leaf.value, key, values);
      const copy = structuredClone(v);
      setAt(copy, leaf.path, to);
      checked++;
      const r = runVector(file, copy, index, newer);
      if (r.verdict === "ok" || r.verdict === "partial") {
        survived.push({ vector: `#${index} ${r.name}`, path: leaf.path.join("."), from: leaf.value, to });
      }
    }
  });
  return { checked, survived };
}

describe("mutating any expectation leaf makes the vector fail", () => {
  it.each(FILES)("%s", (name) => {
    const path = join(FIXTURES, name);
    const file = loadVectorFile(path);
    const doc = parseYaml(readFileSync(path, "utf8")) as { vectors: unknown[]; newerVersionVectors?: unknown[] };
    const { checked, survived } = survivors(file, doc);
    // Every vector of the file has at least one expectation leaf changed.
    expect(checked).toBeGreaterThanOrEqual(doc.vectors.length);
    expect(survived).toEqual([]);
  });

  it("the exemptions are few, each with its reason", () => {
    expect(PATTERN_READ.length).toBeLessThanOrEqual(8);
    for (const p of PATTERN_READ) expect(p.why.length).toBeGreaterThan(20);
  });
});
