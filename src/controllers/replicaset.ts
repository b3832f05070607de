// Models pkg/controller/replicaset/replica_set.go (syncReplicaSet, manageReplicas, slowStartBatch,
// getPodsToDelete) with pkg/controller/controller_utils.go (ControllerExpectations, FilterActivePods,
// ActivePodsWithRanks) in small. A Deployment is this controller's owner only: it names its one
// ReplicaSet <deployment>-<pod-template-hash> (the manifest expansion did) and no rollout runs.
//
// Simplified: the ReplicaSet lives in the controller, not as an API object (the apiserver stores
// pods only): the scenario's `create` of a workload hands it over, its `delete` removes it and
// deletes its pods as the garbage collector's background deletion would; no status is written, no
// adoption or orphaning (the pods are the ones it created, by controllerRef); one worker instead of
// --concurrent-replicaset-syncs=5. Pod names are GenerateName's, the five characters drawn from the
// owner's identity and a creation count (scenario/manifest/names.ts) instead of at random; the first
// pod takes the name the scenario planned for the workload's pod, so expectations can name it.
import type { Proc, Sim } from "../sim/index.ts";
import { ControllerLoop, controllerKey, observedExpectation } from "./informer.ts";
import type { Pod } from "../k8s/pod.ts";
import type { PodsClient, WatchEvent } from "../apiserver/index.ts";
import { generateName } from "../scenario/manifest/names.ts";
import { activePodsWithRanksLess, isPodActive, slowStartBatch } from "./controller_utils.ts";

const COMPONENT = "replicaset-controller";
/** BurstReplicas: at most this many creations or deletions per sync. */
export const BURST_REPLICAS = 500;
/** ExpectationsTimeout: expectations older than this are taken as satisfied. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

/** A ReplicaSet as the controller holds it: its template is a pod the scenario compiled. */
export interface ReplicaSet {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  replicas: number;
  /** A pod made from the template (a defaulted manifest): each new pod is a copy under a new name. */
  readonly template: Pod;
  /** The name the first pod takes (the scenario's key for the workload's pod). */
  readonly firstName: string;
}

interface Expectations {
  add: number;
  del: number;
  sinceMs: number;
}

export class ReplicaSetController {
  private readonly rsets = new Map<string, ReplicaSet>();
  private readonly expectations = new Map<string, Expectations>();
  private readonly loop: ControllerLoop;
  private created = new Map<string, number>();

  /** `beforeCreate(template, pod)`: told of each pod's key before its create is sent (the runtimes learn its behaviour). */
  constructor(private readonly sim: Sim, private readonly client: PodsClient,
    private readonly beforeCreate: (templateKey: string, podKey: string) => void = () => {}) {
    this.loop = new ControllerLoop(sim, client, "replicaset", { observe: (e, pod, before) => this.onPod(e, pod, before), sync: (key) => this.syncReplicaSet(key) });
  }

  start(): void {
    this.loop.start();
  }

  /** kubectl apply of the workload: the controller syncs it. */
  add(rs: ReplicaSet): void {
    this.rsets.set(keyOf(rs), rs);
    this.sim.emit(COMPONENT, "ReplicaSetAdded", { replicaSet: keyOf(rs), replicas: rs.replicas });
    this.loop.enqueue(keyOf(rs));
  }

  /** kubectl delete of the workload: gone, and its pods deleted (background cascading deletion). */
  *remove(namespace: string, name: string): Proc<void> {
    const key = `${namespace}/${name}`;
    const rs = this.rsets.get(key);
    if (rs === undefined) return;
    const pods = this.ownedPods(rs);
    this.rsets.delete(key);
    this.sim.emit(COMPONENT, "ReplicaSetDeleted", { replicaSet: key, pods: pods.length });
    for (const p of pods) yield* this.client.deletePod(namespace, p.metadata.name);
  }

