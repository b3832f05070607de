// The kernel's timed-event queue gives entries in the order of a binary heap on (due, seq), for
// any interleaving of pushes and pops (pushes during a drain of an instant included).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { TimerHeap, type TimedEntry } from "../../src/sim/heap.ts";
import { TimerQueue } from "../../src/sim/queue.ts";

interface E extends TimedEntry {
  name: string;
}

describe("TimerQueue", () => {
  it("pops what a binary heap on (dueMs, seq) pops, under any mix of pushes and pops", () => {
    const op = fc.oneof(fc.record({ push: fc.integer({ min: 0, max: 12 }) }), fc.constant({ pop: true as const }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const heap = new TimerHeap<E>();
        const queue = new TimerQueue<E>();
        let seq = 0;
        for (const o of ops) {
          if ("push" in o) {
            const e: E = { dueMs: o.push, seq: seq++, cancelled: false, name: `e${seq}` };
            heap.push(e);
            queue.push(e);
          } else {
            expect(queue.pop()).toBe(heap.pop());
          }
          expect(queue.peek()).toBe(heap.peek());
          expect(queue.size).toBe(heap.size);
        }
        for (let a = heap.pop(); a !== undefined; a = heap.pop()) expect(queue.pop()).toBe(a);
        expect(queue.pop()).toBeUndefined();
      }),
      { numRuns: 500 },
    );
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
