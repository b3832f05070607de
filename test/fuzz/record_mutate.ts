// Mutations of a run record, as fast-check arbitraries that shrink: the hostile edits a user (or a
// tool) can make to a file that `replay` and `diff` read. Each does one thing: to the choice tape
// (a token replaced, another option taken, a repeat count changed, tokens dropped, appended or
// cut off, the same tape written out long hand), to a field (counts, hashes, texts, the verdict,
// out-of-range and mistyped values, a field dropped or added), to the scenario text a record can
// carry (mutate.ts's scenario mutations, its sha256 recomputed or left stale), or to the bytes.
import fc from "fast-check";
import { parse, stringify } from "yaml";
import { textSha256 } from "../../src/record/run_record.ts";
import { MAX_TAPE_CHOICES } from "../../src/record/tape.ts";
import { applyMutations, mutations as scenarioMutations, type Mutation, type Value } from "./mutate.ts";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type RecordJson = { [key: string]: Json };

export type RecordMutation =
  | { op: "token"; at: number; to: string }
  | { op: "flip"; at: number; by: number }
  | { op: "repeat"; at: number; times: string }
  | { op: "dropToken"; at: number }
  | { op: "append"; tokens: string }
  | { op: "truncate"; keep: number }
  | { op: "respell"; separator: string }
  | { op: "field"; key: string; value: Json }
  | { op: "hash"; key: "traceHash" | "scenarioSha256"; at: number }
  | { op: "drop"; key: string }
  | { op: "text"; edits: Mutation[]; resign: boolean }
  | { op: "bytes"; at: number; to: string };

/** A record's tape tokens, as the file holds them. */
const tokensOf = (choices: Json | undefined): string[] => (typeof choices === "string" ? choices.split(/\s+/).filter((t) => t !== "") : []);

const TOKEN = /^([psv])(\d+)\/(\d+)(?:\*(\d+))?$/;

/** Edits the at-th token (modulo the count) with f; a tape of no tokens is left alone. */
function editToken(record: RecordJson, at: number, f: (tok: string, all: string[], i: number) => void): void {
  const all = tokensOf(record["choices"]);
  if (all.length === 0) return;
  const i = at % all.length;
  f(all[i]!, all, i);
  record["choices"] = all.join(" ");
}

/** The tape written one token per choice (p0/2*3 as p0/2 p0/2 p0/2), joined by `separator`: the same choices. */
function longHand(choices: string, separator: string): string {
  return tokensOf(choices)
    .flatMap((tok) => {
      const m = TOKEN.exec(tok);
      if (m === null || m[4] === undefined || Number(m[4]) < 1 || Number(m[4]) > 10_000) return [tok];
      return Array.from({ length: Number(m[4]) }, () => `${m[1]}${m[2]}/${m[3]}`);
    })
    .join(separator);
}

/** A YAML text with the scenario mutations applied; a text that is no single YAML document (an earlier edit made it so) as it is. */
function editedYaml(text: string, edits: readonly Mutation[]): string {
  let value: Value;
  try {
    value = parse(text) as Value;
  } catch {
    return text;
  }
  return stringify(applyMutations(value, edits), { lineWidth: 0 });
}

/**
 * The record's text after the mutations. `scenarioText` is the text of the scenario the record
 * names: a text mutation edits the record's own copy, or gives it one (edited) when it has none.
 */
