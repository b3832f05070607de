// The tape of a run's choices: every place where Go leaves an order open, and the answer taken.
// Recording the tape makes any run reproducible; feeding it back (the replay strategy) replays it.
import { Murmur3x86_128 } from "./digest.ts";

/** What a choice decides. */
export type ChoiceKind = "proc" | "select" | "value";
const KIND_CHAR: Record<ChoiceKind, string> = { proc: "p", select: "s", value: "v" };
const CHAR_KIND: Record<string, ChoiceKind> = { p: "proc", s: "select", v: "value" };
const KIND_CODE: Record<ChoiceKind, number> = { proc: 0, select: 1, value: 2 };
const CODE_KIND: readonly ChoiceKind[] = ["proc", "select", "value"];

export interface Choice {
  kind: ChoiceKind;
  /** Number of options offered (always at least 2: single options are not choices). */
  n: number;
  /** The option taken, in [0, n). */
  index: number;
}

export class ChoiceLog {
  private kinds = new Uint8Array(256);
  private ns = new Uint32Array(256);
  private idx = new Uint32Array(256);
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(kind: ChoiceKind, n: number, index: number): void {
    if (this.count === this.kinds.length) this.grow();
    this.kinds[this.count] = KIND_CODE[kind];
    this.ns[this.count] = n;
    this.idx[this.count] = index;
    this.count++;
  }

  get(i: number): Choice {
    if (i < 0 || i >= this.count) throw new RangeError(`choice ${i} out of range`);
    return { kind: CODE_KIND[this.kinds[i]!]!, n: this.ns[i]!, index: this.idx[i]! };
  }

  /**
   * A 64-bit digest of the tape (16 hex digits): MurmurHash3_x86_128 (as in digest.ts) of the
   * words [count, then kind code (proc 0, select 1, value 2), n, index per choice], h1 and h2.
   * A run is a function of its scenario, seed and choices, so this names the run cheaply.
   */
  digest(): string {
    const h = new Murmur3x86_128();
    h.word(this.count);
    for (let i = 0; i < this.count; i++) {
      h.word(this.kinds[i]!);
      h.word(this.ns[i]!);
      h.word(this.idx[i]!);
    }
    const [h1, h2] = h.digestWords();
    return h1.toString(16).padStart(8, "0") + h2.toString(16).padStart(8, "0");
  }

  /** How many choices took an option other than the first (the fifo answer). */
  deviations(): number {
    let d = 0;
    for (let i = 0; i < this.count; i++) if (this.idx[i] !== 0) d++;
    return d;
  }

  toArray(): Choice[] {
    const out: Choice[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.get(i));
    return out;
  }

  static from(choices: readonly Choice[]): ChoiceLog {
    const log = new ChoiceLog();
    for (const c of choices) log.push(c.kind, c.n, c.index);
    return log;
  }

  /** Compact text: tokens like `p0/2` (kind, index/n), runs of equal tokens as `p0/2*15`. */
  encode(): string {
    const parts: string[] = [];
    let prev = "";
    let run = 0;
    const flush = () => {
      if (run > 0) parts.push(run === 1 ? prev : `${prev}*${run}`);
    };
    for (let i = 0; i < this.count; i++) {
      const tok = `${KIND_CHAR[CODE_KIND[this.kinds[i]!]!]}${this.idx[i]}/${this.ns[i]}`;
      if (tok === prev) {
        run++;
        continue;
      }
      flush();
      prev = tok;
      run = 1;
    }
    flush();
    return parts.join(" ");
  }

  static decode(text: string): ChoiceLog {
    const log = new ChoiceLog();
    const tokens = text.trim() === "" ? [] : text.trim().split(/\s+/);
    for (const tok of tokens) {
      const m = /^([psv])(\d+)\/(\d+)(?:\*(\d+))?$/.exec(tok);
      if (!m) throw new Error(`bad choice token "${tok}": expected e.g. "p0/2" or "s1/3*4"`);
      const kind = CHAR_KIND[m[1]!]!;
      const index = Number(m[2]);
      const n = Number(m[3]);
      if (n < 2 || index >= n) throw new Error(`bad choice token "${tok}": index must be below n >= 2`);
      const times = m[4] === undefined ? 1 : Number(m[4]);
      for (let k = 0; k < times; k++) log.push(kind, n, index);
    }
    return log;
  }

  private grow(): void {
    const cap = this.kinds.length * 2;
    const kinds = new Uint8Array(cap);
    kinds.set(this.kinds);
    const ns = new Uint32Array(cap);
    ns.set(this.ns);
    const idx = new Uint32Array(cap);
    idx.set(this.idx);
    this.kinds = kinds;
    this.ns = ns;
    this.idx = idx;
  }
}
