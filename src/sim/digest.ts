// The trace digest: a fast 64-bit fingerprint of a run's records, the same on every machine, every
// Node version and in a browser (32-bit integer arithmetic only, no host crypto), computed
// incrementally as records are emitted. docs/outputs.md ("The trace hash") specifies it;
// test/sim/digest.test.ts pins it over a frozen corpus and checks the hash function against a
// reference implementation of MurmurHash3.
//
// Each record is encoded canonically as a stream of 32-bit words: its JSON value (what its JSON
// line says), walked in JSON.stringify's order, every value type-tagged, arrays length-prefixed
// and objects closed, so the concatenation of records parses one way only. A string stands in the
// stream as its own 64-bit digest (MurmurHash3_x86_128 of its UTF-16LE bytes, first two words):
// a key's is computed once per key list it ends (the key trie below), a field's string value's
// when it differs from the last one met under that key list.
// The stream is hashed with MurmurHash3_x86_128 (Austin Appleby's reference, seed 0, each word
// taken as four little-endian bytes); the digest is the first two 32-bit words of the result (h1,
// h2) as 16 hex digits. It tells runs apart; it is not cryptographic and resists no forger.
//
// Records are plain data: strings, finite numbers, booleans, null, arrays and plain objects.
// Like JSON.stringify, it leaves out undefined, function and symbol properties (null in arrays)
// and writes non-finite numbers as null and -0 as 0; unlike it, it consults no toJSON method.

/** Word tags of the canonical encoding (see docs/outputs.md). */
export const TAG = { null: 1, false: 2, true: 3, int: 4, float: 5, string: 6, array: 7, object: 8, key: 9, end: 10 } as const;
/** Nesting deeper than this is a cycle or a mistake: JSON.stringify would throw, and so do we. */
const MAX_DEPTH = 256;

const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const hex8 = (x: number) => (x >>> 0).toString(16).padStart(8, "0");

/** Words are buffered and hashed a buffer at a time: one tight loop instead of a call per word. */
const BUFFER_WORDS = 1024;

/** MurmurHash3_x86_128 over a stream of 32-bit words (each taken as 4 little-endian bytes). */
export class Murmur3x86_128 {
  private h1 = 0;
  private h2 = 0;
  private h3 = 0;
  private h4 = 0;
  /** Words not hashed yet; `n` of them. Always fewer than BUFFER_WORDS between calls. */
  private readonly buf = new Int32Array(BUFFER_WORDS);
  private n = 0;
  /** Bytes hashed, modulo 2^32 (the reference hashes a 32-bit length). */
  private bytes = 0;

  word(w: number): void {
    this.buf[this.n++] = w;
    if (this.n === BUFFER_WORDS) this.flush();
  }

  /**
   * Three words at once (a tag and a string's digest): one room check instead of three, leaving
   * room for the next word as word() expects. Hashing earlier than a full buffer changes nothing:
   * the blocks are the same words in the same order.
   */
  word3(a: number, b: number, c: number): void {
    if (this.n >= BUFFER_WORDS - 3) this.flush();
    const buf = this.buf;
    let n = this.n;
    buf[n++] = a;
    buf[n++] = b;
    buf[n++] = c;
    this.n = n;
  }

  /** A key's tag and digest with an int's tag and value: one room check for five words. */
  word5(a: number, b: number, c: number, d: number, e: number): void {
    if (this.n >= BUFFER_WORDS - 5) this.flush();
    const buf = this.buf;
    let n = this.n;
    buf[n++] = a;
    buf[n++] = b;
    buf[n++] = c;
    buf[n++] = d;
    buf[n++] = e;
    this.n = n;
  }

  /** A key's tag and digest with a string's tag and digest: one room check for six words. */
  word6(a: number, b: number, c: number, d: number, e: number, f: number): void {
    if (this.n >= BUFFER_WORDS - 6) this.flush();
    const buf = this.buf;
    let n = this.n;
    buf[n++] = a;
    buf[n++] = b;
    buf[n++] = c;
    buf[n++] = d;
    buf[n++] = e;
    buf[n++] = f;
    this.n = n;
  }

