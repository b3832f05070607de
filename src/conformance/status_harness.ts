// The status manager as status_manager_test.go builds it (newTestManager): the real StatusManager
// with a pod manager holding the test pod, a deletion-safety fake that says no container runs, and
// an API client that records the verbs it sends. The Go test's fake clientset becomes the in-process
// apiserver with no latency, wrapped by a recorder; its `consumeUpdates` drains the update signal
// and runs syncBatch(false) once per signal, adding up what each sync batch selected.
import type { Pod, PodStatus } from "../k8s/pod.ts";
import { ApiServer } from "../apiserver/apiserver.ts";
import type { PodsClient } from "../apiserver/client.ts";
import { podManagerWithoutStaticPods, type StatusClient } from "../kubelet/status/interfaces.ts";
import { StatusManager } from "../kubelet/status/status_manager.ts";
import { syncBatch } from "../kubelet/status/status_sync.ts";
import { isFailureVerdict, Sim, type Proc, type TraceSink } from "../sim/index.ts";
import { VectorError } from "./outcome.ts";

/** A client that notes "get pods", "patch pods/status", "delete pods" before passing the call on. */
class RecordingClient implements StatusClient {
  readonly actions: string[] = [];
  constructor(private readonly inner: PodsClient) {}
  getPod(namespace: string, name: string) {
    this.actions.push("get pods");
    return this.inner.getPod(namespace, name);
  }
  patchPodStatus(namespace: string, name: string, status: PodStatus, uid?: string, base?: PodStatus) {
    this.actions.push("patch pods/status");
    return this.inner.patchPodStatus(namespace, name, status, uid, base);
  }
  deletePod(namespace: string, name: string, opts?: Parameters<PodsClient["deletePod"]>[2]) {
    this.actions.push("delete pods");
    return this.inner.deletePod(namespace, name, opts);
  }
}

export interface StatusHarnessOptions {
  minor: number;
  /** FakePodDeletionSafetyProvider.HasRunning (false in newTestManager). */
  podCouldHaveRunningContainers?: boolean;
  /** Where the harness's trace goes (nowhere by default). */
  sinks?: readonly TraceSink[];
}

export class StatusHarness {
  readonly sim: Sim;
  readonly api: ApiServer;
  readonly client: RecordingClient;
  readonly pods = new Map<string, Pod>();
  readonly manager: StatusManager;

  constructor(opts: StatusHarnessOptions) {
    this.sim = new Sim({ seed: 1, strategy: { name: "fifo" }, sinks: opts.sinks ?? [] });
    this.api = new ApiServer(this.sim, { latencyMs: 0, watchDelayMs: 0 });
    this.client = new RecordingClient(this.api.client("kubelet"));
    const hasRunning = opts.podCouldHaveRunningContainers ?? false;
    this.manager = new StatusManager(this.sim, {
      kubeClient: this.client,
      podManager: podManagerWithoutStaticPods((uid) => this.pods.get(uid)),
      podDeletionSafety: { PodResourcesAreReclaimed: () => !hasRunning, PodCouldHaveRunningContainers: () => hasRunning },
      version: opts.minor,
      sidecarContainers: true,
    });
  }

  /** podManager.AddPod */
  addPod(pod: Pod): void {
    this.pods.set(pod.metadata.uid ?? "", pod);
  }

  /** Stores the pod in the apiserver (the fake clientset's object); deleted pods are deleted gracefully. */
  *storePod(pod: Pod): Proc<string | null> {
    const user = this.api.client("test");
    const { deletionTimestamp: _d, deletionGracePeriodSeconds: _g, uid: _u, ...meta } = pod.metadata;
    const created = yield* user.createPod({ ...pod, metadata: meta });
    if (created.err !== null) return created.err.message;
    this.addPod({ ...pod, metadata: { ...pod.metadata, uid: created.value.metadata.uid! } });
    if (pod.metadata.deletionTimestamp == null) return null;
    const deleted = yield* user.deletePod(meta.namespace ?? "default", meta.name, { gracePeriodSeconds: 30 });
    return deleted.err === null ? null : deleted.err.message;
  }

  /** consumeUpdates: each pending signal runs syncBatch(false); returns how many pods were synced. */
  *consumeUpdates(): Proc<number> {
    let updates = 0;
    for (let guard = 0; guard < 1000; guard++) {
      const r = this.manager.podStatusChannel.tryRecv();
      if (r === undefined || !r.ok) return updates;
      updates += yield* syncBatch(this.manager, false);
    }
    return updates;
  }

  /** Runs a driver process to its end and returns what it returned; its VectorError is the vector's. */
  drive<T>(body: () => Proc<T>): T {
    let out: { value: T } | null = null;
    let thrown: unknown = null;
    this.sim.go("harness", function* () {
      try {
        out = { value: yield* body() };
      } catch (err) {
        thrown = err;
      }
    });
    const run = this.sim.run();
    if (thrown !== null) throw thrown;
    if (out === null || isFailureVerdict(run.verdict)) throw new VectorError(`the status harness did not finish: ${run.verdict}${run.diagnosis ? `: ${run.diagnosis}` : ""}`);
    return (out as { value: T }).value;
  }
}