  /** addPod, updatePod, deletePod: the cache, the expectations, the owner's queue entry. */
  private onPod(e: WatchEvent, pod: Pod, before: Pod | undefined): void {
    const owner = this.ownerOf(pod);
    if (owner === undefined) return;
    const exp = this.expectations.get(owner);
    if (exp !== undefined) {
      // A pod being deleted gracefully counts as deleted (updatePod: DeletionTimestamp set).
      const seen = observedExpectation(e, pod, before);
      if (seen === "add") exp.add--;
      else if (seen === "del") exp.del--;
    }
    this.loop.enqueue(owner);
  }

  private ownerOf(pod: Pod): string | undefined {
    return controllerKey(pod, "ReplicaSet", (key) => this.rsets.get(key)?.uid);
  }

  /** The pods whose controller reference is this ReplicaSet (the informer's controller index). */
  private ownedPods(rs: ReplicaSet): Pod[] {
    return [...this.loop.owned("ReplicaSet", rs.namespace, rs.name, rs.uid).pods.values()];
  }

  /** syncReplicaSet: when the expectations are met, manageReplicas on the active pods. */
  private *syncReplicaSet(key: string): Proc<void> {
    const rs = this.rsets.get(key);
    if (rs === undefined) {
      this.expectations.delete(key);
      return;
    }
    const exp = this.expectations.get(key);
    const satisfied = exp === undefined || (exp.add <= 0 && exp.del <= 0) || this.sim.nowMs - exp.sinceMs > EXPECTATIONS_TIMEOUT_MS;
    if (!satisfied) return;
    // Nothing to manage: the active pods are as many as wanted (counted by the index, no list read).
    if (this.loop.owned("ReplicaSet", rs.namespace, rs.name, rs.uid).active === rs.replicas) return;
    const active = this.ownedPods(rs).filter(isPodActive);
    yield* this.manageReplicas(active, rs);
  }

  private *manageReplicas(active: Pod[], rs: ReplicaSet): Proc<void> {
    const key = keyOf(rs);
    const diff = active.length - rs.replicas;
    if (diff < 0) {
      const n = Math.min(-diff, BURST_REPLICAS);
      this.expectations.set(key, { add: n, del: 0, sinceMs: this.sim.nowMs });
      this.sim.emit(COMPONENT, "TooFewReplicas", { replicaSet: key, need: rs.replicas, have: active.length, creating: n });
      const ok = yield* slowStartBatch(this.sim, "replicaset", n, (i) => this.createPod(rs, i));
      // Creations that were never attempted or failed will not be observed.
      const exp = this.expectations.get(key);
      if (exp !== undefined) exp.add -= n - ok;
    } else if (diff > 0) {
      const n = Math.min(diff, BURST_REPLICAS);
      const victims = [...active].sort(activePodsWithRanksLess(active)).slice(0, n);
      this.expectations.set(key, { add: 0, del: n, sinceMs: this.sim.nowMs });
      this.sim.emit(COMPONENT, "TooManyReplicas", { replicaSet: key, need: rs.replicas, have: active.length, deleting: n });
      for (const p of victims) {
        const r = yield* this.client.deletePod(p.metadata.namespace ?? "default", p.metadata.name);
        const exp = this.expectations.get(key);
        if (r.err !== null && exp !== undefined) exp.del--;
      }
    }
  }

  private *createPod(rs: ReplicaSet, _index: number): Proc<boolean> {
    const key = keyOf(rs);
    const n = this.created.get(key) ?? 0;
    this.created.set(key, n + 1);
    const name = n === 0 ? rs.firstName : generateName(`${rs.name}-`, `${key}#${n}`);
    const t = rs.template;
    const pod: Pod = { ...t, metadata: { ...t.metadata, name }, spec: { ...t.spec } };
    this.beforeCreate(`${rs.namespace}/${rs.firstName}`, `${rs.namespace}/${name}`);
    const r = yield* this.client.createPod(pod);
    if (r.err === null) return true;
    this.sim.emit(COMPONENT, "Event", { pod: `${rs.namespace}/${name}`, type: "Warning", reason: "FailedCreate", message: `Error creating: ${r.err.message}` });
    return false;
  }
}

function keyOf(rs: ReplicaSet): string {
  return `${rs.namespace}/${rs.name}`;
}