  /** Hashes the whole blocks of four words in the buffer; at most three words stay. */
  private flush(): void {
    const buf = this.buf;
    const blocks = this.n >>> 2;
    let { h1, h2, h3, h4 } = this;
    for (let b = 0, i = 0; b < blocks; b++, i += 4) {
      h1 ^= Math.imul(rotl(Math.imul(buf[i]!, C1), 15), C2);
      h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
      h2 ^= Math.imul(rotl(Math.imul(buf[i + 1]!, C2), 16), C3);
      h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
      h3 ^= Math.imul(rotl(Math.imul(buf[i + 2]!, C3), 17), C4);
      h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
      h4 ^= Math.imul(rotl(Math.imul(buf[i + 3]!, C4), 18), C1);
      h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
    }
    this.h1 = h1;
    this.h2 = h2;
    this.h3 = h3;
    this.h4 = h4;
    const done = blocks * 4;
    this.bytes = (this.bytes + done * 4) | 0;
    buf.copyWithin(0, done, this.n);
    this.n -= done;
  }

  /** The 128-bit digest of the words so far as four 32-bit words (h1..h4); feeding may go on. */
  digestWords(): [number, number, number, number] {
    this.flush();
    let { h1, h2, h3, h4 } = this;
    const buf = this.buf;
    const tail = this.n;
    // The tail: the reference mixes each partial lane it has bytes for (here whole words).
    if (tail >= 3) h3 ^= Math.imul(rotl(Math.imul(buf[2]!, C3), 17), C4);
    if (tail >= 2) h2 ^= Math.imul(rotl(Math.imul(buf[1]!, C2), 16), C3);
    if (tail >= 1) h1 ^= Math.imul(rotl(Math.imul(buf[0]!, C1), 15), C2);
    const len = (this.bytes + 4 * tail) | 0;
    h1 ^= len;
    h2 ^= len;
    h3 ^= len;
    h4 ^= len;
    h1 = (h1 + h2 + h3 + h4) | 0;
    h2 = (h2 + h1) | 0;
    h3 = (h3 + h1) | 0;
    h4 = (h4 + h1) | 0;
    h1 = fmix32(h1);
    h2 = fmix32(h2);
    h3 = fmix32(h3);
    h4 = fmix32(h4);
    h1 = (h1 + h2 + h3 + h4) | 0;
    h2 = (h2 + h1) | 0;
    h3 = (h3 + h1) | 0;
    h4 = (h4 + h1) | 0;
    return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
  }
}

/**
 * MurmurHash3_x86_128 (seed 0) of a string's UTF-16LE bytes: h1 and h2 into out[0], out[1].
 * Code units go two to a word; an odd last unit is the reference's two-byte tail.
 */
export function stringDigest(s: string, out: Int32Array): void {
  const n = s.length;
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  let h4 = 0;
  let i = 0;
  // Whole 16-byte blocks: eight code units.
  for (; i + 8 <= n; i += 8) {
    h1 ^= Math.imul(rotl(Math.imul(s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16), C1), 15), C2);
    h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
    h2 ^= Math.imul(rotl(Math.imul(s.charCodeAt(i + 2) | (s.charCodeAt(i + 3) << 16), C2), 16), C3);
    h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
    h3 ^= Math.imul(rotl(Math.imul(s.charCodeAt(i + 4) | (s.charCodeAt(i + 5) << 16), C3), 17), C4);
    h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
    h4 ^= Math.imul(rotl(Math.imul(s.charCodeAt(i + 6) | (s.charCodeAt(i + 7) << 16), C4), 18), C1);
    h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
  }
  // The tail: up to seven units; each lane with any bytes is mixed (missing units are 0).
  const rest = n - i;
  if (rest > 6) h4 ^= Math.imul(rotl(Math.imul(s.charCodeAt(i + 6), C4), 18), C1);
  if (rest > 4) h3 ^= Math.imul(rotl(Math.imul(s.charCodeAt(i + 4) | (rest > 5 ? s.charCodeAt(i + 5) << 16 : 0), C3), 17), C4);
  if (rest > 2) h2 ^= Math.imul(rotl(Math.imul(s.charCodeAt(i + 2) | (rest > 3 ? s.charCodeAt(i + 3) << 16 : 0), C2), 16), C3);
  if (rest > 0) h1 ^= Math.imul(rotl(Math.imul(s.charCodeAt(i) | (rest > 1 ? s.charCodeAt(i + 1) << 16 : 0), C1), 15), C2);
  const len = (n * 2) | 0;
  h1 ^= len;
  h2 ^= len;
  h3 ^= len;
  h4 ^= len;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix32(h1);
  h2 = fmix32(h2);
  h3 = fmix32(h3);
  h4 = fmix32(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  out[0] = h1;
  out[1] = (h2 + h1) | 0;
}

/**
 * How many strings' digests are remembered before the memo starts again (memory stays bounded).
 * Only keys and strings outside an object's fields (array elements, a bare string) go through it:
 * a field's string value is hashed anew when the key node's last value misses, which measured
 * cheaper in a cluster, where the memo thrashed from 30 nodes and its hits cost about as much as
 * hashing (docs/BENCHMARKS-history.md, "The trace digest at scale (digest2)").
 */
