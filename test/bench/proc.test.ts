// The child processes of --against: bash's `times` read for a command's CPU time.
import { describe, expect, it } from "vitest";
import { childrenCpuMs, runTimed, runTimedSync } from "../../src/bench/against/proc.ts";

describe("childrenCpuMs", () => {
  it.each([
    ["0m0.000s 0m0.002s\n0m2.099s 0m0.038s\n", 2137],
    ["0m0.010s 0m0.000s\n1m1.5s 0m0.25s", 61_750],
  ])("%j → %d ms", (times, ms) => expect(childrenCpuMs(times)).toBe(ms));

  it.each(["", "0m0.000s 0m0.002s", "0m0.000s 0m0.002s\n2.1 0.03", "a\nb\nc"])("refuses %j", (times) => {
    expect(() => childrenCpuMs(times)).toThrow("unexpected output of bash's times");
  });
});

// A loop of a fixed count of steps: CPU time above zero on any host, whatever its speed.
const BUSY = ["-e", "let x = 0; for (let i = 0; i < 5e7; i++) x += i; console.log(x > 0); console.error('done'); process.exit(3)"];

describe("runTimed", () => {
  it("passes the command's exit code and output through, with its CPU time", async () => {
    const r = await runTimed(process.execPath, BUSY, { cwd: import.meta.dirname });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("true\n");
    expect(r.stderr).toBe("done\n");
    expect(r.cpuMs).toBeGreaterThan(0);
  });
});

describe("runTimedSync", () => {
  it("does the same synchronously, for the plain bench lines", () => {
    const r = runTimedSync(process.execPath, BUSY, { cwd: import.meta.dirname });
    expect(r).toMatchObject({ code: 3, signal: null, stdout: "true\n", stderr: "done\n" });
    expect(r.cpuMs).toBeGreaterThan(0);
    expect(r.wallMs).toBeGreaterThan(0);
  });
});
