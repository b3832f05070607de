// The distance the container-start-after-pod-deleted monitor reports to guided exploration's
// directed feedback: ms between the latest container start of a pod and its deletion, 0 once broken.
import { describe, expect, it } from "vitest";
import type { TraceRecord } from "../../src/sim/index.ts";
import { containerStartAfterPodDeleted } from "../../src/check/invariants/start_after_api_delete.ts";

const POD = "default/web";
let seq = 0;
const start = (t: number, tookMs = 0): TraceRecord => ({ t, seq: seq++, component: "runtime", kind: "StartContainer", pod: POD, result: "ok", tookMs, container: "app" }) as TraceRecord;
const deleted = (t: number): TraceRecord => ({ t, seq: seq++, component: "apiserver", kind: "PodView", pod: POD, deleted: true, uid: "u1" }) as TraceRecord;

function distanceOf(records: TraceRecord[]): number | null {
  const m = containerStartAfterPodDeleted.make(undefined as never);
  for (const r of records) m.observe(r);
  return m.distance!();
}

describe("container-start-after-pod-deleted distance", () => {
  it.each([
    ["nothing deleted", [start(100)], null],
    ["deleted, never started", [deleted(500)], null],
    ["started 400ms before the delete", [start(100), deleted(500)], 400],
    ["the latest start counts", [start(100), start(450), deleted(500)], 50],
    ["a call that began just before the delete and returned after", [deleted(500), start(520, 30)], 10],
    ["broken: began after the delete", [deleted(500), start(600)], 0],
    ["the smallest over the run", [start(100), deleted(500), start(510, 20)], 10],
  ] as const)("%s", (_, records, want) => {
    expect(distanceOf([...records])).toBe(want);
  });
});

