// The choice tape of a run record, read back with bounds. A tape is text a user can edit, and its
// run-length form (`p0/2*15`) lets a few characters ask for any number of choices: decoded naively,
// `p0/2*99999999999999` grows memory until the process dies. Here the whole text is checked first,
// and the choices counted, without allocating; only a tape within MAX_TAPE_CHOICES is built.
import { ChoiceLog } from "../sim/index.ts";

/**
 * The most choices a run record holds. The largest scenario the bounds allow (200 pods for 24h of
 * virtual time) makes a few million; a 110-pod node makes about 72,000 in a virtual hour
 * (docs/cli.md, "The run record"). The tape of this many takes 9 bytes a choice in memory.
 */
export const MAX_TAPE_CHOICES = 8_388_608;

/** Options of one choice point: the kernel counts them in 32 bits. */
const MAX_OPTIONS = 2 ** 32 - 1;

const TOKEN = /^([psv])(\d+)\/(\d+)(?:\*(\d+))?$/;

/** A tape that cannot be read; the message is one line and names the token at fault. */
export class TapeError extends Error {
  override name = "TapeError";
}

interface Token {
  kind: "proc" | "select" | "value";
  index: number;
  n: number;
  times: number;
}

const KINDS = { p: "proc", s: "select", v: "value" } as const;

/** One token of the tape, checked: the option taken is below the options offered, the repeat count at least 1. */
function parseToken(tok: string): Token {
  const m = TOKEN.exec(tok);
  if (m === null) throw new TapeError(`bad choice token "${clip(tok)}": expected e.g. "p0/2" or "s1/3*4"`);
  const index = Number(m[2]);
  const n = Number(m[3]);
  const times = m[4] === undefined ? 1 : Number(m[4]);
  if (n < 2 || n > MAX_OPTIONS || index >= n) throw new TapeError(`bad choice token "${clip(tok)}": the option taken must be below the options offered, at least 2 and at most ${MAX_OPTIONS}`);
  if (times < 1) throw new TapeError(`bad choice token "${clip(tok)}": a repeat count is at least 1`);
  return { kind: KINDS[m[1] as keyof typeof KINDS], index, n, times };
}

/** Every token of the text, lazily: a regular expression walk, no array of tokens. */
function* tokens(text: string): Generator<string> {
  for (const m of text.matchAll(/\S+/g)) yield m[0];
}

/**
 * How many choices the tape holds, after checking every token; throws a TapeError for a bad
 * token or a tape longer than MAX_TAPE_CHOICES. Allocates nothing that grows with the count.
 */
export function tapeLength(text: string): number {
  let total = 0;
  for (const tok of tokens(text)) {
    const { times } = parseToken(tok);
    total += times;
    if (total > MAX_TAPE_CHOICES) {
      const what = times > MAX_TAPE_CHOICES ? `"${clip(tok)}" alone asks for` : "the tape holds";
      throw new TapeError(`${what} more than ${MAX_TAPE_CHOICES} choices, the most a run record holds`);
    }
  }
  return total;
}

/** The tape as a ChoiceLog, built only once its length is known to be within bounds. */
export function decodeTape(text: string): ChoiceLog {
  tapeLength(text);
  const log = new ChoiceLog();
  for (const tok of tokens(text)) {
    const { kind, index, n, times } = parseToken(tok);
    for (let k = 0; k < times; k++) log.push(kind, n, index);
  }
  return log;
}

const clip = (s: string) => (s.length > 40 ? `${s.slice(0, 37)}...` : s);