export function applyRecordMutations(original: RecordJson, scenarioText: string, muts: readonly RecordMutation[]): string {
  const record = structuredClone(original);
  const byteEdits: Array<{ at: number; to: string }> = [];
  for (const m of muts) {
    switch (m.op) {
      case "token": editToken(record, m.at, (_t, all, i) => void (all[i] = m.to)); break;
      case "flip":
        editToken(record, m.at, (tok, all, i) => {
          const t = TOKEN.exec(tok);
          // Another option than the one taken: index + 1 + (by mod n-1), mod n, is never the same one.
          const n = t === null ? 0 : Number(t[3]);
          if (t !== null && n >= 2 && Number.isSafeInteger(n)) all[i] = `${t[1]}${(Number(t[2]) + 1 + (m.by % (n - 1))) % n}/${t[3]}${t[4] === undefined ? "" : `*${t[4]}`}`;
        });
        break;
      case "repeat": editToken(record, m.at, (tok, all, i) => void (all[i] = `${tok.replace(/\*\d+$/, "")}*${m.times}`)); break;
      case "dropToken": editToken(record, m.at, (_t, all, i) => void all.splice(i, 1)); break;
      case "append": if (typeof record["choices"] === "string") record["choices"] = `${record["choices"]} ${m.tokens}`; break;
      case "truncate": {
        // Cut short: at most all but the last token kept.
        const all = tokensOf(record["choices"]);
        if (all.length > 0) record["choices"] = all.slice(0, m.keep % all.length).join(" ");
        break;
      }
      case "respell": if (typeof record["choices"] === "string") record["choices"] = longHand(record["choices"], m.separator); break;
      // defineProperty, so that a key named __proto__ is an own field (as JSON.parse makes it), not the prototype.
      case "field": Object.defineProperty(record, m.key, { value: m.value, enumerable: true, writable: true, configurable: true }); break;
      case "hash": {
        const h = record[m.key];
        if (typeof h === "string" && h.length > 0) {
          const i = m.at % h.length;
          record[m.key] = `${h.slice(0, i)}${h[i] === "0" ? "1" : "0"}${h.slice(i + 1)}`;
        }
        break;
      }
      case "drop": delete record[m.key]; break;
      case "text": {
        const own = typeof record["scenarioText"] === "string" ? record["scenarioText"] : scenarioText;
        const text = m.edits.length === 0 ? own : editedYaml(own, m.edits);
        record["scenarioText"] = text;
        if (m.resign) record["scenarioSha256"] = textSha256(text);
        break;
      }
      case "bytes": byteEdits.push(m); break;
    }
  }
  let text = `${JSON.stringify(record, null, 2)}\n`;
  for (const b of byteEdits) {
    const i = b.at % text.length;
    text = `${text.slice(0, i)}${b.to}${text.slice(i + 1)}`;
  }
  return text;
}

const at = fc.nat({ max: 100_000 });
const big = (n: number) => "a".repeat(n);

/** Tokens no tape of a run holds: malformed, out of range, or asking for more choices than a record holds. */
const hostileToken = fc.constantFrom(
  "p0/2*99999999999999", `p0/2*${MAX_TAPE_CHOICES + 1}`, `p0/2*${MAX_TAPE_CHOICES}`, "p0/2*0", "p0/2*", "p5/2", "p2/2", "p0/1", "p0/0", "x0/2",
  "p-1/2", "p0/4294967296", "p0/4294967295", "s1/3*8388609", "p0/2*1e9", "P0/2", "p0 /2", "p0/2**2", "p00/02", "p1/2*01", "p0/2*-1",
  "p9999999999999999999999/2", "v0/2", "s0/2", "ｐ0/2", "p٠/2", "\u0000", big(5000),
);
/** Repeat counts: ordinary, zero, at and beyond the bound, absurd. */
const repeatCount = fc.constantFrom("0", "1", "2", "3", "00", "100", String(MAX_TAPE_CHOICES), String(MAX_TAPE_CHOICES + 1), "99999999999999", "1".repeat(400));

const hexes = (n: number) => fc.constantFrom("0".repeat(n), "f".repeat(n), "F".repeat(n), `${"a".repeat(n - 1)}g`);

