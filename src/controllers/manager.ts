// A stand-in for kube-controller-manager (cmd/kube-controller-manager): it starts the controllers
// a cluster scenario needs, each as its own goroutines with its own apiserver client, and hands them
// the workloads the scenario's timeline creates and deletes: ReplicaSet (with Deployment as its
// owner), Job, StatefulSet and DaemonSet.
import type { Proc, Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { Scenario, ScenarioPod } from "../scenario/resolve.ts";
import { featureGateDefault } from "../scenario/types/kubelet.ts";
import type { SimCluster } from "../node/cluster.ts";
import { ReplicaSetController } from "./replicaset.ts";
import { JobController } from "./job.ts";
import { atLeast } from "../kubelet/version.ts";
import { StatefulSetController } from "./statefulset.ts";
import { DaemonSetController } from "./daemonset.ts";
import { ObjectInformer } from "./node_informer.ts";

export class ControllerManager {
  readonly replicaSet: ReplicaSetController;
  readonly job: JobController;
  readonly statefulSet: StatefulSetController;
  readonly daemonSet: DaemonSetController;

  constructor(sim: Sim, private readonly cluster: SimCluster) {
    // The workload's containers do what the scenario says of its pod, on whichever node runs it.
    const adopt = (template: string, podKey: string) => cluster.adopted.adopt(template, podKey);
    this.replicaSet = new ReplicaSetController(sim, cluster.api.client("replicaset-controller"), adopt);
    this.job = new JobController(sim, cluster.api.client("job-controller"), adopt, { jobPodReplacementPolicy: atLeast(controlPlaneRelease(cluster.scenario), "1.29") });
    this.statefulSet = new StatefulSetController(sim, cluster.api.client("statefulset-controller"), adopt);
    // The node informer: a deleted Node (kubectl delete node) runs no daemon pod until it registers again.
    this.daemonSet = new DaemonSetController(sim, cluster.api.client("daemonset-controller"), new ObjectInformer(cluster.api, "nodes"), controlPlaneRelease(cluster.scenario), adopt);
  }

  /** Whether the scenario's pod (of a cluster) is a workload a controller keeps: a Deployment's, ReplicaSet's, StatefulSet's, Job's or DaemonSet's. */
  static isWorkload(p: ScenarioPod | undefined): boolean {
    return p?.replicas !== undefined || p?.job !== undefined || (p?.source === "api" && controllerKind(p) === "DaemonSet");
  }

  start(): void {
    this.replicaSet.start();
    this.job.start();
    this.statefulSet.start();
    this.daemonSet.start();
  }

  /** kubectl create of the workload whose pod the scenario names. */
  create(p: ScenarioPod): void {
    const template: Pod = this.cluster.first.manifestFor(p.key);
    const ref = template.metadata.ownerReferences!.find((r) => r.controller === true)!;
    const owner = { namespace: p.namespace, name: ref.name, uid: ref.uid, template, firstName: p.name };
    if (p.job !== undefined) this.job.add({ ...owner, ...p.job });
    else if (ref.kind === "DaemonSet") this.daemonSet.add(owner);
    else if (ref.kind === "StatefulSet") this.statefulSet.add({ namespace: p.namespace, name: ref.name, uid: ref.uid, template, replicas: p.replicas! });
    else this.replicaSet.add({ ...owner, replicas: p.replicas! });
  }

  /** kubectl delete of the workload whose pod the scenario names. */
  *delete(p: ScenarioPod): Proc<void> {
    const ref = p.manifest.metadata.ownerReferences!.find((r) => r.controller === true)!;
    if (p.job !== undefined) yield* this.job.remove(p.namespace, ref.name);
    else if (ref.kind === "StatefulSet") yield* this.statefulSet.remove(p.namespace, ref.name);
    else if (ref.kind === "DaemonSet") yield* this.daemonSet.remove(p.namespace, ref.name);
    else yield* this.replicaSet.remove(p.namespace, ref.name);
  }
}

function controllerKind(p: ScenarioPod): string | undefined {
  return p.manifest.metadata.ownerReferences?.find((r) => r.controller === true)?.kind;
}

/**
 * The release the control plane (the controllers, the scheduler stand-in) runs: the scenario's
 * `controlPlane.version`, else the first node's kubelet release (as before the field existed).
 */
export function controlPlaneRelease(scenario: Scenario): string {
  return scenario.controlPlane?.version.version ?? scenario.kubelet.version;
}

/**
 * The SidecarContainers feature gate of the control plane (the scheduler's accounting of
 * restartable init containers): its release's default when `controlPlane:` is given, else the
 * first node's gate, as before.
 */
export function controlPlaneSidecars(scenario: Scenario): boolean {
  const cp = scenario.controlPlane;
  return cp === undefined ? scenario.kubelet.featureGates.SidecarContainers : featureGateDefault("SidecarContainers", cp.version.minor);
}

/** Starts the controllers of a cluster whose scenario has workloads; null when it has none. */
export function startControllers(sim: Sim, cluster: SimCluster): ControllerManager | null {
  if (!cluster.isCluster || !cluster.scenario.pods.some((p) => ControllerManager.isWorkload(p))) return null;
  const m = new ControllerManager(sim, cluster);
  m.start();
  return m;
}
