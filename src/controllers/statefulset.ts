// Models pkg/controller/statefulset/stateful_set_control.go (UpdateStatefulSet's replica loop for
// podManagementPolicy OrderedReady, "monotonic") and stateful_set_utils.go (newStatefulSetPod,
// updateIdentity, updateStorage, getOrdinal) in small: ordinals 0..replicas-1, one pod per
// identity <set>-<ordinal>; in OrderedReady a pod is created only once every lower ordinal is
// Running and Ready; a pod that ended (Failed or Succeeded) is deleted and made again; a pod being
// deleted is waited for ("waiting for Pod to be deleted") before its identity is made again, and
// the apiserver refuses a second object of the name meanwhile; scale-down deletes the highest
// ordinal first, one at a time.
//
// Simplified, as replicaset.ts: the StatefulSet lives in the controller (no object, no status, no
// ControllerRevisions: no rolling update); Parallel pod management and PVC retention are not
// modelled; volumes are the claim names only (no PersistentVolumeClaim objects).
import { type Proc, type Sim } from "../sim/index.ts";
import { ControllerLoop, controllerKey } from "./informer.ts";
import type { Pod } from "../k8s/pod.ts";
import { podKey } from "../k8s/podutil.ts";
import type { PodsClient } from "../apiserver/index.ts";

const COMPONENT = "statefulset-controller";

export interface StatefulSet {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  replicas: number;
  /** The pod of ordinal 0 as the manifest expansion made it (scenario/manifest/controllers.ts). */
  readonly template: Pod;
}

/** getOrdinal: the number after the set's name, or -1. */
export function getOrdinal(set: string, podName: string): number {
  if (!podName.startsWith(`${set}-`)) return -1;
  const rest = podName.slice(set.length + 1);
  return /^(0|[1-9][0-9]*)$/.test(rest) ? Number(rest) : -1;
}

/** newStatefulSetPod for `ordinal`, from ordinal 0's pod: name, hostname, identity labels, claims. */
export function podForOrdinal(template: Pod, set: string, ordinal: number): Pod {
  const name = `${set}-${ordinal}`;
  const labels: Record<string, string> = { ...template.metadata.labels, "statefulset.kubernetes.io/pod-name": name };
  if (template.metadata.labels?.["apps.kubernetes.io/pod-index"] !== undefined) labels["apps.kubernetes.io/pod-index"] = String(ordinal);
  const claim0 = `-${set}-0`;
  type Volume = { persistentVolumeClaim?: { claimName?: unknown } } & Record<string, unknown>;
  const written = (template.spec as { volumes?: Volume[] }).volumes;
  const volumes = written?.map((v) => {
    const claim = v.persistentVolumeClaim?.claimName;
    if (typeof claim !== "string" || !claim.endsWith(claim0)) return v;
    return { ...v, persistentVolumeClaim: { ...v.persistentVolumeClaim, claimName: `${claim.slice(0, -claim0.length)}-${set}-${ordinal}` } };
  });
  return {
    ...template,
    metadata: { ...template.metadata, name, labels },
    spec: { ...template.spec, hostname: name, ...(volumes === undefined ? {} : { volumes }) },
  } as Pod;
}

function isRunningAndReady(p: Pod): boolean {
  return p.status?.phase === "Running" && p.status.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true;
}

export class StatefulSetController {
  private readonly sets = new Map<string, StatefulSet>();
  private readonly loop: ControllerLoop;

  constructor(private readonly sim: Sim, private readonly client: PodsClient,
    private readonly beforeCreate: (templateKey: string, podKey: string) => void = () => {}) {
    this.loop = new ControllerLoop(sim, client, "statefulset", { observe: (_e, pod) => this.onPod(pod), sync: (key) => this.sync(key) });
  }

  start(): void {
    this.loop.start();
  }

  add(set: StatefulSet): void {
    const key = `${set.namespace}/${set.name}`;
    this.sets.set(key, set);
    this.sim.emit(COMPONENT, "StatefulSetAdded", { statefulSet: key, replicas: set.replicas });
    this.loop.enqueue(key);
  }

