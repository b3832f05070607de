// Test doubles for the prober: a status provider, a scripted probe runner, the syncLoop's probe
// arms as a drain process, and pod builders.
import type { Container, Pod, PodStatus, Probe } from "../../../src/k8s/pod.ts";
import { call, MemorySink, recvCase, select, Sim, type Proc, type TraceRecord } from "../../../src/sim/index.ts";
import type { ProberStatusManager } from "../../../src/kubelet/prober/prober_manager.ts";
import type { ProbeRequest, ProbeRunner, ProbeRunResult } from "../../../src/kubelet/prober/prober.ts";
import { ResultsManager, type Update } from "../../../src/kubelet/prober/results/results_manager.ts";
import { formatRFC3339 } from "../../../src/kubelet/status/metatime.ts";
import type { ProbeType } from "../../../src/kubelet/prober/worker_core.ts";

/** statusManager.GetPodStatus backed by a map the test edits. */
export class FakeStatusProvider implements ProberStatusManager {
  readonly statuses = new Map<string, PodStatus>();
  readonly calls: string[] = [];
  GetPodStatus(uid: string): PodStatus | undefined {
    return this.statuses.get(uid);
  }
  SetContainerReadiness(podUID: string, containerID: string, ready: boolean): void {
    this.calls.push(`readiness ${podUID} ${containerID} ${ready}`);
  }
  SetContainerStartup(podUID: string, containerID: string, started: boolean): void {
    this.calls.push(`startup ${podUID} ${containerID} ${started}`);
  }
}

export type Answer = ProbeRunResult["answer"];

/** A probe runner whose answer the test scripts per probe type; each answer takes durationMs. */
export class ScriptedRunner implements ProbeRunner {
  readonly answers: Record<ProbeType, Answer | ((nowMs: number) => Answer)> = { liveness: "success", readiness: "success", startup: "success" };
  readonly runs: { t: number; probeType: ProbeType; answer: Answer }[] = [];
  constructor(
    private readonly sim: Sim,
    public durationMs = 0,
  ) {}
  *runProbe(req: ProbeRequest): Proc<ProbeRunResult> {
    const a = this.answers[req.probeType];
    const answer = typeof a === "function" ? a(this.sim.nowMs) : a;
    // A timeout takes the whole timeoutSeconds; other answers take durationMs.
    yield* call(answer === "timeout" ? req.timeoutMs : this.durationMs, `probe ${req.probeType}`);
    this.runs.push({ t: this.sim.nowMs, probeType: req.probeType, answer });
    return { answer, output: answer === "success" ? "" : `${req.probeType} ${answer}` };
  }
}

export function resultsManagers(sim: Sim): Record<"livenessManager" | "readinessManager" | "startupManager", ResultsManager> {
  return {
    livenessManager: new ResultsManager(sim, "liveness"),
    readinessManager: new ResultsManager(sim, "readiness"),
    startupManager: new ResultsManager(sim, "startup"),
  };
}

/** The syncLoop's probe arms (≥1.21): read every results channel, log, and hand each update on. */
export function drainUpdates(
  sim: Sim,
  rms: readonly ResultsManager[],
  onUpdate: (rm: ResultsManager, u: Update) => void = () => {},
): { t: number; kind: string; u: Update }[] {
  const seen: { t: number; kind: string; u: Update }[] = [];
  sim.go("test/syncLoop", function* () {
    for (;;) {
      const c = yield* select(rms.map((rm) => recvCase(rm.Updates())));
      const rm = rms[c.index]!;
      seen.push({ t: sim.nowMs, kind: rm.name, u: c.value as Update });
      onUpdate(rm, c.value as Update);
    }
  }, { daemon: true });
  return seen;
}

export function probe(p: Partial<Probe> = {}): Probe {
  return { exec: { command: ["true"] }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3, initialDelaySeconds: 0, ...p };
}

export function podWith(containers: Container[], over: Partial<Pod["metadata"]> = {}, restartPolicy: "Always" | "OnFailure" | "Never" = "Always"): Pod {
  return { metadata: { uid: "uid-1", name: "web", namespace: "default", ...over }, spec: { restartPolicy, containers } };
}

/** A Running pod status with one running container per name (started as given). */
export function runningStatus(names: readonly string[], startedAtMs: number, started: boolean | undefined, idPrefix = "test://"): PodStatus {
  return {
    phase: "Running",
    containerStatuses: names.map((name) => ({
      name,
      containerID: `${idPrefix}${name}-1`,
      state: { running: { startedAt: formatRFC3339(startedAtMs) } },
      ...(started === undefined ? {} : { started }),
    })),
  };
}

export function newSim(seed: number | string = 1, untilMs = 300_000): { sim: Sim; sink: MemorySink } {
  const sink = new MemorySink();
  const sim = new Sim({ seed, strategy: { name: "fifo" }, sinks: [sink], bounds: { untilMs } });
  return { sim, sink };
}

export function records(sink: MemorySink, kind?: string, filter: (r: TraceRecord) => boolean = () => true): TraceRecord[] {
  return sink.records.filter((r) => r.component === "prober" && (kind === undefined || r.kind === kind) && filter(r));
}
