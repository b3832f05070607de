import { describe, expect, it } from "vitest";
import {
  DEFAULT_PROGRAM, EXIT_CODE_SIGKILL, naturalEnd, probeAnswerAt, probeScript, program, programForAttempt,
} from "../../src/cri/index.ts";

describe("container programs (pure)", () => {
  const crash = program({ run: { kind: "exit", afterMs: 100, code: 1 } });
  const serve = program({ run: { kind: "forever" } });

  it.each([
    [0, crash],
    [1, serve],
    [2, serve],
    [7, serve],
  ])("programForAttempt([crash, serve], %i) picks the program by attempt; the last repeats", (attempt, want) => {
    expect(programForAttempt([crash, serve], attempt)).toBe(want);
  });

  it("programForAttempt refuses an empty behaviour and a bad attempt", () => {
    expect(() => programForAttempt([], 0)).toThrow(/at least one/);
    expect(() => programForAttempt([crash], -1)).toThrow(/bad attempt/);
  });

  const script = probeScript(
    [
      { fromMs: 0, toMs: 5000, answer: "failure" },
      { fromMs: 5000, toMs: 8000, answer: "timeout" },
    ],
    "success",
  );
  it.each([
    [0, "failure"],
    [4999, "failure"],
    [5000, "timeout"],
    [7999, "timeout"],
    [8000, "success"],
    [99_999, "success"],
  ] as const)("probeAnswerAt(windows, %i ms after start) = %s", (t, want) => {
    expect(probeAnswerAt(script, t)).toBe(want);
  });

  it("windows counted from SIGTERM come first once SIGTERM came", () => {
    const draining = { ...probeScript([{ fromMs: 0, toMs: 1000, answer: "failure" }]), sigtermWindows: [{ fromMs: 0, toMs: null, answer: "failure" as const }] };
    expect(probeAnswerAt(draining, 500, null)).toBe("failure");
    expect(probeAnswerAt(draining, 5000, null)).toBe("success");
    expect(probeAnswerAt(draining, 5000, 0)).toBe("failure");
    expect(probeAnswerAt(draining, 9000, 4000)).toBe("failure");
  });

  it("no script answers success; empty windows are refused", () => {
    expect(probeAnswerAt(undefined, 10)).toBe("success");
    expect(() => probeScript([{ fromMs: 5, toMs: 5, answer: "failure" }])).toThrow(/empty/);
  });

  it.each([
    ["runs forever", DEFAULT_PROGRAM, null],
    ["exits after 100ms with 1", crash, { afterMs: 100, code: 1, reason: "" }],
    ["OOM before its exit wins", program({ run: { kind: "exit", afterMs: 900, code: 0 }, oomAtMs: 300 }), { afterMs: 300, code: EXIT_CODE_SIGKILL, reason: "OOMKilled" }],
    ["OOM at the same instant as the exit wins", program({ run: { kind: "exit", afterMs: 300, code: 0 }, oomAtMs: 300 }), { afterMs: 300, code: 137, reason: "OOMKilled" }],
    ["exit before the OOM", program({ run: { kind: "exit", afterMs: 200, code: 3 }, oomAtMs: 300 }), { afterMs: 200, code: 3, reason: "" }],
  ])("naturalEnd: %s", (_name, p, want) => {
    expect(naturalEnd(p)).toEqual(want);
  });
});
