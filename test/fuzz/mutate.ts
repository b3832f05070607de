// Mutations of a YAML value, as fast-check arbitraries that shrink: the hostile edits a user (or a
// tool) can make to a scenario. Each mutation picks a place in the value by index (so it shrinks
// toward the first places) and does one thing there: change a value's type, drop or add a field,
// put a number out of range, a malformed duration, unicode, a very long string, or deep nesting.
import fc from "fast-check";

export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

export type Mutation =
  | { op: "retype"; at: number; to: Value }
  | { op: "drop"; at: number }
  | { op: "extra"; at: number; key: string; value: Value }
  | { op: "number"; at: number; value: number }
  | { op: "duration"; at: number; value: string }
  | { op: "string"; at: number; value: string }
  | { op: "nest"; at: number; depth: number }
  | { op: "knob"; path: readonly string[]; value: Value };

const isMap = (v: Value): v is { [key: string]: Value } => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every place in the value: a parent and a key, in document order (depth-first). */
function places(root: Value): Array<{ parent: Value[] | { [key: string]: Value }; key: string | number }> {
  const out: Array<{ parent: Value[] | { [key: string]: Value }; key: string | number }> = [];
  const stack: Value[] = [root];
  while (stack.length > 0 && out.length < 100_000) {
    const v = stack.pop()!;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]!);
      v.forEach((_, i) => out.push({ parent: v, key: i }));
    } else if (isMap(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) stack.push(v[keys[i]!]!);
      keys.forEach((k) => out.push({ parent: v, key: k }));
    }
  }
  return out;
}

/** Sets a configuration field by its path, making the maps on the way. */
function applyKnob(root: Value, path: readonly string[], value: Value): void {
  let target: Value = root;
  for (const k of path.slice(0, -1)) {
    if (!isMap(target)) return;
    if (!isMap(target[k] ?? null)) target[k] = {};
    target = target[k]!;
  }
  if (isMap(target)) target[path.at(-1)!] = value;
}

/** Applies the mutations in order to a copy of the value. */
export function applyMutations(input: Value, mutations: readonly Mutation[]): Value {
  const root = structuredClone(input);
  for (const m of mutations) {
    if (m.op === "knob") {
      applyKnob(root, m.path, m.value);
      continue;
    }
    const all = places(root);
    if (all.length === 0) continue;
    const { parent, key } = all[m.at % all.length]!;
    const get = (): Value => (parent as Record<string | number, Value>)[key]!;
    const set = (v: Value) => void ((parent as Record<string | number, Value>)[key] = v);
    switch (m.op) {
      case "retype": set(m.to); break;
      case "drop":
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete parent[key as string];
        break;
      case "extra": {
        const target = get();
        if (isMap(target)) target[m.key] = m.value;
        else if (Array.isArray(target)) target.push(m.value);
        else if (isMap(parent)) parent[m.key] = m.value;
        break;
      }
      case "number": set(m.value); break;
      case "duration": set(m.value); break;
      case "string": set(m.value); break;
      case "nest": {
        let v = get();
        for (let i = 0; i < m.depth; i++) v = [v];
        set(v);
        break;
      }
    }
  }
  return root;
}

const scalar: fc.Arbitrary<Value> = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: false }), fc.string({ maxLength: 12 }),
  fc.constantFrom("", "web", "app", "0s", "1m", "Always", "nginx:1", "default/web", "true", "1.30", "-1"),
);
const shallow: fc.Arbitrary<Value> = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom("name", "image", "at", "pod", "x", "min", "max", "exec", "port"), scalar, { maxKeys: 3 }),
);

const numbers = fc.constantFrom(0, -1, 1, 65535, 65536, 70000, 2 ** 31 - 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e21, 1e308, 0.5, -0.0001,
  Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN);
const durations = fc.constantFrom("0s", "-1s", "1ns", "1ms", "999999h", "1.5.5s", "", "1d", "5", "1h1h", "0.0001ms", "24h", "24h0m0.001s",
  "2562047h", "9223372036854775807ns", "1e3s", "+1s", "1 s", "∞");
const unicode = fc.constantFrom("wéb", "日本語", "😀", "a\u0301", "\u202eevil", "\u200b", "x\ty", "line\nbreak", "\u00a0nbsp", "ﬁ", "İ", "\\", "\"quoted\"");
const strings = fc.oneof(
  fc.string({ unit: "binary", maxLength: 20 }),
  unicode,
  fc.integer({ min: 64, max: 200_000 }).map((n) => "a".repeat(n)),
);

const at = fc.nat({ max: 10_000 });

/** The configuration a scenario can turn: the kubelet's periods and limits, latencies, the run's own. */
const KNOBS: ReadonlyArray<readonly string[]> = [
  ...["syncFrequency", "fileCheckFrequency", "httpCheckFrequency", "nodeStatusUpdateFrequency", "runtimeRequestTimeout",
    "housekeepingPeriod", "plegRelistPeriod", "plegRelistThreshold", "statusSyncPeriod", "backOffPeriod", "maxContainerBackOff",
    "maxPods", "version", "runOnce", "nodeName", "serializeImagePulls", "nodeIP"].map((k) => ["kubelet", k]),
  ["apiserver", "latency"], ["runtime", "latency", "PullImage"], ["runtime", "latency", "StopContainer"], ["until"], ["seed"],
  ["strategy"],
];
const knobValues: fc.Arbitrary<Value> = fc.oneof(durations, numbers, scalar, fc.record({ min: durations, max: durations }));

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("knob" as const), path: fc.constantFrom(...KNOBS), value: knobValues }),
  fc.record({ op: fc.constant("retype" as const), at, to: shallow }),
  fc.record({ op: fc.constant("drop" as const), at }),
  fc.record({ op: fc.constant("extra" as const), at, key: fc.oneof(fc.constantFrom("bogus", "skipApiValidation", "image", "hostPort"), fc.string({ maxLength: 8 })), value: shallow }),
  fc.record({ op: fc.constant("number" as const), at, value: numbers }),
  fc.record({ op: fc.constant("duration" as const), at, value: durations }),
  fc.record({ op: fc.constant("string" as const), at, value: strings }),
  fc.record({ op: fc.constant("nest" as const), at, depth: fc.integer({ min: 1, max: 80 }) }),
);

export const mutations = fc.array(mutation, { minLength: 1, maxLength: 3 });