  *remove(namespace: string, name: string): Proc<void> {
    const key = `${namespace}/${name}`;
    if (!this.sets.has(key)) return;
    const pods = this.ownedPods(key);
    this.sets.delete(key);
    this.sim.emit(COMPONENT, "StatefulSetDeleted", { statefulSet: key, pods: pods.length });
    for (const p of pods) yield* this.client.deletePod(namespace, p.metadata.name);
  }

  private ownerOf(pod: Pod): string | undefined {
    return controllerKey(pod, "StatefulSet", (key) => this.sets.get(key)?.uid);
  }

  private ownedPods(key: string): Pod[] {
    return [...this.loop.pods.values()].filter((p) => this.ownerOf(p) === key);
  }

  private onPod(pod: Pod): void {
    const owner = this.ownerOf(pod);
    if (owner !== undefined) this.loop.enqueue(owner);
  }

  /** One pass of the replica loop (OrderedReady): at most one creation or deletion, then wait. */
  private *sync(key: string): Proc<void> {
    const set = this.sets.get(key);
    if (set === undefined) return;
    const byOrdinal = new Map<number, Pod>();
    const condemned: Pod[] = [];
    for (const p of this.ownedPods(key)) {
      const ord = getOrdinal(set.name, p.metadata.name);
      if (ord < 0) continue;
      if (ord < set.replicas) byOrdinal.set(ord, p);
      else condemned.push(p);
    }
    for (let ord = 0; ord < set.replicas; ord++) {
      const pod = byOrdinal.get(ord);
      if (pod === undefined) return yield* this.create(set, ord);
      if (pod.status?.phase === "Failed" || pod.status?.phase === "Succeeded") {
        if (pod.metadata.deletionTimestamp) return this.waiting(set, pod, "to be deleted");
        this.sim.emit(COMPONENT, "RecreatingPod", { statefulSet: key, pod: podKey(pod), phase: pod.status.phase });
        yield* this.client.deletePod(set.namespace, pod.metadata.name, { preconditions: { uid: pod.metadata.uid! } });
        return;
      }
      if (pod.metadata.deletionTimestamp) return this.waiting(set, pod, "to be deleted");
      if (!isRunningAndReady(pod)) return this.waiting(set, pod, "to be Running and Ready");
    }
    // Scale down: the highest ordinal first, once it is not already going.
    condemned.sort((a, b) => getOrdinal(set.name, b.metadata.name) - getOrdinal(set.name, a.metadata.name));
    const target = condemned[0];
    if (target === undefined) return;
    if (target.metadata.deletionTimestamp) return this.waiting(set, target, "to be deleted");
    this.sim.emit(COMPONENT, "Event", { pod: podKey(target), type: "Normal", reason: "SuccessfulDelete", message: `delete Pod ${target.metadata.name} in StatefulSet ${set.name} successful` });
    yield* this.client.deletePod(set.namespace, target.metadata.name);
  }

  private waiting(set: StatefulSet, pod: Pod, what: string): void {
    this.sim.emit(COMPONENT, "Waiting", { statefulSet: `${set.namespace}/${set.name}`, pod: podKey(pod), for: what });
  }

  private *create(set: StatefulSet, ordinal: number): Proc<void> {
    const pod = podForOrdinal(set.template, set.name, ordinal);
    const key = `${set.namespace}/${pod.metadata.name}`;
    this.beforeCreate(podKey(set.template), key);
    const r = yield* this.client.createPod(pod);
    this.sim.emit(COMPONENT, "Event", r.err === null
      ? { pod: key, type: "Normal", reason: "SuccessfulCreate", message: `create Pod ${pod.metadata.name} in StatefulSet ${set.name} successful` }
      : { pod: key, type: "Warning", reason: "FailedCreate", message: `create Pod ${pod.metadata.name} in StatefulSet ${set.name} failed error: ${r.err.message}` });
  }
}
