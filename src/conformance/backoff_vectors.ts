// Runs backoff.yaml vectors (flowcontrol backoff_test.go plus kubelet-parameter cases) through Backoff.
import { z } from "zod";
import { Backoff, type Clock } from "../kubelet/util/backoff.ts";
import { show } from "./diff.ts";

const step = z.looseObject({
  t: z.number(),
  op: z.string(),
  id: z.string().optional(),
  eventTime: z.number().optional(),
  expect: z.union([z.boolean(), z.number()]).optional(),
  thenGetExpect: z.number().optional(),
  note: z.string().optional(),
});

export const backoffVectorSchema = z.looseObject({
  name: z.string().optional(),
  params: z.looseObject({ initial: z.number(), max: z.number(), maxJitterFactor: z.number().optional() }),
  steps: z.array(step),
});

export type BackoffVector = z.infer<typeof backoffVectorSchema>;
type Step = z.infer<typeof step>;

const SECOND_MS = 1000;

/** A settable fake clock, as clock.FakeClock in the Go tests. */
class FakeClock implements Clock {
  nowSeconds = 0;
  nowMs(): number {
    return Math.round(this.nowSeconds * SECOND_MS);
  }
}

/** Runs one vector's steps in order; returns the diff lines (empty when it passes). */
export function runBackoffVector(v: BackoffVector): string[] {
  if ((v.params.maxJitterFactor ?? 0) !== 0) {
    return ["params.maxJitterFactor: jittered delays are random; only jitter-free vectors can be checked"];
  }
  const clock = new FakeClock();
  const b = new Backoff(clock, v.params.initial * SECOND_MS, v.params.max * SECOND_MS);
  const defaultID = v.steps.find((s) => s.id !== undefined)?.id ?? "";
  const diffs: string[] = [];
  v.steps.forEach((s, i) => {
    clock.nowSeconds = s.t;
    const where = `steps[${i}] (t=${s.t} ${s.op}${s.id ? ` ${s.id}` : ""})`;
    const got = applyStep(b, s, s.id ?? defaultID, clock);
    if (typeof got === "string") {
      diffs.push(`${where}: ${got}`);
      return;
    }
    if (s.expect !== undefined && got !== s.expect) diffs.push(`${where}: expected ${show(s.expect)}, got ${show(got)}`);
    if (s.thenGetExpect !== undefined) {
      const after = b.Get(s.id ?? defaultID) / SECOND_MS;
      if (after !== s.thenGetExpect) diffs.push(`${where} then Get: expected ${s.thenGetExpect}, got ${after}`);
    }
  });
  return diffs;
}

/** Performs one op; returns its value (boolean/number), undefined for ops without one, or an error text. */
function applyStep(b: Backoff, s: Step, id: string, clock: FakeClock): boolean | number | undefined | string {
  const eventMs = Math.round((s.eventTime ?? s.t) * SECOND_MS);
  switch (s.op) {
    case "Get":
      return b.Get(id) / SECOND_MS;
    case "Next":
      b.Next(id, eventMs);
      return undefined;
    case "IsInBackOffSince":
      return b.IsInBackOffSince(id, eventMs);
    case "IsInBackOffSinceUpdate":
      return b.IsInBackOffSinceUpdate(id, eventMs);
    case "GC":
      b.GC();
      return undefined;
    case "Reset":
      b.Reset(id);
      return undefined;
    case "DeleteEntry":
      b.DeleteEntry(id);
      return undefined;
    case "HasEntry":
      return b.hasEntry(id);
    case "setup":
      return setup(b, s, id, clock);
    default:
      return `unknown op ${JSON.stringify(s.op)}`;
  }
}

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
};

/**
 * A `setup` step describes its state in prose, e.g. "three Next calls: backoff now 40s,
 * lastUpdate=30". It is replayed as that many Next calls at lastUpdate (or the step's time); a
 * note that gives only "backoff now Xs" is replayed as the Next calls that reach X. The stated
 * backoff is then checked, so a misread note fails loudly instead of passing silently.
 */
function setup(b: Backoff, s: Step, id: string, clock: FakeClock): undefined | string {
  const note = s.note ?? "";
  const count = /(\d+|\b[a-z]+\b)\s+Next calls?/i.exec(note);
  const backoff = /backoff (?:now |is )?(\d+)\s*s/i.exec(note);
  const last = /lastUpdate\s*=\s*(\d+)/i.exec(note);
  let n: number | undefined;
  if (count !== null) {
    n = /^\d+$/.test(count[1]!) ? Number(count[1]) : NUMBER_WORDS[count[1]!.toLowerCase()];
  } else if (backoff !== null) {
    n = callsToReach(b, Number(backoff[1]) * SECOND_MS);
  }
  if (n === undefined) return `cannot read setup note ${JSON.stringify(note)}`;
  const stepSeconds = clock.nowSeconds;
  if (last !== null) clock.nowSeconds = Number(last[1]);
  for (let k = 0; k < n; k++) b.Next(id, clock.nowMs());
  clock.nowSeconds = stepSeconds;
  if (backoff !== null && b.Get(id) !== Number(backoff[1]) * SECOND_MS) {
    return `setup gave backoff ${b.Get(id) / SECOND_MS}s, the note says ${backoff[1]}s`;
  }
  return undefined;
}

/** How many Next calls from scratch give this backoff (initial, doubling, capped); undefined if none. */
function callsToReach(b: Backoff, targetMs: number): number | undefined {
  let valueMs = b.defaultDurationMs;
  for (let k = 1; k <= 64; k++) {
    if (valueMs === targetMs) return k;
    if (valueMs >= b.maxDurationMs) return undefined;
    valueMs = Math.min(valueMs * 2, b.maxDurationMs);
  }
  return undefined;
}
