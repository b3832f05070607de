// The kernel's timed-event queue: entries in the total order (due time, then sequence) of
// heap.ts's TimerHeap. A simulation's timers are due within seconds of now, at whole ms, mostly
// each at an instant of its own (a node's 440 probe workers tick at 440 phases of their period),
// so the queue is a timing wheel: one FIFO slot per ms of a window from the queue's cursor (the
// due time of the last entry popped), a bitmap of the slots in use to find the next one, and a
// heap beside it for the entries due past the window, moved into the wheel as the cursor comes
// within a window of them. The window starts at 1 s and grows 4x at a time, up to 16 s, while
// more than a few dozen entries wait past it (a node's probe workers). A push and a pop are O(1) but for those; the earlier
// design (a bucket per instant under a heap of instants and a map) paid a map lookup and two
// heap sifts per entry when nearly every entry opened an instant of its own.
//
// Order: a slot holds entries of one due time only (every wheel entry is due in [cursor, cursor +
// window), and each ms of that range has its own slot); sequence numbers only grow, and an entry
// moves from the heap into the wheel before any later push for its instant can happen (a push
// due within the window comes after the cursor reached it), so appending keeps a slot in
// sequence order.
import { TimerHeap, type TimedEntry } from "./heap.ts";

/** The wheel's largest span in ms, a power of two: the probe periods (10 s) and every shorter loop fit. */
const WINDOW_BITS = 14;
/**
 * The span it starts with (1 s): a short run (an exploration makes a queue per run) queues a few
 * dozen timers, and a 16 s wheel's slot array (128 KB) made and dropped per run was 3% of an
 * explore run's time. A busy queue grows its window to WINDOW_BITS, 4x at a time.
 */
const INITIAL_WINDOW_BITS = 10;
/** Entries past the window at which the wheel grows: beyond that many, the heap's sifts cost more. */
const GROW_AT = 32;

class Slot<E> {
  /** items[head, tail): the entries still queued; popped slots are cleared, so a reuse overwrites. */
  readonly items: E[] = [];
  head = 0;
  tail = 0;
  dueMs = 0;
}

export class TimerQueue<E extends TimedEntry> {
  private bits: number;
  private mask: number;
  private slots: (Slot<E> | null)[];
  /** One bit per slot in use. */
  private used: Int32Array;
  /** Entries due at cursor + window or later, in (due, seq) order. */
  private readonly later = new TimerHeap<E>();
  /** Every wheel entry is due in [cursor, cursor + window); every entry of `later` at or after its end. */
  private cursor = 0;
  private inWheel = 0;
  /** The slot of the earliest wheel entry, or -1 when not known (found again from the bitmap). */
  private first = -1;
  /** The slot pushed to last, while in use. */
  private last: Slot<E> | null = null;
  /** Set at the first due time that is not a whole ms: then every entry is in `later`. */
  private heapOnly = false;
  /** Emptied slots, for the next instant that needs one (the last freed is the likeliest in cache). */
  private readonly spare: Slot<E>[] = [];

  /** windowBits: the span the wheel starts with; maxWindowBits: the span it may grow to. */
  constructor(windowBits = INITIAL_WINDOW_BITS, private readonly maxWindowBits = Math.max(windowBits, WINDOW_BITS)) {
    this.bits = windowBits;
    const size = 1 << windowBits;
    this.mask = size - 1;
    this.slots = new Array<Slot<E> | null>(size).fill(null);
    this.used = new Int32Array(Math.max(1, size >>> 5));
  }

  get size(): number {
    return this.inWheel + this.later.size;
  }

  push(e: E): void {
    const due = e.dueMs;
    // Consecutive pushes often share an instant (a kernel bench's sleepers, a burst of wake-ups).
    const last = this.last;
    if (last !== null && last.dueMs === due) {
      last.items[last.tail++] = e;
      this.inWheel++;
      return;
    }
    if (!Number.isInteger(due) || this.heapOnly) {
      this.pushHeapOnly(e);
      return;
    }
    if (due < this.cursor) this.rewind(due);
    if (due - this.cursor > this.mask) {
      this.later.push(e);
      if (this.later.size >= GROW_AT && this.bits < this.maxWindowBits) this.grow();
      return;
    }
    this.toWheel(e);
  }

  peek(): E | undefined {
    if (this.inWheel === 0) return this.later.peek();
    const s = this.slots[this.firstSlot()]!;
    return s.items[s.head];
  }

  pop(): E | undefined {
    if (this.inWheel === 0) {
      const e = this.later.pop();
      if (e !== undefined && !this.heapOnly) this.advance(e.dueMs);
      return e;
    }
    return this.popWheel();
  }

