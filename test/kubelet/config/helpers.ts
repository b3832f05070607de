// Shared helpers for the config tests: a Sim with an apiserver, the pod config, and a fake syncLoop
// that records every PodUpdate it reads as "t OP source name/uid,...".
import { MemorySink, Sim, recv, type Proc, type RunResult, type TraceRecord } from "../../../src/sim/index.ts";
import { ApiServer, type ApiServerOptions } from "../../../src/apiserver/index.ts";
import { makePodSourceConfig, ManifestDir, type PodSourceConfig, type PodSourceConfigOptions, type PodUpdate } from "../../../src/kubelet/config/index.ts";

export interface ConfigHarness {
  sim: Sim;
  api: ApiServer;
  dir: ManifestDir;
  cfg: PodSourceConfig;
  /** What the fake syncLoop read, one line per PodUpdate. */
  seen: string[];
  updates: PodUpdate[];
  run(body: () => Proc<void>): RunResult;
  records(component?: string, kind?: string): TraceRecord[];
}

export interface ConfigHarnessOptions {
  api?: ApiServerOptions;
  sources?: "api" | "file" | "both";
  config?: Partial<PodSourceConfigOptions>;
  seed?: number | string;
  untilMs?: number;
  /** Start the fake syncLoop (default true): false leaves the updates channel unread. */
  syncLoop?: boolean;
}

export function configHarness(o: ConfigHarnessOptions = {}): ConfigHarness {
  const sink = new MemorySink();
  const sim = new Sim({ seed: o.seed ?? 1, strategy: { name: "fifo" }, sinks: [sink], bounds: { untilMs: o.untilMs ?? 120_000 } });
  const api = new ApiServer(sim, o.api ?? { latencyMs: 10, watchDelayMs: 5 });
  const dir = new ManifestDir(sim, "/etc/kubernetes/manifests");
  const sources = o.sources ?? "api";
  const cfg = makePodSourceConfig(sim, {
    nodeName: "node-1",
    ...(sources !== "file" ? { kubeClient: api.client("kubelet") } : {}),
    ...(sources !== "api" ? { manifestDir: dir } : {}),
    ...o.config,
  });
  const seen: string[] = [];
  const updates: PodUpdate[] = [];
  if (o.syncLoop !== false) {
    sim.go("syncLoop", function* () {
      for (;;) {
        const { value: u } = yield* recv(cfg.podConfig.updates);
        updates.push(u!);
        seen.push(`${sim.nowMs} ${u!.Op} ${u!.Source} ${u!.Pods.map((p) => `${p.metadata.name}/${short(p.metadata.uid)}`).join(",")}`.trimEnd());
      }
    }, { daemon: true });
  }
  return {
    sim, api, dir, cfg, seen, updates,
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

/** The first 4 characters of a UID, enough to tell pods apart in a line. */
export function short(uid: string | undefined): string {
  return (uid ?? "").slice(0, 4);
}
