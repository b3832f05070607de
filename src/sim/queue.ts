// The kernel's timed-event queue: entries in the total order (due time, then sequence) of
// heap.ts's TimerHeap, kept as one FIFO bucket per distinct due instant under a small min-heap
// of the instants. A simulation's events bunch at instants (ticks, periods, latencies in whole
// ms), so most pushes append to a bucket that exists and most pops take the head of one: O(1)
// instead of a sift through every pending entry. Sequence numbers only grow, so appending keeps
// a bucket in sequence order.
import type { TimedEntry } from "./heap.ts";

class Bucket<E> {
  /** items[head, tail): the entries still queued; popped slots are cleared, so a reuse overwrites. */
  readonly items: E[] = [];
  head = 0;
  tail = 0;
  constructor(public dueMs: number) {}
}

export class TimerQueue<E extends TimedEntry> {
  /** Due instants that have a bucket: a binary min-heap of numbers. */
  private readonly times: number[] = [];
  private readonly buckets = new Map<number, Bucket<E>>();
  /** The bucket pushed to last: consecutive pushes often share an instant. */
  private last: Bucket<E> | null = null;
  /** The bucket of the earliest instant (times[0]), null when empty. */
  private first: Bucket<E> | null = null;
  private count = 0;
  /**
   * The last bucket emptied, kept for the next new instant: a steady run empties one instant and
   * opens another at about every step, and reusing the bucket spares its object and array.
   */
  private spare: Bucket<E> | null = null;

  get size(): number {
    return this.count;
  }

  push(e: E): void {
    const last = this.last;
    let b = last !== null && last.dueMs === e.dueMs ? last : this.buckets.get(e.dueMs);
    if (b === undefined) {
      b = this.newBucket(e.dueMs);
      this.buckets.set(e.dueMs, b);
      pushTime(this.times, e.dueMs);
      if (this.first === null || e.dueMs < this.first.dueMs) this.first = b;
    }
    b.items[b.tail++] = e;
    this.last = b;
    this.count++;
  }

  peek(): E | undefined {
    const b = this.first;
    return b === null ? undefined : b.items[b.head];
  }

  pop(): E | undefined {
    const b = this.first;
    if (b === null) return undefined;
    const e = b.items[b.head]!;
    b.items[b.head] = undefined as unknown as E;
    b.head++;
    this.count--;
    if (b.head === b.tail) {
      this.buckets.delete(b.dueMs);
      popTime(this.times);
      if (this.last === b) this.last = null;
      this.first = this.times.length === 0 ? null : this.buckets.get(this.times[0]!)!;
      // Kept for the next new instant with its array: the slots are cleared, only the indices reset.
      b.head = 0;
      b.tail = 0;
      this.spare = b;
    }
    return e;
  }

  private newBucket(dueMs: number): Bucket<E> {
    const b = this.spare;
    if (b === null) return new Bucket<E>(dueMs);
    this.spare = null;
    b.dueMs = dueMs;
    return b;
  }
}

function pushTime(heap: number[], t: number): void {
  let i = heap.length;
  heap.push(t);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const p = heap[parent]!;
    if (p <= t) break;
    heap[i] = p;
    i = parent;
  }
  heap[i] = t;
}

function popTime(heap: number[]): void {
  const last = heap.pop()!;
  const n = heap.length;
  if (n === 0) return;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    const r = l + 1;
    const c = r < n && heap[r]! < heap[l]! ? r : l;
    if (heap[c]! >= last) break;
    heap[i] = heap[c]!;
    i = c;
  }
  heap[i] = last;
}
