// pkg/kubelet/util/queue/work_queue.go: GetWork returns (and removes) every UID whose time has come.
// The queue remembers the earliest time any UID is due, so a GetWork before it returns at once
// (asked every second by the sync loop); the answers are those of a full scan.
import { describe, expect, it } from "vitest";
import { WorkQueue } from "../../../src/kubelet/util/queue.ts";

/** Each step: advance the clock to t, then enqueue [uid, delay] pairs, then GetWork. */
type Step = { t: number; enqueue?: [string, number][]; want: string[] };

describe("WorkQueue.GetWork", () => {
  it.each<[string, Step[]]>([
    ["nothing queued", [{ t: 0, want: [] }, { t: 1000, want: [] }]],
    ["due exactly at its time, once", [{ t: 0, enqueue: [["a", 1000]], want: [] }, { t: 999, want: [] }, { t: 1000, want: ["a"] }, { t: 5000, want: [] }]],
    ["several due at once come sorted", [{ t: 0, enqueue: [["b", 10], ["a", 10], ["c", 20]], want: [] }, { t: 30, want: ["a", "b", "c"] }]],
    ["a later time replaces an earlier one", [{ t: 0, enqueue: [["a", 10], ["a", 100]], want: [] }, { t: 50, want: [] }, { t: 100, want: ["a"] }]],
    ["an earlier time replaces a later one", [{ t: 0, enqueue: [["a", 100]], want: [] }, { t: 5, enqueue: [["a", 5]], want: [] }, { t: 10, want: ["a"] }]],
    ["the next earliest is found after a GetWork", [{ t: 0, enqueue: [["a", 10], ["b", 20], ["c", 30]], want: [] }, { t: 10, want: ["a"] }, { t: 19, want: [] }, { t: 25, want: ["b"] }, { t: 30, want: ["c"] }]],
    ["a zero delay is due at once", [{ t: 7, enqueue: [["a", 0]], want: ["a"] }]],
  ])("%s", (_name, steps) => {
    const clock = { nowMs: 0 };
    const q = new WorkQueue(clock);
    for (const s of steps) {
      clock.nowMs = s.t;
      for (const [uid, d] of s.enqueue ?? []) q.Enqueue(uid, d);
      expect(q.GetWork()).toEqual(s.want);
    }
  });
});
