// The node benchmark: a full node through simulate(): 110 pods (the kubelet's default maxPods),
// each with two containers with liveness and readiness probes every 10 s, for one hour of virtual
// time. Speed is measured with the trace streamed to a counting sink (nothing kept in memory);
// memory is sampled along that run, and along a second run that streams the trace to a JSON-lines
// file, where each 5-minute sample first collects garbage so that it shows the live heap.
import { closeSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { simulate, type SimulationResult } from "../simulate.ts";
import { loadScenarioText } from "../scenario/index.ts";
import { LineSink, type TraceRecord, type TraceSink } from "../sim/index.ts";
import type { BenchLine } from "./kernel.ts";
import { NODE_PODS, nodeScenarioYaml } from "./workloads.ts";

export { NODE_PODS, nodeScenarioYaml };

const SIM_MS = 3_600_000;
/** By 2 minutes every pod runs and is Ready; the rest of the hour is the steady state. */
const STARTUP_MS = 120_000;
/** Memory is sampled every 5 virtual minutes and every 64 Ki records. */
const SAMPLE_EVERY_MS = 300_000;
const SAMPLE_EVERY_RECORDS = 1 << 16;
/** A one-hour run takes many seconds; two repetitions keep the bench line under two minutes. */
const REPEATS = 2;
const MB = 1024 * 1024;


interface MemorySample {
  atMs: number;
  rssBytes: number;
  heapUsedBytes: number;
}

/**
 * A full garbage collection, for live-heap samples: the bench runs without --expose-gc (npm run
 * bench), so the flag is set now and the gc function taken from a fresh context. Null if refused.
 */
export function exposeGc(): (() => void) | null {
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    return typeof gc === "function" ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

/** Counts records and samples memory and wall time as virtual time passes; keeps no record. */
export class MeteredSink implements TraceSink {
  readonly wantsLines = false;
  records = 0;
  readonly samples: MemorySample[] = [];
  startupWallMs = 0;
  private nextSampleMs = SAMPLE_EVERY_MS;
  private readonly startWallMs = performance.now();

  /** With gc, every 5-minute sample is of the live heap (and costs a full collection). */
  constructor(private readonly gc: (() => void) | null = null) {}

  write(rec: TraceRecord): void {
    this.records++;
    if (this.startupWallMs === 0 && rec.t >= STARTUP_MS) this.startupWallMs = performance.now() - this.startWallMs;
    if (rec.t >= this.nextSampleMs) {
      this.sample(this.nextSampleMs, true);
      this.nextSampleMs += SAMPLE_EVERY_MS;
    } else if ((this.records & (SAMPLE_EVERY_RECORDS - 1)) === 0) this.sample(rec.t, false);
  }

  sample(atMs: number, collect: boolean): void {
    if (collect) this.gc?.();
    const m = process.memoryUsage();
    this.samples.push({ atMs, rssBytes: m.rss, heapUsedBytes: m.heapUsed });
  }

  peakRssMB(): number {
    return mb(Math.max(...this.samples.map((s) => s.rssBytes)));
  }

  /** heapUsed of the sample taken at atMs: 0, a 5-minute mark (60 min is the "end" record), or just after the run. */
  heapAtMB(atMs: number): number {
    const s = this.samples.find((x) => x.atMs === atMs);
    if (s === undefined) throw new Error(`node bench: no memory sample at ${atMs} ms`);
    return mb(s.heapUsedBytes);
  }
}

interface Measured {
  result: SimulationResult;
  sink: MeteredSink;
  wallMs: number;
  /** User + system CPU of the process during the run: less sensitive than wall time to a busy machine. */
  cpuMs: number;
}

function runOnce(text: string, extra: readonly TraceSink[] = [], gc: (() => void) | null = null): Measured {
  const { scenario } = loadScenarioText(text, "node-110-pods.yaml");
  const sink = new MeteredSink(gc);
  sink.sample(0, true);
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const result = simulate(scenario, { sinks: [sink, ...extra] });
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  sink.sample(SIM_MS + 1, false);
  if (result.run.verdict !== "until" || result.run.endMs !== SIM_MS) {
    throw new Error(`node bench: the run ended with ${result.run.verdict} at ${result.run.endMs} ms: ${result.run.diagnosis ?? ""}`);
  }
  return { result, sink, wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** The same run with the trace streamed to a JSON-lines file in the OS temp dir, removed afterwards. */
function runToFile(text: string): Measured & { fileBytes: number } {
  const path = join(tmpdir(), `kubelet-sim-bench-node-${process.pid}.jsonl`);
  const fd = openSync(path, "w");
  try {
    const lines = new LineSink((chunk) => void writeSync(fd, chunk));
    const m = runOnce(text, [lines], exposeGc());
    closeSync(fd);
    return { ...m, fileBytes: statSync(path).size };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(path, { force: true });
  }
}

export function benchNode(): BenchLine {
  const text = nodeScenarioYaml();
  let fastest: Measured | null = null;
  for (let i = 0; i < REPEATS; i++) {
    const m = runOnce(text);
    if (fastest === null || m.wallMs < fastest.wallMs) fastest = m;
  }
  const f = fastest!;
  const file = runToFile(text);
  if (file.result.run.traceHash !== f.result.run.traceHash) throw new Error("node bench: the file run's trace differs from the counted run's");
  const wallSeconds = f.wallMs / 1000;
  const steadyWallSeconds = (f.wallMs - f.sink.startupWallMs) / 1000;
  return {
    name: "node-110-pods-1h",
    speedup: Math.round(SIM_MS / f.wallMs),
    eventsPerSec: Math.round(f.result.run.events / wallSeconds),
    recordsPerSec: Math.round(f.sink.records / wallSeconds),
    wallSeconds: round2(wallSeconds),
    cpuSeconds: round2(f.cpuMs / 1000),
    startupWallSeconds: round2(f.sink.startupWallMs / 1000),
    steadySpeedup: Math.round((SIM_MS - STARTUP_MS) / 1000 / steadyWallSeconds),
    events: f.result.run.events,
    records: f.sink.records,
    pods: NODE_PODS,
    // The counted run: heap before the run (after a collection), right after it, and the peak RSS.
    heapUsedBeforeMB: f.sink.heapAtMB(0),
    heapUsedAfterMB: f.sink.heapAtMB(SIM_MS + 1),
    rssPeakMB: f.sink.peakRssMB(),
    // The file run: the live heap at 5, 30 and 60 virtual minutes, the peak RSS, the file's size.
    fileLiveHeapMB5m: file.sink.heapAtMB(5 * 60_000),
    fileLiveHeapMB30m: file.sink.heapAtMB(30 * 60_000),
    fileLiveHeapMB60m: file.sink.heapAtMB(SIM_MS),
    fileRssPeakMB: file.sink.peakRssMB(),
    traceFileMB: mb(file.fileBytes),
  };
}

export function mb(bytes: number): number {
  return Math.round(bytes / MB);
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