/** Hostile values of each field: counts out of range or mistyped, hashes of other lengths, texts, verdicts. */
const FIELD_VALUES: Record<string, fc.Arbitrary<Json>> = {
  format: fc.constantFrom("kubelet-sim/run-record/v2", "kubelet-sim/run-record/v0", "kubelet-sim/run-record/", "", `kubelet-sim/run-record/${big(3000)}`, 1, null),
  tool: fc.constantFrom("0.0.1", "99.0.0", "", 1, "wéb\u202e"),
  scenario: fc.constantFrom("nowhere.yaml", "scenarios", "scenarios/default.yaml", "scenarios/basics/01-pod-starts.yaml", "r05", "default", "../../../../../etc/passwd",
    "fifo.yaml", "folder.yaml", "", big(5000), "日本語.yaml", 7),
  scenarioSha256: fc.oneof(hexes(64), hexes(16), fc.constantFrom("", textSha256(""), 5)),
  seed: fc.constantFrom(-1, 0, 1, 2 ** 32 - 1, 2 ** 32, 1.5, 1e308, -0, "3", null),
  strategy: fc.constantFrom("fifo", "random", "pct:3:1000", "pct:0:0", "pct:99999999999:1", "pos", "play", "replay", "bogus", "", big(5000), 3),
  untilMs: fc.constantFrom(0, 1, 999, 30_000, 86_400_000, 86_400_001, -1, 1.5, 1e308, "90000", null),
  kubelet: fc.constantFrom<Json>({ version: "1.20" }, { version: "1.99" }, { version: 5 }, { variants: { bogus: true } }, { featureGates: { EventedPLEG: true } },
    { featureGates: { Bogus: true } }, {}, [], null, "1.22"),
  choices: fc.constantFrom<Json>("", " ", "\n", 5, null, [], big(100_000)),
  verdict: fc.constantFrom("completed", "quiescent", "until", "stopped", "deadlock", "livelock", "max-events", "panic", "diverged", "PASS", "", 1),
  ok: fc.constantFrom<Json>(true, false, "true", 0, null),
  traceHash: fc.oneof(hexes(16), hexes(64), fc.constantFrom("", "0", 16)),
  replayKey: fc.constantFrom("", "rm -rf /", big(5000), "\u202e", 1),
  scenarioText: fc.constantFrom<Json>("", "name: x\n", 5, null, big(2000)),
  repro: fc.constantFrom<Json>({}, null, "x"),
  // An own key named __proto__, as JSON.parse makes it: a reader must not take it for the prototype.
  ["__proto__"]: fc.constantFrom<Json>({ ok: false }, null),
  bogus: fc.constantFrom<Json>(1, "x", { deep: [[[]]] }),
};
const FIELDS = Object.keys(FIELD_VALUES);

export const recordMutation: fc.Arbitrary<RecordMutation> = fc.oneof(
  // The tape.
  fc.record({ op: fc.constant("token" as const), at, to: hostileToken }),
  fc.record({ op: fc.constant("flip" as const), at, by: fc.nat({ max: 6 }) }),
  fc.record({ op: fc.constant("repeat" as const), at, times: repeatCount }),
  fc.record({ op: fc.constant("dropToken" as const), at }),
  fc.record({ op: fc.constant("append" as const), tokens: fc.oneof(fc.constantFrom("p0/2", "p1/2 p0/3", "v1/2*5"), hostileToken) }),
  fc.record({ op: fc.constant("truncate" as const), keep: at }),
  fc.record({ op: fc.constant("respell" as const), separator: fc.constantFrom(" ", "\n", "\t", "  \r\n ") }),
  // The fields: counts, hashes, texts, verdicts.
  fc.constantFrom(...FIELDS).chain((key) => fc.record({ op: fc.constant("field" as const), key: fc.constant(key), value: FIELD_VALUES[key]! })),
  fc.record({ op: fc.constant("hash" as const), key: fc.constantFrom("traceHash" as const, "scenarioSha256" as const), at }),
  fc.record({ op: fc.constant("drop" as const), key: fc.constantFrom(...FIELDS) }),
  // The scenario text a record carries.
  fc.record({ op: fc.constant("text" as const), edits: fc.oneof(fc.constant([] as Mutation[]), scenarioMutations), resign: fc.boolean() }),
  // The bytes.
  fc.record({ op: fc.constant("bytes" as const), at, to: fc.constantFrom("", "\u0000", "}", "{", "\"", ",", "\ufeff", "\\u") }),
);

export const recordMutations = fc.array(recordMutation, { minLength: 1, maxLength: 3 });
