// A tiny test driver standing in for the pod workers: it calls GetPodStatus then SyncPod, again
// and again, in one kernel process, against the simulated runtime.
import { MemorySink, Sim, sleep, type Proc, type TraceRecord } from "../../../../src/sim/index.ts";
import { SimRuntime, uniformLatency, type RuntimeConfigInput } from "../../../../src/cri/index.ts";
import { defaultPod, type Pod } from "../../../../src/k8s/index.ts";
import { CriError } from "../../../../src/cri/errors.ts";
import { KubeGenericRuntimeManager, type RuntimeManagerOptions } from "../../../../src/kubelet/kuberuntime/kuberuntime_manager_sync.ts";
import type { PodSyncResult } from "../../../../src/kubelet/kuberuntime/sync_result.ts";
import { newContainerRestartBackOff, type Backoff } from "../../../../src/kubelet/util/backoff.ts";
import type { PodStatus } from "../../../../src/kubelet/container/runtime.ts";

export interface Driver {
  sim: Sim;
  rt: SimRuntime;
  manager: KubeGenericRuntimeManager;
  backOff: Backoff;
  sink: MemorySink;
  /** GetPodStatus, then SyncPod with it. */
  syncOnce(pod: Pod): Proc<PodSyncResult>;
  status(pod: Pod): Proc<PodStatus>;
  /** Runs `body` as the only driver process, to the end (or untilMs). */
  run(body: () => Proc<void>): void;
  /** Events as "t reason: message". */
  events(): string[];
  records(component: string, kind: string): TraceRecord[];
}

export interface DriverOptions {
  seed?: number | string;
  runtime?: RuntimeConfigInput;
  /** Every CRI call takes this long (default 10 ms) unless runtime.latency is given. */
  latencyMs?: number;
  untilMs?: number;
  manager?: Partial<Omit<RuntimeManagerOptions, "sim" | "runtimeService" | "imageService" | "network">>;
}

export function driver(o: DriverOptions = {}): Driver {
  const sink = new MemorySink();
  const sim = new Sim({ seed: o.seed ?? 1, strategy: { name: "fifo" }, sinks: [sink], bounds: { untilMs: o.untilMs ?? 600_000 } });
  const rt = new SimRuntime(sim, { latency: uniformLatency(o.latencyMs ?? 10), ...o.runtime });
  const manager = new KubeGenericRuntimeManager({ sim, runtimeService: rt, imageService: rt, network: rt, ...o.manager });
  const backOff = newContainerRestartBackOff({ nowMs: () => sim.nowMs });
  function* status(pod: Pod): Proc<PodStatus> {
    const s = yield* manager.GetPodStatus(pod.metadata.uid!, pod.metadata.name, pod.metadata.namespace!);
    if (s instanceof CriError) throw new Error(`GetPodStatus: ${s.message}`);
    return s;
  }
  return {
    sim,
    rt,
    manager,
    backOff,
    sink,
    status,
    *syncOnce(pod) {
      return yield* manager.SyncPod(pod, yield* status(pod), [], backOff);
    },
    run(body) {
      sim.go("driver", body);
      const res = sim.run();
      if (res.verdict !== "completed" && res.verdict !== "quiescent" && res.verdict !== "until") {
        throw new Error(`run ended ${res.verdict}: ${res.diagnosis}`);
      }
    },
    events: () => sink.records.filter((r) => r.kind === "Event").map((r) => `${r.t} ${r["reason"]}: ${r["message"]}`),
    records: (component, kind) => sink.records.filter((r) => r.component === component && r.kind === kind),
  };
}

/** A defaulted pod web/default with one container "app" running nginx:1.25 (IfNotPresent). */
export function webPod(spec: Partial<Pod["spec"]> = {}, meta: Partial<Pod["metadata"]> = {}): Pod {
  return defaultPod({
    metadata: { name: "web", namespace: "default", uid: "uid-web", ...meta },
    spec: { containers: [{ name: "app", image: "nginx:1.25" }], ...spec },
  });
}

/** Syncs every periodMs (the pod worker's resync) until untilMs, collecting each result's error. */
export function* syncEvery(d: Driver, pod: () => Pod, periodMs: number, untilMs: number, out: string[]): Proc<void> {
  while (d.sim.nowMs < untilMs) {
    const r = yield* d.syncOnce(pod());
    const failed = r.SyncResults.filter((s) => s.Error !== null).map((s) => `${s.Action}/${s.Target}:${s.Error}`);
    out.push(`${d.sim.nowMs} ${failed.join(",") || "ok"}`);
    yield* sleep(periodMs);
  }
}
