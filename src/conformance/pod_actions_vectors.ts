// Runs compute_pod_actions.yaml vectors (Kubernetes' TestComputePodActions* tables) through computePodActions.
import { z } from "zod";
import type { Container, Pod } from "../k8s/pod.ts";
import { HashContainer } from "../kubelet/container/helpers.ts";
import type { ContainerID, PodSandboxStatus, PodStatus, Status } from "../kubelet/container/runtime.ts";
import { computePodActions } from "../kubelet/kuberuntime/kuberuntime_manager.ts";
import type { ComputePodActionsDeps, PodActions, ProbeResultsGetter } from "../kubelet/kuberuntime/pod_actions.ts";
import type { Result } from "../kubelet/prober/worker_core.ts";
import { diffValues } from "./diff.ts";

const probeFlag = z.union([z.boolean(), z.looseObject({})]);

const vectorContainer = z.looseObject({
  name: z.string(),
  image: z.string().optional(),
  restartPolicy: z.string().optional(),
  livenessProbe: probeFlag.optional(),
  readinessProbe: probeFlag.optional(),
  startupProbe: probeFlag.optional(),
});

const vectorPod = z.looseObject({
  name: z.string().optional(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  restartPolicy: z.enum(["", "Always", "OnFailure", "Never"]).optional(),
  hostNetwork: z.boolean().optional(),
  deletionTimestamp: z.string().nullable().optional(),
  initContainers: z.array(vectorContainer).nullable().optional(),
  containers: z.array(vectorContainer),
  ephemeralContainers: z.array(vectorContainer).nullable().optional(),
});

const vectorSandbox = z.looseObject({
  id: z.string(),
  state: z.enum(["READY", "NOTREADY"]),
  attempt: z.number().int().nonnegative().optional(),
  network: z.looseObject({ ip: z.string() }).nullable().optional(),
  netnsMode: z.enum(["POD", "CONTAINER", "NODE", "TARGET"]).optional(),
});

const probeResult = z.enum(["Success", "Failure", "Unknown"]);

const vectorContainerStatus = z.looseObject({
  name: z.string(),
  id: z.string(),
  state: z.enum(["running", "exited", "created", "unknown"]),
  exitCode: z.number().int().optional(),
  reason: z.string().optional(),
  hash: z.enum(["matches", "changed"]).optional(),
});

const vectorStatus = z.looseObject({
  sandboxes: z.array(vectorSandbox).nullable().optional(),
  containers: z.array(vectorContainerStatus).nullable().optional(),
  probeResults: z
    .looseObject({
      liveness: z.record(z.string(), probeResult).nullable().optional(),
      startup: z.record(z.string(), probeResult).nullable().optional(),
    })
    .optional(),
});

/** One vector of compute_pod_actions.yaml; `expected` is absent in an `actions` snapshot. */
export const podActionsVectorSchema = z.looseObject({
  name: z.string().optional(),
  featureGates: z.union([z.looseObject({ SidecarContainers: z.boolean().optional() }), z.string()]).optional(),
  pod: vectorPod,
  status: vectorStatus,
  expected: z.record(z.string(), z.unknown()).optional(),
});

export type PodActionsVector = z.infer<typeof podActionsVectorSchema>;

/** The inputs of one computePodActions call, built from a vector. */
export interface PodActionsSnapshot {
  pod: Pod;
  podStatus: PodStatus;
  deps: ComputePodActionsDeps;
}

/** The runtime type the test's container IDs are given; the vectors name only the ID part. */
const RUNTIME_TYPE = "test";

/** Builds the pod, the runtime status and the probe caches exactly as the vector describes them. */
export function snapshotFromVector(v: PodActionsVector): PodActionsSnapshot {
  const pod = buildPod(v.pod);
  const podStatus: PodStatus = {
    id: pod.metadata.uid ?? "",
    name: pod.metadata.name,
    namespace: pod.metadata.namespace ?? "",
    ips: [],
    sandboxStatuses: (v.status.sandboxes ?? []).map((s, i) => buildSandbox(s, pod, i)),
    containerStatuses: (v.status.containers ?? []).map((c, i) => buildStatus(c, pod, i)),
  };
  const gates = typeof v.featureGates === "object" ? v.featureGates : {};
  return {
    pod,
    podStatus,
    deps: {
      livenessManager: resultsFrom(v.status.probeResults?.liveness ?? {}),
      startupManager: resultsFrom(v.status.probeResults?.startup ?? {}),
      // A test that sets no gate runs with the cluster default; SidecarContainers is beta (on) in v1.29.
      features: { SidecarContainers: gates.SidecarContainers ?? true },
    },
  };
}

/** Runs one vector; returns the diff lines (empty when it passes). */
export function runPodActionsVector(v: PodActionsVector): string[] {
  const snap = snapshotFromVector(v);
  const actions = computePodActions(snap.pod, snap.podStatus, snap.deps);
  const expected = v.expected ?? {};
  const actual = projectActions(snap.pod, actions);
  const kills = (x: unknown): unknown[] => [...((x as unknown[] | null) ?? [])].sort(byContainerID);
  // containersToKill is a Go map: compare it as a set keyed by container ID.
  const exp = { ...expected, ...("containersToKill" in expected ? { containersToKill: kills(expected["containersToKill"]) } : {}) };
  const act = { ...actual, containersToKill: kills(actual["containersToKill"]) };
  return diffValues(exp, projectLike(exp, act));
}

/** PodActions in the vector's vocabulary: indexes plus names, kills with their spec list and index. */
export function projectActions(pod: Pod, a: PodActions): Record<string, unknown> {
  const names = (list: readonly { name: string }[], idx: number[] | null): string[] | null =>
    idx === null ? null : idx.map((i) => list[i]!.name);
  const inits = pod.spec.initContainers ?? [];
  return {
    killPod: a.KillPod,
    createSandbox: a.CreateSandbox,
    sandboxID: a.SandboxID,
    attempt: a.Attempt,
    nextInitContainerToStart: a.NextInitContainerToStart?.name ?? null,
    initContainersToStart: a.InitContainersToStart,
    initContainersToStartNames: names(inits, a.InitContainersToStart),
    containersToStart: a.ContainersToStart,
    containersToStartNames: names(pod.spec.containers, a.ContainersToStart),
    containersToKill: [...a.ContainersToKill.values()].map((k) => {
      const inMain = pod.spec.containers.indexOf(k.container);
      const specList = inMain >= 0 ? "containers" : "initContainers";
      const specIndex = inMain >= 0 ? inMain : inits.indexOf(k.container);
      return { containerID: k.containerID.id, name: k.name, specList, specIndex, message: k.message, reason: k.reason };
    }),
    ephemeralContainersToStart: a.EphemeralContainersToStart,
    ephemeralContainersToStartNames: names(pod.spec.ephemeralContainers ?? [], a.EphemeralContainersToStart),
  };
}

/** Keeps only the fields the expectation states (recursively), so unasserted fields never fail. */
export function projectLike(expected: unknown, actual: unknown): unknown {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    return actual.map((a, i) => projectLike(expected[i] ?? expected[0], a));
  }
  if (isObject(expected) && isObject(actual)) {
    return Object.fromEntries(Object.keys(expected).map((k) => [k, projectLike(expected[k], actual[k])]));
  }
  return actual;
}

