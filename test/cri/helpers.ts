// Shared helpers for runtime tests: a Sim with a SimRuntime, configs, and a way to run one process.
import { MemorySink, Sim, type Proc, type TraceRecord } from "../../src/sim/index.ts";
import { SimRuntime, uniformLatency, type ContainerConfig, type PodSandboxConfig, type RuntimeConfigInput } from "../../src/cri/index.ts";
import type { RuntimeOptions } from "../../src/cri/config.ts";

export interface RuntimeHarness {
  sim: Sim;
  rt: SimRuntime;
  sink: MemorySink;
  /** Spawns `body` as a process and runs the simulation to the end; returns the body's value. */
  run<T>(body: () => Proc<T>): T;
  /** Runtime trace records as "t:kind" (optionally only some kinds). */
  lines(kinds?: readonly string[]): string[];
  records(kind: string): TraceRecord[];
}

export function harness(config: RuntimeConfigInput = {}, opts: { seed?: number | string; latencyMs?: number; options?: Partial<RuntimeOptions> } = {}): RuntimeHarness {
  const sink = new MemorySink();
  const sim = new Sim({ seed: opts.seed ?? 1, strategy: { name: "fifo" }, sinks: [sink], bounds: { untilMs: 3_600_000 } });
  const latency = config.latency ?? uniformLatency(opts.latencyMs ?? 10);
  const rt = new SimRuntime(sim, { ...config, latency }, opts.options);
  const runtime = (r: TraceRecord) => r.component === "runtime";
  return {
    sim,
    rt,
    sink,
    run<T>(body: () => Proc<T>): T {
      let out: { v: T } | null = null;
      sim.go("test", function* () {
        out = { v: yield* body() };
      });
      const res = sim.run();
      if (res.verdict !== "completed" && res.verdict !== "quiescent") throw new Error(`run ended ${res.verdict}: ${res.diagnosis}`);
      if (out === null) throw new Error("test process did not finish");
      return (out as { v: T }).v;
    },
    lines: (kinds) =>
      sink.records.filter((r) => runtime(r) && (kinds === undefined || kinds.includes(r.kind))).map((r) => `${r.t}:${r.kind}`),
    records: (kind) => sink.records.filter((r) => runtime(r) && r.kind === kind),
  };
}

export function sandboxConfig(name = "web", attempt = 0, hostNetwork = false, namespace = "default"): PodSandboxConfig {
  return {
    metadata: { name, namespace, uid: `uid-${name}`, attempt },
    labels: { "io.kubernetes.pod.name": name, "io.kubernetes.pod.namespace": namespace, "io.kubernetes.pod.uid": `uid-${name}` },
    annotations: {},
    ...(hostNetwork ? { linux: { securityContext: { namespaceOptions: { network: "NODE" as const } } } } : {}),
  };
}

export function containerConfig(name = "app", attempt = 0, image = "nginx:1.25", pod = "web"): ContainerConfig {
  return {
    metadata: { name, attempt },
    image: { image },
    labels: { "io.kubernetes.container.name": name, "io.kubernetes.pod.uid": `uid-${pod}` },
    annotations: { "io.kubernetes.container.restartCount": String(attempt) },
  };
}