  /** The earliest wheel entry, taken out; undefined when the wheel is empty. */
  private popWheel(): E | undefined {
    if (this.inWheel === 0) return undefined;
    const i = this.firstSlot();
    const s = this.slots[i]!;
    const e = s.items[s.head]!;
    s.items[s.head] = undefined as unknown as E;
    s.head++;
    this.inWheel--;
    if (s.head === s.tail) {
      // Emptied: kept for another instant with its array; the slots are cleared, only the indices reset.
      s.head = 0;
      s.tail = 0;
      this.slots[i] = null;
      this.used[i >>> 5]! &= ~(1 << (i & 31));
      this.spare.push(s);
      this.first = -1;
      if (this.last === s) this.last = null;
    }
    this.advance(e.dueMs);
    return e;
  }

  private toWheel(e: E): void {
    const i = e.dueMs & this.mask;
    let s = this.slots[i];
    if (s === null) {
      s = this.spare.pop() ?? new Slot<E>();
      s.dueMs = e.dueMs;
      this.slots[i] = s;
      this.used[i >>> 5]! |= 1 << (i & 31);
      if (this.first !== -1 && e.dueMs < this.slots[this.first]!.dueMs) this.first = i;
    }
    s.items[s.tail++] = e;
    this.inWheel++;
    this.last = s;
  }

  /**
   * The window 4x wider (at most maxWindowBits): every wheel entry is due in [cursor, cursor + old
   * window), so each keeps a slot of its own due time in the new wheel, in its order; then the
   * entries of `later` now within the window join it, in (due, seq) order, each due after every
   * entry already in the wheel.
   */
  private grow(): void {
    const oldSlots = this.slots;
    this.bits = Math.min(this.bits + 2, this.maxWindowBits);
    const size = 1 << this.bits;
    this.mask = size - 1;
    this.slots = new Array<Slot<E> | null>(size).fill(null);
    this.used = new Int32Array(Math.max(1, size >>> 5));
    for (const s of oldSlots) {
      if (s === null) continue;
      const i = s.dueMs & this.mask;
      this.slots[i] = s;
      this.used[i >>> 5]! |= 1 << (i & 31);
    }
    this.first = -1;
    const end = this.cursor + this.mask;
    for (let e = this.later.peek(); e !== undefined && e.dueMs <= end; e = this.later.peek()) {
      this.later.pop();
      this.toWheel(e);
    }
  }

  /** The cursor moves to the entry just popped; entries of `later` now within the window join the wheel. */
  private advance(due: number): void {
    if (due <= this.cursor || this.heapOnly) return;
    this.cursor = due;
    const end = due + this.mask;
    for (let e = this.later.peek(); e !== undefined && e.dueMs <= end; e = this.later.peek()) {
      this.later.pop();
      this.toWheel(e);
    }
  }

  /** The slot of the earliest wheel entry: the first in use from the cursor's slot on, round the wheel. */
  private firstSlot(): number {
    if (this.first !== -1) return this.first;
    const used = this.used;
    const words = used.length;
    const start = this.cursor & this.mask;
    let w = start >>> 5;
    let bits = used[w]! & (-1 << (start & 31));
    for (let n = 0; n <= words; n++) {
      if (bits !== 0) {
        this.first = (w << 5) + (31 - Math.clz32(bits & -bits));
        return this.first;
      }
      w = w + 1 === words ? 0 : w + 1;
      bits = used[w]!;
    }
    throw new Error("timer queue: no slot in use with entries in the wheel");
  }

  /**
   * A due time between two ms (no model of this simulator schedules one) has no slot: from then
   * on the queue is the heap alone, which orders any due time.
   */
  private pushHeapOnly(e: E): void {
    if (!this.heapOnly) {
      this.heapOnly = true;
      this.last = null;
      for (let x = this.popWheel(); x !== undefined; x = this.popWheel()) this.later.push(x);
    }
    this.later.push(e);
  }

  /**
   * A push due before the cursor (never from the kernel, whose clock only moves forward; a caller
   * of the queue alone may): every entry is queued again from that instant, in (due, seq) order.
   */
  private rewind(due: number): void {
    const all: E[] = [];
    for (let e = this.pop(); e !== undefined; e = this.pop()) all.push(e);
    this.cursor = due;
    this.first = -1;
    for (const e of all) {
      if (e.dueMs - this.cursor > this.mask) this.later.push(e);
      else this.toWheel(e);
    }
  }
}
