// Test fixtures mirroring kuberuntime_manager_test.go's makeBasePodAndStatus* helpers.
import type { Container, Pod } from "../../../src/k8s/pod.ts";
import { HashContainer } from "../../../src/kubelet/container/helpers.ts";
import type { PodStatus, State, Status } from "../../../src/kubelet/container/runtime.ts";
import type { ComputePodActionsDeps, ProbeResultsGetter } from "../../../src/kubelet/kuberuntime/pod_actions.ts";
import type { Result } from "../../../src/kubelet/prober/worker_core.ts";

export function makeStatus(id: string, name: string, state: State, hash: number, extra: Partial<Status> = {}): Status {
  return {
    id: { type: "", id },
    name,
    state,
    createdAtMs: 0,
    exitCode: 0,
    image: "busybox",
    imageID: "",
    hash,
    restartCount: 0,
    reason: "",
    message: "",
    ...extra,
  };
}

/** makeBasePodAndStatus: three running containers foo1..foo3 in a ready sandbox. */
export function makeBasePodAndStatus(): { pod: Pod; status: PodStatus } {
  const containers: Container[] = [1, 2, 3].map((i) => ({ name: `foo${i}`, image: "busybox", imagePullPolicy: "IfNotPresent" }));
  const pod: Pod = {
    metadata: { uid: "12345678", name: "foo", namespace: "new" },
    spec: { containers },
  };
  const status: PodStatus = {
    id: "12345678",
    name: "foo",
    namespace: "new",
    ips: [],
    sandboxStatuses: [
      {
        id: "sandboxID",
        metadata: { name: "foo", uid: "12345678", namespace: "new", attempt: 0 },
        state: "SANDBOX_READY",
        createdAtMs: 0,
        network: { ip: "10.0.0.1" },
      },
    ],
    containerStatuses: containers.map((c, i) => makeStatus(`id${i + 1}`, c.name, "running", HashContainer(c))),
  };
  return { pod, status };
}

/** makeBasePodAndStatusWithInitContainers: init1..init3 all exited 0, no regular statuses. */
export function makeBasePodAndStatusWithInitContainers(): { pod: Pod; status: PodStatus } {
  const { pod, status } = makeBasePodAndStatus();
  pod.spec.initContainers = [1, 2, 3].map((i) => ({ name: `init${i}`, image: "bar-image" }));
  const h = HashContainer(pod.spec.initContainers[0]!);
  status.containerStatuses = [1, 2, 3].map((i) => makeStatus(`initid${i}`, `init${i}`, "exited", h));
  return { pod, status };
}

/** makeBasePodAndStatusWithRestartableInitContainers: three running sidecars, the last two probed. */
export function makeBasePodAndStatusWithRestartableInitContainers(): { pod: Pod; status: PodStatus } {
  const { pod, status } = makeBasePodAndStatus();
  pod.spec.initContainers = [
    { name: "restartable-init-1", image: "bar-image", restartPolicy: "Always" },
    { name: "restartable-init-2", image: "bar-image", restartPolicy: "Always", livenessProbe: {}, startupProbe: {} },
    { name: "restartable-init-3", image: "bar-image", restartPolicy: "Always", livenessProbe: {}, startupProbe: {} },
  ];
  const h = HashContainer(pod.spec.initContainers[0]!);
  status.containerStatuses = [1, 2, 3].map((i) => makeStatus(`initid${i}`, `restartable-init-${i}`, "running", h));
  return { pod, status };
}

/** A results cache keyed by the container ID's ID part, as the Go tests' Set calls leave it. */
export function results(entries: Record<string, Result> = {}): ProbeResultsGetter {
  return { get: (cid) => entries[cid.id] };
}

export function deps(
  sidecars: boolean,
  liveness: Record<string, Result> = {},
  startup: Record<string, Result> = {},
): ComputePodActionsDeps {
  return { livenessManager: results(liveness), startupManager: results(startup), features: { SidecarContainers: sidecars } };
}

/** The restartable-init test's preset: liveness and startup Success for initid2 and initid3. */
export const SIDECAR_PROBES_OK: Record<string, Result> = { initid2: "Success", initid3: "Success" };