function buildPod(p: PodActionsVector["pod"]): Pod {
  const container = (c: z.infer<typeof vectorContainer>): Container => {
    const out: Record<string, unknown> = { ...c };
    for (const probe of ["livenessProbe", "readinessProbe", "startupProbe"] as const) {
      // The vectors write `livenessProbe: true` for the test's `&v1.Probe{}`.
      if (c[probe] === true) out[probe] = {};
      else if (c[probe] === false) delete out[probe];
    }
    if (c.restartPolicy === "") delete out["restartPolicy"];
    return out as Container;
  };
  return {
    apiVersion: "v1",
    kind: "Pod",
    // makeAndSetFakePod's pod: name foo, namespace new, uid 12345678.
    metadata: {
      name: p.name ?? "foo",
      namespace: p.namespace ?? "new",
      uid: p.uid ?? "12345678",
      ...(p.deletionTimestamp ? { deletionTimestamp: p.deletionTimestamp } : {}),
    },
    spec: {
      // '' (unset in the test) stays unset: the kubelet treats it like Always without defaulting it.
      ...(p.restartPolicy ? { restartPolicy: p.restartPolicy } : {}),
      hostNetwork: p.hostNetwork ?? false,
      initContainers: (p.initContainers ?? []).map(container),
      containers: p.containers.map(container),
      ...(p.ephemeralContainers?.length ? { ephemeralContainers: p.ephemeralContainers.map(container) } : {}),
    },
  };
}

function buildSandbox(s: z.infer<typeof vectorSandbox>, pod: Pod, index: number): PodSandboxStatus {
  const out: PodSandboxStatus = {
    id: s.id,
    metadata: { name: pod.metadata.name, uid: pod.metadata.uid ?? "", namespace: pod.metadata.namespace ?? "", attempt: s.attempt ?? 0 },
    state: s.state === "READY" ? "SANDBOX_READY" : "SANDBOX_NOTREADY",
    // Index 0 is the newest, so creation times decrease along the list.
    createdAtMs: -index,
    linux: { namespaces: { options: { network: s.netnsMode ?? "POD" } } },
  };
  if (s.network != null) out.network = { ip: s.network.ip };
  return out;
}

function buildStatus(c: z.infer<typeof vectorContainerStatus>, pod: Pod, index: number): Status {
  const spec = [...pod.spec.containers, ...(pod.spec.initContainers ?? []), ...(pod.spec.ephemeralContainers ?? [])].find(
    (s) => s.name === c.name,
  );
  const expectedHash = spec ? HashContainer(spec as Container) : 0;
  // "changed" only has to differ from the spec's hash; flipping the low bit guarantees that.
  const hash = c.hash === "changed" ? (expectedHash ^ 1) >>> 0 : expectedHash;
  const status: Status = {
    id: { type: RUNTIME_TYPE, id: c.id },
    name: c.name,
    state: c.state,
    createdAtMs: -index,
    exitCode: c.exitCode ?? 0,
    image: spec?.image ?? "",
    imageID: "",
    hash,
    restartCount: 0,
    reason: c.reason ?? "",
    message: "",
  };
  if (c.state !== "created") status.startedAtMs = -index;
  if (c.state === "exited") status.finishedAtMs = -index;
  return status;
}

/** A probe results cache holding exactly the vector's entries; an absent key is "no result yet". */
function resultsFrom(entries: Record<string, Result>): ProbeResultsGetter {
  const byID = new Map(Object.entries(entries));
  return { get: (id: ContainerID) => byID.get(id.id) };
}

function byContainerID(a: unknown, b: unknown): number {
  const ka = String((a as { containerID?: unknown }).containerID);
  const kb = String((b as { containerID?: unknown }).containerID);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

