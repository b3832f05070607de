// Test doubles for the status manager: an in-memory pods client with virtual latency that records
// its actions (client-go's fake.Clientset), a pod manager, and a deletion-safety provider.
import type { Pod, PodStatus } from "../../../src/k8s/pod.ts";
import { call, MemorySink, Sim, type Proc, type TraceRecord } from "../../../src/sim/index.ts";
import type { ApiResult, DeleteOptions, DeleteResult } from "../../../src/apiserver/client.ts";
import { newConflict, newNotFound, StatusError } from "../../../src/apiserver/errors.ts";
import type { PodDeletionSafetyProvider, PodManager, StatusClient } from "../../../src/kubelet/status/interfaces.ts";

export interface Action {
  t: number;
  verb: "get" | "patch" | "delete";
  name: string;
  uid?: string;
  ok: boolean;
}

/** fake.Clientset for pods: get/patch status/delete, each taking latencyMs of virtual time. */
export class FakeClient implements StatusClient {
  readonly pods = new Map<string, Pod>();
  readonly actions: Action[] = [];
  /** When set, every call fails with this error (client.AddReactor returning an error). */
  failWith: StatusError | null = null;

  constructor(
    private readonly sim: Sim,
    readonly latencyMs = 5,
  ) {}

  put(pod: Pod): void {
    this.pods.set(key(pod.metadata.namespace ?? "", pod.metadata.name), structuredClone(pod));
  }

  *getPod(namespace: string, name: string): Proc<ApiResult<Pod>> {
    yield* call(this.latencyMs, "fake get");
    const pod = this.pods.get(key(namespace, name));
    const err = this.failWith ?? (pod === undefined ? newNotFound(name) : null);
    this.record("get", name, undefined, err === null);
    if (err !== null) return { value: null, err };
    return { value: structuredClone(pod!), err: null };
  }

  *patchPodStatus(namespace: string, name: string, status: PodStatus, uid?: string): Proc<ApiResult<Pod>> {
    yield* call(this.latencyMs, "fake patch");
    const pod = this.pods.get(key(namespace, name));
    let err = this.failWith ?? (pod === undefined ? newNotFound(name) : null);
    if (err === null && uid !== undefined && pod!.metadata.uid !== uid) {
      err = newConflict("pods", name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod!.metadata.uid}`);
    }
    this.record("patch", name, uid, err === null);
    if (err !== null) return { value: null, err };
    pod!.status = structuredClone(status);
    return { value: structuredClone(pod!), err: null };
  }

  *deletePod(namespace: string, name: string, opts?: DeleteOptions): Proc<ApiResult<DeleteResult>> {
    yield* call(this.latencyMs, "fake delete");
    const pod = this.pods.get(key(namespace, name));
    let err = this.failWith ?? (pod === undefined ? newNotFound(name) : null);
    const uid = opts?.preconditions?.uid;
    if (err === null && uid !== undefined && pod!.metadata.uid !== uid) {
      err = newConflict("Pod", name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod!.metadata.uid}`);
    }
    this.record("delete", name, uid, err === null);
    if (err !== null) return { value: null, err };
    this.pods.delete(key(namespace, name));
    return { value: { pod: pod!, deleted: true }, err: null };
  }

  verbs(): string[] {
    return this.actions.map((a) => a.verb);
  }

  clear(): void {
    this.actions.length = 0;
  }

  private record(verb: Action["verb"], name: string, uid: string | undefined, ok: boolean): void {
    this.actions.push({ t: this.sim.nowMs, verb, name, ...(uid === undefined ? {} : { uid }), ok });
  }
}

function key(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** kubepod.NewBasicPodManager with static/mirror pods: annotations decide which is which. */
export class FakePodManager implements PodManager {
  readonly pods = new Map<string, Pod>();

  add(pod: Pod): void {
    this.pods.set(pod.metadata.uid!, pod);
  }
  delete(uid: string): void {
    this.pods.delete(uid);
  }
  GetPodByUID(uid: string): Pod | undefined {
    return this.pods.get(uid);
  }
  GetMirrorPodByPod(pod: Pod): Pod | undefined {
    return [...this.pods.values()].find((p) => isMirror(p) && p.metadata.name === pod.metadata.name && p.metadata.namespace === pod.metadata.namespace);
  }
  TranslatePodUID(uid: string): string {
    const p = this.pods.get(uid);
    if (p === undefined || !isMirror(p)) return uid;
    return [...this.pods.values()].find((s) => isStatic(s) && s.metadata.name === p.metadata.name)?.metadata.uid ?? uid;
  }
  GetUIDTranslations(): { podToMirror: Map<string, string>; mirrorToPod: Map<string, string> } {
    const podToMirror = new Map<string, string>();
    const mirrorToPod = new Map<string, string>();
    for (const p of this.pods.values()) {
      if (!isStatic(p)) continue;
      const mirror = this.GetMirrorPodByPod(p);
      podToMirror.set(p.metadata.uid!, mirror?.metadata.uid ?? "");
      if (mirror !== undefined) mirrorToPod.set(mirror.metadata.uid!, p.metadata.uid!);
    }
    return { podToMirror, mirrorToPod };
  }
}

function isMirror(p: Pod): boolean {
  return p.metadata.annotations?.["kubernetes.io/config.mirror"] !== undefined;
}
function isStatic(p: Pod): boolean {
  const s = p.metadata.annotations?.["kubernetes.io/config.source"] ?? "";
  return s !== "" && s !== "api";
}

/** statustest.FakePodDeletionSafetyProvider with switches. */
export class FakeDeletionSafety implements PodDeletionSafetyProvider {
  reclaimed = true;
  couldHaveRunning = false;
  PodResourcesAreReclaimed(): boolean {
    return this.reclaimed;
  }
  PodCouldHaveRunningContainers(): boolean {
    return this.couldHaveRunning;
  }
}

/** getTestPod(): UID 12345678, foo in namespace new. */
export function getTestPod(over: Partial<Pod["metadata"]> = {}): Pod {
  return { metadata: { uid: "12345678", name: "foo", namespace: "new", ...over }, spec: { containers: [{ name: "c" }] } };
}

export function newSim(seed = 1, untilMs = 120_000): { sim: Sim; sink: MemorySink } {
  const sink = new MemorySink();
  const sim = new Sim({ seed, strategy: { name: "fifo" }, sinks: [sink], bounds: { untilMs } });
  return { sim, sink };
}

export function records(sink: MemorySink, component: string, kind?: string): TraceRecord[] {
  return sink.records.filter((r) => r.component === component && (kind === undefined || r.kind === kind));
}
