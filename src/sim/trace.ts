// The trace: structured records of every observable step, streamed to sinks and digested into a
// stable hash, so that "same seed, same trace" is one comparison.
//
// JSON-lines contract: one object per line; every record has t (virtual ms), seq (strictly
// increasing), component and kind, in that order; records about a pod carry pod ("ns/name").
// The first record is kind "run", the last kind "end" with the verdict and the traceHash of all
// records before it: the trace digest (digest.ts) of those records.
//
// Lazy records: a sink may name the kinds it reads (`kinds`). When the trace is not hashed and
// every sink names its kinds, a record of any other kind is not built at all: `emit` drops it and
// `wants(kind)` tells a component beforehand, so it can skip building the fields too. Exploration
// runs this way; `run`, `replay` and anything hashed get every record.
import { TraceDigest } from "./digest.ts";

export interface TraceRecord {
  t: number;
  seq: number;
  component: string;
  kind: string;
  pod?: string;
  [field: string]: unknown;
}

export interface TraceSink {
  /** Set when the sink needs the canonical JSON line (file or stdout streaming). */
  readonly wantsLines: boolean;
  /** The record kinds this sink reads (it ignores every other); absent: all of them. */
  readonly kinds?: ReadonlySet<string>;
  write(rec: TraceRecord, line: string | null): void;
  /**
   * A record this sink does not read was dropped at t, no earlier than any record before it: time
   * is t (sinks that act on time passing, like the checker's deadlines, act here as they would on
   * that record; at an instant they have already acted on, they usually have nothing to do). Only
   * called when records are dropped.
   */
  advance?(t: number): void;
  /** Called once after the "end" record. */
  close?(): void;
}

export class Trace {
  private seq = 0;
  private readonly hash: TraceDigest | null;
  private readonly wantsLines: boolean;
  /** The kinds some sink reads; null: every kind is built (hashing, or a sink that reads all). */
  private readonly wanted: ReadonlySet<string> | null;
  private readonly advancers: readonly TraceSink[];
  /** The latest instant of any record emitted or dropped. */
  private lastMs = -1;

  constructor(
    private readonly sinks: readonly TraceSink[],
    opts: { hash: boolean },
  ) {
    this.hash = opts.hash ? new TraceDigest() : null;
    this.wantsLines = sinks.some((s) => s.wantsLines);
    const everything = opts.hash || sinks.some((s) => s.kinds === undefined);
    // One sink (an exploration's checker): its own set, which every run shares, not a copy a run.
    this.wanted = everything ? null : sinks.length === 1 ? sinks[0]!.kinds! : new Set(sinks.flatMap((s) => [...s.kinds!]));
    this.advancers = sinks.filter((s) => s.advance !== undefined);
  }

  /**
   * Whether a record of this kind at t would be built. False lets a component skip building its
   * fields, and counts as that record dropped (time moved to t for the sinks that watch time), so
   * ask only right before emitting.
   */
  wants(kind: string, t: number): boolean {
    if (this.wanted === null || this.wanted.has(kind)) return true;
    this.drop(t);
    return false;
  }

  /** A record was dropped at t: the sinks that act on time passing see the time, as its delivery would show it. */
  private drop(t: number): void {
    if (t > this.lastMs) this.lastMs = t;
    for (let i = 0; i < this.advancers.length; i++) this.advancers[i]!.advance!(t);
  }

  /** Records built so far (all of them unless records are lazy). */
  get recordCount(): number {
    return this.seq;
  }

  /** Records emitted while another is being delivered (a checker reacting to one), in seq order: record, line, record, line... */
  private readonly pending: (TraceRecord | string | null)[] = [];
  private delivering = false;

  /**
   * Appends a record; fields keep the order the caller wrote them in (that order is canonical).
   * A record emitted from inside a sink's write is delivered after the current one, so every sink
   * sees every record in seq order.
   */
  emit(t: number, component: string, kind: string, fields?: Readonly<Record<string, unknown>>, node?: string): TraceRecord | null {
    if (this.wanted !== null && !this.wanted.has(kind)) {
      this.drop(t);
      return null;
    }
    if (t > this.lastMs) this.lastMs = t;
    // Object.assign copies the fields in their order, as a spread would, and is the cheaper of the two in V8.
    // `node` (a cluster node's record, src/node/node_sim.ts) comes right after `kind`, before the fields
    // (a field named `node` keeps that place and gives its value), as `{ node, ...fields }` would.
    const rec: TraceRecord = node === undefined ? Object.assign({ t, seq: this.seq++, component, kind }, fields) : Object.assign({ t, seq: this.seq++, component, kind, node }, fields);
    if (this.sinks.length === 0 && this.hash === null) return rec;
    const line = this.wantsLines ? JSON.stringify(rec) : null;
    if (this.hash !== null) this.hash.add(rec);
    if (this.delivering) {
      this.pending.push(rec, line);
      return rec;
    }
    this.delivering = true;
    try {
      this.deliver(rec, line);
      for (let i = 0; i < this.pending.length; i += 2) this.deliver(this.pending[i] as TraceRecord, this.pending[i + 1] as string | null);
    } finally {
      this.pending.length = 0;
      this.delivering = false;
    }
    return rec;
  }

  private deliver(rec: TraceRecord, line: string | null): void {
    for (let i = 0; i < this.sinks.length; i++) this.sinks[i]!.write(rec, line);
  }

  /** The digest of every record so far (16 hex digits, see digest.ts), or "" when hashing is off. */
  digest(): string {
    return this.hash === null ? "" : this.hash.hex();
  }

  close(): void {
    for (const s of this.sinks) s.close?.();
  }
}

/** Keeps every record in memory (tests, renderers of short runs). */
export class MemorySink implements TraceSink {
  readonly wantsLines = false;
  readonly records: TraceRecord[] = [];
  write(rec: TraceRecord): void {
    this.records.push(rec);
  }
}

/**
 * Streams JSON lines through a write function, buffered in chunks, so a long run never needs its
 * whole trace in memory. The caller owns the file (and writes it atomically).
 */
export class LineSink implements TraceSink {
  readonly wantsLines = true;
  private chunk: string[] = [];
  private chunkChars = 0;

  constructor(
    private readonly writeChunk: (text: string) => void,
    private readonly chunkLimitChars = 1 << 16,
  ) {}

  write(_rec: TraceRecord, line: string | null): void {
    this.chunk.push(line!);
    this.chunkChars += line!.length + 1;
    if (this.chunkChars >= this.chunkLimitChars) this.flush();
  }

  flush(): void {
    if (this.chunk.length === 0) return;
    this.writeChunk(this.chunk.join("\n") + "\n");
    this.chunk = [];
    this.chunkChars = 0;
  }

  close(): void {
    this.flush();
  }
}
