// Where two traces first differ: the first step at which what the kubelet did differs (instant,
// component, kind, pod and the fields both sides record), seq and each side's own kubelet version
// aside; a field only one side records is bookkeeping, named in one line, never the headline.
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

  it("heads with the first step that differs, once, and names an earlier bookkeeping field in one line", () => {
    const a = run("1.21", rec(2, 20, "UpdatePod", { updateType: "create" }), rec(3, 30, "SyncBegin"));
    const b = run("1.22", rec(2, 20, "UpdatePod", { updateType: "create", workType: "sync" }), rec(3, 35, "TerminationRequested"));
    const d = firstDifference(a, b, labels)!;
    expect(d.atMs).toBe(30);
    expect(d.common).toBe(2);
    expect(d.text).toMatch(/^first difference at 0\.030s, after 2 identical steps:\n {2}A {2}0\.030s {2}podworker {2}default\/web {2}begins a sync\n {2}B {2}0\.035s/);
    expect(d.text).toContain('(earlier, records differ only in bookkeeping fields: at 0.020s podworker UpdatePod: workType (A: absent, B: "sync"))');
    expect(d.text.match(/first difference/g)).toHaveLength(1);
  });

  it("a field both sides record is part of the step: a kill is not a sync", () => {
    const a = run("1.21", rec(2, 20, "UpdatePod", { updateType: "kill" }));
    const b = run("1.21", rec(2, 20, "UpdatePod", { updateType: "sync" }));
    const d = firstDifference(a, b, labels)!;
    expect([d.atMs, d.left, d.right]).toEqual([20, "UpdatePod kill", "UpdatePod sync"]);
  });

  it("when only bookkeeping fields differ, the runs take the same steps and the text says which field", () => {
    const a = run("1.21", rec(2, 20, "UpdatePod", { updateType: "create" }));
    const b = run("1.22", rec(2, 20, "UpdatePod", { updateType: "create", workType: "sync" }));
    const d = firstDifference(a, b, labels)!;
    expect(d.text).toContain("the two runs take the same steps");
    expect(d.text).toContain("workType");
  });

  it("says when one trace ended before the other", () => {
    const a = run("1.21", rec(2, 20, "SyncBegin"));
    const b = run("1.21", rec(2, 20, "SyncBegin"), rec(3, 40, "SyncEnd"));
    const d = firstDifference(a, b, labels)!;
    expect(d.left).toBeNull();
    expect(d.text).toContain("(the trace had ended)");
  });
});
