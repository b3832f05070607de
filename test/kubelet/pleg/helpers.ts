// Test doubles for the PLEG: a scripted runtime (containertest.FakeRuntime's AllPodList plus a
// per-pod GetPodStatus answer) and a harness that runs test code inside one kernel process.
import { Sim, MemorySink, call, type Proc, type TraceRecord } from "../../../src/sim/index.ts";
import { Cache } from "../../../src/kubelet/container/cache.ts";
import type { PodStatus, Status, State } from "../../../src/kubelet/container/runtime.ts";
import type { RuntimeContainer, RuntimePod } from "../../../src/kubelet/kuberuntime/running_pod.ts";
import { CriError, unknown } from "../../../src/cri/errors.ts";
import { GenericPLEG, type GenericPLEGOptions, type PodStatusSource } from "../../../src/kubelet/pleg/generic.ts";
import type { PodLifecycleEvent } from "../../../src/kubelet/pleg/pleg.ts";

export const testContainerRuntimeType = "fooRuntime";

/** createTestContainer */
export function c(id: string, state: State, name = id): RuntimeContainer {
  return { id: { type: testContainerRuntimeType, id }, name, image: "", imageID: "", hash: 0, state };
}

export function pod(id: string, containers: RuntimeContainer[], sandboxes: RuntimeContainer[] = []): RuntimePod {
  return { id, name: `pod-${id}`, namespace: "default", createdAtMs: 0, containers, sandboxes };
}

/** A kubecontainer.Status with the fields the tests look at. */
export function status(id: string, state: State, extra: Partial<Status> = {}): Status {
  return {
    id: { type: testContainerRuntimeType, id },
    name: id,
    state,
    createdAtMs: 0,
    exitCode: 0,
    image: "",
    imageID: "",
    hash: 0,
    restartCount: 0,
    reason: "",
    message: "",
    ...extra,
  };
}

export function podStatusOf(p: RuntimePod, extra: Partial<PodStatus> = {}): PodStatus {
  return {
    id: p.id,
    name: p.name,
    namespace: p.namespace,
    ips: [],
    containerStatuses: p.containers.map((x) => status(x.id.id, x.state)),
    sandboxStatuses: [],
    ...extra,
  };
}

export class FakeRuntime implements PodStatusSource {
  AllPodList: RuntimePod[] = [];
  getPodsErr: CriError | null = null;
  /** Virtual time GetPods and GetPodStatus take. */
  listMs = 0;
  inspectMs: (uid: string) => number = () => 0;
  /** A scripted GetPodStatus answer per pod UID; the default derives the status from the listing. */
  podStatus = new Map<string, PodStatus | CriError>();
  readonly calls: string[] = [];

  *GetPods(all: boolean): Proc<RuntimePod[] | CriError> {
    this.calls.push(`GetPods(${all})`);
    if (this.listMs > 0) yield* call(this.listMs, "GetPods");
    return this.getPodsErr ?? structuredClone(this.AllPodList);
  }

  *GetPodStatus(uid: string, _name: string, _namespace: string): Proc<PodStatus | CriError> {
    this.calls.push(`GetPodStatus(${uid})`);
    const ms = this.inspectMs(uid);
    if (ms > 0) yield* call(ms, `GetPodStatus ${uid}`);
    const scripted = this.podStatus.get(uid);
    if (scripted !== undefined) return scripted;
    const p = this.AllPodList.find((x) => x.id === uid);
    return p === undefined ? unknown(`no pod ${uid}`) : podStatusOf(p);
  }
}

export interface PlegHarness {
  sim: Sim;
  sink: MemorySink;
  runtime: FakeRuntime;
  cache: Cache;
  pleg: GenericPLEG;
  /** getEventsFromChannel: drains what is buffered, without blocking. */
  drain(): PodLifecycleEvent[];
  records(component: string, kind?: string): TraceRecord[];
}

export function plegHarness(opts: GenericPLEGOptions & { untilMs?: number; strategy?: "fifo" | "random"; seed?: number } = {}): PlegHarness {
  const sink = new MemorySink();
  const strategy = opts.strategy === "random" ? { name: "random" as const } : { name: "fifo" as const };
  const sim = new Sim({ seed: opts.seed ?? 1, strategy, sinks: [sink], bounds: { untilMs: opts.untilMs ?? 600_000 } });
  const runtime = new FakeRuntime();
  const cache = new Cache(sim);
  const pleg = new GenericPLEG(sim, runtime, cache, opts);
  return {
    sim,
    sink,
    runtime,
    cache,
    pleg,
    drain: () => {
      const out: PodLifecycleEvent[] = [];
      for (let r = pleg.Watch().tryRecv(); r !== undefined && r.ok; r = pleg.Watch().tryRecv()) out.push(r.value!);
      return out;
    },
    records: (component, kind) => sink.records.filter((r) => r.component === component && (kind === undefined || r.kind === kind)),
  };
}

/** Runs body as the only test process, to completion. */
export function runInProcess(h: PlegHarness, body: () => Proc<void>): void {
  h.sim.go("test", body);
  const result = h.sim.run();
  if (result.verdict !== "completed" && result.verdict !== "until" && result.verdict !== "quiescent") {
    throw new Error(`run ended ${result.verdict}: ${result.diagnosis ?? ""}`);
  }
}

/** verifyEvents: compare ignoring order (sorted by pod ID, then container ID, then type). */
export function sorted(events: readonly PodLifecycleEvent[]): string[] {
  return events.map((e) => `${e.ID}/${String(e.Data)}/${e.Type}`).sort();
}