const STRING_MEMO_LIMIT = 1 << 14;

/** Key-list prefixes remembered (nodes of the key trie) before it starts again (memory stays bounded). */
const KEY_NODES_LIMIT = 1 << 12;

/** Children of a key node searched one by one before they get a Map. */
const KEY_SCAN = 8;

/**
 * A key list's prefix: the keys an object has listed so far, in order, with the last key's digest.
 * Objects of one shape walk one path of these from the root, so a key's digest is looked up once
 * per shape and each key of a record is checked with one === against the child taken last.
 */
class KeyNode {
  /** The child taken last: records of one kind in a row take it every time. */
  last: KeyNode | undefined = undefined;
  /** Every child, searched in turn (few: the record kinds that share this prefix). */
  kids: KeyNode[] = [];
  /** Every child by key, once there are more than KEY_SCAN. */
  byKey: Map<string, KeyNode> | undefined = undefined;
  /** The string value last met under this key list, and its digest. */
  value: string | undefined = undefined;
  v0 = 0;
  v1 = 0;
  constructor(
    readonly key: string,
    readonly w0: number,
    readonly w1: number,
  ) {}
}

/** The trace digest: records in, 16 hex digits out. */
export class TraceDigest {
  private readonly hash = new Murmur3x86_128();
  private readonly f64 = new DataView(new ArrayBuffer(8));
  /**
   * Keys (and strings outside fields) recur: each one's digest is computed once and kept here as
   * an index into `memoWords`. A pure function's memo: the digest does not depend on it.
   */
  private memo = new Map<string, number>();
  private memoWords: Int32Array;
  private readonly scratch = new Int32Array(2);
  /**
   * The key trie's root (the empty key list) and its size. Like the memo, a cache of exact words:
   * a node is only ever taken for the very key it holds, so the digest does not depend on it.
   */
  private root = new KeyNode("", 0, 0);
  private keyNodes = 0;

  /** memoLimit: the string memo's bound (tests set a small one to cross it). */
  constructor(private readonly memoLimit = STRING_MEMO_LIMIT) {
    this.memoWords = new Int32Array(2 * memoLimit);
  }

  /** Feeds one record (any JSON-serializable value) in its canonical encoding. */
  add(value: unknown): void {
    if (!this.value(value, 0)) this.hash.word(TAG.null);
  }

  /** The digest of everything added so far: h1 and h2 of MurmurHash3_x86_128, 16 hex digits. */
  hex(): string {
    const [h1, h2] = this.hash.digestWords();
    return hex8(h1) + hex8(h2);
  }

  /** One value as JSON.stringify sees it; false when JSON leaves it out (undefined, a function, a symbol). */
  private value(v: unknown, depth: number): boolean {
    switch (typeof v) {
      case "string":
        this.string(TAG.string, v);
        return true;
      case "number":
        this.number(v);
        return true;
      case "boolean":
        this.hash.word(v ? TAG.true : TAG.false);
        return true;
      case "object":
        if (v === null) this.hash.word(TAG.null);
        else if (Array.isArray(v)) this.array(v, depth);
        else this.object(v, depth);
        return true;
      case "bigint":
        throw new TypeError("the trace digest cannot encode a BigInt (nor can JSON)");
      default:
        return false;
    }
  }

  private number(n: number): void {
    if ((n | 0) === n) {
      // -0 joins 0 here, as JSON writes both as 0.
      this.hash.word(TAG.int);
      this.hash.word(n | 0);
    } else if (Number.isFinite(n)) {
      this.f64.setFloat64(0, n, true);
      this.hash.word(TAG.float);
      this.hash.word(this.f64.getUint32(0, true));
      this.hash.word(this.f64.getUint32(4, true));
    } else this.hash.word(TAG.null);
  }

  /** A tag (TAG.string for values, TAG.key for keys), then the string's own 64-bit digest. */
  private string(tag: number, s: string): void {
    const at = this.memoAt(s);
    this.hash.word3(tag, this.memoWords[at]!, this.memoWords[at + 1]!);
  }

  /** Where the string's digest is in memoWords (computed now if it is not there). */
  private memoAt(s: string): number {
    let at = this.memo.get(s);
    if (at === undefined) {
      if (this.memo.size === this.memoLimit) this.memo = new Map();
      at = 2 * this.memo.size;
      stringDigest(s, this.scratch);
      this.memoWords[at] = this.scratch[0]!;
      this.memoWords[at + 1] = this.scratch[1]!;
      this.memo.set(s, at);
    }
    return at;
  }

