// The kernel's timed-event queue: a binary min-heap with a total order (due time, then sequence).
// As in SimPy, two entries due at the same instant keep the order in which they were scheduled,
// so the queue never depends on anything but the program.

export interface TimedEntry {
  dueMs: number;
  seq: number;
  /** Set when a timer is stopped or a process is killed; the entry is skipped when popped. */
  cancelled: boolean;
}

function before(a: TimedEntry, b: TimedEntry): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);
}

export class TimerHeap<E extends TimedEntry> {
  private items: E[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): E | undefined {
    return this.items[0];
  }

  push(e: E): void {
    const items = this.items;
    let i = items.length;
    items.push(e);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent]!;
      if (!before(e, p)) break;
      items[i] = p;
      i = parent;
    }
    items[i] = e;
  }

  pop(): E | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    const n = items.length;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && before(items[r]!, items[l]!) ? r : l;
      if (!before(items[c]!, last)) break;
      items[i] = items[c]!;
      i = c;
    }
    items[i] = last;
    return top;
  }
}
