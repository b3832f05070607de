// The kernel's timed-event queue gives entries in the order of a binary heap on (due, seq), for
// any interleaving of pushes and pops (pushes during a drain of an instant included).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { TimerHeap, type TimedEntry } from "../../src/sim/heap.ts";
import { TimerQueue } from "../../src/sim/queue.ts";

interface E extends TimedEntry {
  name: string;
}

/** An operation on both queues: push at a due time (absolute, or after the last pop's), or pop. */
type Op = { push: number } | { after: number } | { pop: true };

/** Runs ops on the queue and on a binary heap alike: every pop, peek and size the same, then the drain. */
function expectHeapOrder(queue: TimerQueue<E>, ops: readonly Op[]): void {
  const heap = new TimerHeap<E>();
  let seq = 0;
  let last = 0;
  for (const o of ops) {
    if ("pop" in o) {
      const e = heap.pop();
      expect(queue.pop()).toBe(e);
      if (e !== undefined) last = e.dueMs;
    } else {
      const dueMs = "push" in o ? o.push : last + o.after;
      const e: E = { dueMs, seq: seq++, cancelled: false, name: `e${seq}` };
      heap.push(e);
      queue.push(e);
    }
    expect(queue.peek()).toBe(heap.peek());
    expect(queue.size).toBe(heap.size);
  }
  for (let a = heap.pop(); a !== undefined; a = heap.pop()) expect(queue.pop()).toBe(a);
  expect(queue.pop()).toBeUndefined();
}

describe("TimerQueue", () => {
  it("pops what a binary heap on (dueMs, seq) pops, under any mix of pushes and pops", () => {
    const op = fc.oneof(fc.record({ push: fc.integer({ min: 0, max: 12 }) }), fc.constant({ pop: true as const }));
    fc.assert(
      fc.property(fc.array(op, { minLength: 50, maxLength: 200 }), (ops) => expectHeapOrder(new TimerQueue<E>(), ops)),
      { numRuns: 500 },
    );
  });

  it("pops what the heap pops with a small wheel: entries past its window, moved in as time comes to them", () => {
    // A wheel of 4 ms and due times up to 40: most entries wait past the window first; pushes are
    // mostly at or after the last pop (as the kernel's clock), some before it (the queue starts again there).
    const op = fc.oneof(
      fc.record({ push: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ after: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ after: fc.integer({ min: 0, max: 9 }) }),
      fc.constant({ pop: true as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 50, maxLength: 300 }), fc.integer({ min: 0, max: 3 }), (ops, bits) => expectHeapOrder(new TimerQueue<E>(bits, bits), ops)),
      { numRuns: 2000 },
    );
  });

  it("pops what the heap pops while its window grows: a wheel of 1 ms that may grow to 64, entries up to 200 ms on", () => {
    // Many entries past a small window make it grow (4x at a time) in the middle of a drain; a
    // fixed wheel (maximum = start) never does.
    const op = fc.oneof(
      fc.record({ after: fc.integer({ min: 0, max: 200 }) }),
      fc.record({ after: fc.integer({ min: 0, max: 3 }) }),
      fc.constant({ pop: true as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 100, maxLength: 400 }), fc.integer({ min: 0, max: 2 }), fc.boolean(), (ops, bits, fixed) =>
        expectHeapOrder(new TimerQueue<E>(bits, fixed ? bits : 6), ops),
      ),
      { numRuns: 300 },
    );
  });

  it("orders a due time between two ms too (the queue is then a heap alone)", () => {
    const q = new TimerQueue<E>(2);
    const e = (dueMs: number, seq: number): E => ({ dueMs, seq, cancelled: false, name: `${dueMs}/${seq}` });
    for (const [d, s] of [[3, 0], [9, 1], [2.5, 2], [3, 3], [1, 4]] as const) q.push(e(d, s));
    expect(q.pop()!.name).toBe("1/4");
    q.push(e(2.75, 5));
    expect(Array.from({ length: 5 }, () => q.pop()!.name)).toEqual(["2.5/2", "2.75/5", "3/0", "3/3", "9/1"]);
  });

  it("an instant emptied and pushed to again keeps its order", () => {
    const q = new TimerQueue<E>();
    const e = (dueMs: number, seq: number): E => ({ dueMs, seq, cancelled: false, name: `${dueMs}/${seq}` });
    q.push(e(5, 0));
    q.push(e(3, 1));
    expect(q.pop()!.name).toBe("3/1");
    q.push(e(3, 2));
    q.push(e(5, 3));
    expect([q.pop()!.name, q.pop()!.name, q.pop()!.name, q.pop()]).toEqual(["3/2", "5/0", "5/3", undefined]);
  });
});
