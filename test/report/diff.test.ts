// Where two traces first differ: seq and each side's own kubelet version aside.
import { describe, expect, it } from "vitest";
import { firstDifference, type TraceRecord } from "../../src/report/index.ts";

const rec = (seq: number, t: number, kind: string, fields: Record<string, unknown> = {}): TraceRecord => ({ t, seq, component: "podworker", kind, pod: "default/web", ...fields });
const run = (version: string, ...steps: TraceRecord[]): TraceRecord[] => [
  { t: 0, seq: 0, component: "sim", kind: "run", scenario: "x", seed: 1, strategy: "fifo", version: "0.1.0" },
  { t: 10, seq: 1, component: "kubelet", kind: "KubeletStart", version },
  ...steps,
];
const labels = ["A", "B"] as const;

describe("firstDifference", () => {
  it("finds none in the same story, whatever the seqs and the versions asked for", () => {
    const a = run("1.21", rec(2, 20, "UpdatePod", { updateType: "create" }));
    const b = run("1.22", rec(7, 20, "UpdatePod", { updateType: "create" }));
    expect(firstDifference(a, b, labels)).toBeNull();
  });

  it("names the first record that differs, and the fields when only they do", () => {
    const a = run("1.21", rec(2, 20, "UpdatePod", { updateType: "create" }), rec(3, 30, "SyncBegin"));
    const b = run("1.22", rec(2, 20, "UpdatePod", { updateType: "create", workType: "sync" }), rec(3, 35, "TerminationRequested"));
    const d = firstDifference(a, b, labels)!;
    expect(d.atMs).toBe(20);
    expect(d.common).toBe(1);
    expect(d.text).toContain('fields that differ: workType (A: absent, B: "sync")');
    expect(d.text).toMatch(/first different step at 0\.030s, after 2 identical records:\n {2}A {2}0\.030s {2}podworker {2}default\/web {2}begins a sync\n {2}B {2}0\.035s/);
  });

  it("says when one trace ended before the other", () => {
    const a = run("1.21", rec(2, 20, "SyncBegin"));
    const b = run("1.21", rec(2, 20, "SyncBegin"), rec(3, 40, "SyncEnd"));
    const d = firstDifference(a, b, labels)!;
    expect(d.left).toBeNull();
    expect(d.text).toContain("(the trace had ended)");
  });
});
