// A growable ring buffer: O(1) push/pop at both ends, O(n) removal in the middle.
// The kernel's ready queue and channel wait queues are deques; most removals are at the front.

export class Deque<T> {
  private buf: (T | undefined)[];
  private head = 0;
  private count = 0;

  constructor(initialCapacity = 16) {
    // Index arithmetic is a mask, so the capacity must be a power of two: round up.
    let cap = 1;
    while (cap < Math.max(1, initialCapacity)) cap *= 2;
    this.buf = new Array<T | undefined>(cap);
  }

  get length(): number {
    return this.count;
  }

  at(i: number): T {
    return this.buf[(this.head + i) & (this.buf.length - 1)] as T;
  }

  pushBack(v: T): void {
    if (this.count === this.buf.length) this.grow();
    this.buf[(this.head + this.count) & (this.buf.length - 1)] = v;
    this.count++;
  }

  pushFront(v: T): void {
    if (this.count === this.buf.length) this.grow();
    this.head = (this.head - 1) & (this.buf.length - 1);
    this.buf[this.head] = v;
    this.count++;
  }

  popFront(): T | undefined {
    if (this.count === 0) return undefined;
    const v = this.buf[this.head];
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) & (this.buf.length - 1);
    this.count--;
    return v;
  }

  /** Removes and returns element i, keeping the order of the others. */
  removeAt(i: number): T {
    if (i === 0) return this.popFront() as T;
    const mask = this.buf.length - 1;
    const v = this.buf[(this.head + i) & mask] as T;
    for (let j = i; j < this.count - 1; j++) {
      this.buf[(this.head + j) & mask] = this.buf[(this.head + j + 1) & mask];
    }
    this.buf[(this.head + this.count - 1) & mask] = undefined;
    this.count--;
    return v;
  }

  /** Keeps only the elements for which keep() is true, in order (one pass, in place). */
  retain(keep: (v: T) => boolean): void {
    const mask = this.buf.length - 1;
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      const v = this.buf[(this.head + i) & mask] as T;
      if (keep(v)) this.buf[(this.head + kept++) & mask] = v;
    }
    for (let i = kept; i < this.count; i++) this.buf[(this.head + i) & mask] = undefined;
    this.count = kept;
  }

  clear(): void {
    this.buf.fill(undefined);
    this.head = 0;
    this.count = 0;
  }

  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.at(i));
    return out;
  }

  private grow(): void {
    // Capacity stays a power of two so that index arithmetic is a mask.
    const next = new Array<T | undefined>(this.buf.length * 2);
    for (let i = 0; i < this.count; i++) next[i] = this.at(i);
    this.buf = next;
    this.head = 0;
  }
}
