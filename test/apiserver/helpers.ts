// Shared helpers for the apiserver tests: a Sim with an ApiServer, a user process, the trace.
import { MemorySink, Sim, type Proc, type RunResult, type TraceRecord } from "../../src/sim/index.ts";
import { ApiServer, type ApiServerOptions } from "../../src/apiserver/index.ts";
import type { Pod } from "../../src/k8s/pod.ts";

export interface ApiHarness {
  sim: Sim;
  api: ApiServer;
  sink: MemorySink;
  /** Runs `body` as the process "user" and the simulation to its end. */
  run(body: () => Proc<void>): RunResult;
  records(component?: string, kind?: string): TraceRecord[];
}

export function apiHarness(opts: ApiServerOptions = {}, seed: number | string = 1, untilMs = 600_000): ApiHarness {
  const sink = new MemorySink();
  const sim = new Sim({ seed, strategy: { name: "fifo" }, sinks: [sink], bounds: { untilMs } });
  const api = new ApiServer(sim, opts);
  return {
    sim,
    api,
    sink,
    run(body) {
      sim.go("user", body);
      const r = sim.run();
      if (r.verdict === "panic" || r.verdict === "deadlock") throw new Error(r.diagnosis ?? r.verdict);
      return r;
    },
    records: (component, kind) =>
      sink.records.filter((r) => (component === undefined || r.component === component) && (kind === undefined || r.kind === kind)),
  };
}

/** A minimal pod bound to node-1. */
export function podManifest(name: string, extra: { nodeName?: string | null; grace?: number; restartPolicy?: "Always" | "Never" | "OnFailure" } = {}): Pod {
  return {
    metadata: { name, namespace: "default" },
    spec: {
      ...(extra.nodeName === null ? {} : { nodeName: extra.nodeName ?? "node-1" }),
      ...(extra.grace === undefined ? {} : { terminationGracePeriodSeconds: extra.grace }),
      ...(extra.restartPolicy === undefined ? {} : { restartPolicy: extra.restartPolicy }),
      containers: [{ name: "app", image: "nginx:1" }],
    },
  };
}

/** Unwraps a Go-style result in a test, failing loudly on an error. */
export function must<T>(r: { value: T | null; err: Error | null }): T {
  if (r.err !== null) throw r.err;
  return r.value as T;
}