  /** The node of key k after `node`: the child taken last, another child, or a new one. */
  private child(node: KeyNode, k: string): KeyNode {
    let next: KeyNode | undefined;
    if (node.byKey !== undefined) next = node.byKey.get(k);
    else for (let i = 0; i < node.kids.length && next === undefined; i++) if (node.kids[i]!.key === k) next = node.kids[i];
    if (next === undefined) next = this.newChild(node, k);
    node.last = next;
    return next;
  }

  private newChild(node: KeyNode, k: string): KeyNode {
    if (++this.keyNodes > KEY_NODES_LIMIT) {
      // Start again; `node` (perhaps the old trie's) still serves the object being walked.
      this.root = new KeyNode("", 0, 0);
      this.keyNodes = 1;
    }
    const at = this.memoAt(k);
    const next = new KeyNode(k, this.memoWords[at]!, this.memoWords[at + 1]!);
    if (node.byKey !== undefined) node.byKey.set(k, next);
    else if (node.kids.length < KEY_SCAN) node.kids.push(next);
    else {
      node.byKey = new Map(node.kids.map((c) => [c.key, c]));
      node.byKey.set(k, next);
    }
    return next;
  }

  private array(a: readonly unknown[], depth: number): void {
    if (depth >= MAX_DEPTH) throw new TypeError(`the trace digest met a value nested ${MAX_DEPTH} deep (a cycle?)`);
    this.hash.word(TAG.array);
    this.hash.word(a.length);
    for (let i = 0; i < a.length; i++) {
      const v = a[i];
      if (!this.value(v, depth + 1)) this.hash.word(TAG.null);
    }
  }

  private object(o: object, depth: number): void {
    if (depth >= MAX_DEPTH) throw new TypeError(`the trace digest met a value nested ${MAX_DEPTH} deep (a cycle?)`);
    this.hash.word(TAG.object);
    const rec = o as Record<string, unknown>;
    const proto = Object.getPrototypeOf(rec) as unknown;
    if ((proto === Object.prototype || proto === null) && !enumerableOnObjectPrototype()) this.plainObject(rec, depth);
    else this.fields(rec, Object.keys(rec), depth);
    this.hash.word(TAG.end);
  }

  /** Own enumerable string keys in JSON.stringify's order (Object.keys is that order). */
  private fields(rec: Record<string, unknown>, keys: readonly string[], depth: number): void {
    let node = this.root;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      let next = node.last;
      if (next === undefined || next.key !== k) next = this.child(node, k);
      node = next;
      this.field(node, rec[k], depth);
    }
  }

  /**
   * An object whose prototype chain has no enumerable property (Object.prototype or none): its
   * for-in keys are its own enumerable string keys in Object.keys's order, and a for-in loop reads
   * them, and the values by them, without a key array per object and without a keyed load that
   * every record shape makes megamorphic.
   */
  private plainObject(rec: Record<string, unknown>, depth: number): void {
    let node = this.root;
    for (const k in rec) {
      let next = node.last;
      if (next === undefined || next.key !== k) next = this.child(node, k);
      node = next;
      this.field(node, rec[k], depth);
    }
  }

  /** One field: its key's words (the node's) and its value, or nothing when JSON leaves it out. */
  private field(node: KeyNode, v: unknown, depth: number): void {
    if (typeof v === "string") {
      if (v !== node.value) {
        // Not the memo: in a cluster it misses and thrashes (tens of thousands of pod strings a
        // probe period), and on one node a hit is a cold Map lookup that costs about as much.
        const w = this.scratch;
        stringDigest(v, w);
        node.value = v;
        node.v0 = w[0]!;
        node.v1 = w[1]!;
      }
      this.hash.word6(TAG.key, node.w0, node.w1, TAG.string, node.v0, node.v1);
    } else if (typeof v === "number" && (v | 0) === v) this.hash.word5(TAG.key, node.w0, node.w1, TAG.int, v | 0);
    else if (v !== undefined && typeof v !== "function" && typeof v !== "symbol") {
      this.hash.word3(TAG.key, node.w0, node.w1);
      this.value(v, depth + 1);
    }
  }
}

/** Whether Object.prototype has an enumerable property (which a for-in loop would list too); never, unless polluted. */
function enumerableOnObjectPrototype(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

/** The trace digest of whole records, e.g. read back from a JSON-lines file (every line but "end"). */
export function digestRecords(records: Iterable<unknown>): string {
  const d = new TraceDigest();
  for (const r of records) d.add(r);
  return d.hex();
}
