import { describe, expect, it } from "vitest";
import { MemorySink, Sim } from "../../src/sim/index.ts";
import { SimRuntime, resolveRuntimeConfig, DEFAULT_LATENCY, type CriMethod, type RangeMs } from "../../src/cri/index.ts";
import { sandboxConfig } from "./helpers.ts";

/** Runs 20 RunPodSandbox calls with a ranged latency; returns each call's duration and the trace hash. */
function durations(seed: number, latency: Partial<Record<CriMethod, RangeMs>>): { tooks: number[]; hash: string } {
  const sink = new MemorySink();
  const sim = new Sim({ seed, strategy: { name: "fifo" }, sinks: [sink] });
  const rt = new SimRuntime(sim, { latency });
  sim.go("calls", function* () {
    for (let i = 0; i < 20; i++) yield* rt.RunPodSandbox(sandboxConfig(`p${i}`), "");
  });
  const res = sim.run();
  const tooks = sink.records.filter((r) => r.kind === "RunPodSandbox").map((r) => r["tookMs"] as number);
  return { tooks, hash: res.traceHash };
}

describe("latency", () => {
  const ranged = { RunPodSandbox: { minMs: 100, maxMs: 900 } };

  it("ranges are drawn from the seed: same seed, same durations and trace hash", () => {
    const a = durations(7, ranged);
    const b = durations(7, ranged);
    expect(a).toEqual(b);
    for (const t of a.tooks) expect(t >= 100 && t <= 900).toBe(true);
    expect(new Set(a.tooks).size).toBeGreaterThan(5);
  });

  it("another seed draws other durations", () => {
    expect(durations(8, ranged).tooks).not.toEqual(durations(7, ranged).tooks);
  });

  it("fixed latencies draw nothing and need no seed", () => {
    const fixed = { RunPodSandbox: { minMs: 250, maxMs: 250 } };
    expect(durations(1, fixed).tooks).toEqual(Array(20).fill(250));
    expect(durations(2, fixed).tooks).toEqual(durations(3, fixed).tooks);
  });

  it("defaults: every method has one, small and fixed; bad ranges are refused", () => {
    const cfg = resolveRuntimeConfig();
    expect(cfg.latency).toEqual(DEFAULT_LATENCY);
    expect(cfg.latency.RunPodSandbox).toEqual({ minMs: 500, maxMs: 500 });
    expect(cfg.latency.ContainerStatus).toEqual({ minMs: 1, maxMs: 1 });
    expect(() => resolveRuntimeConfig({ latency: { StopContainer: { minMs: 5, maxMs: 1 } } })).toThrow(/bad range/);
  });
});
