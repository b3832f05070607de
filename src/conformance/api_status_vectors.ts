// Runs api_status.yaml vectors (kubelet_pods_test.go) through convertToAPIContainerStatuses,
// generateAPIPodStatus and sortPodIPs.
//
// The Go test kubelet (newTestKubelet) becomes deps for generateAPIPodStatus: a fake probe manager
// that marks every regular container Ready (probetest.FakeManager.UpdatePodStatus), the real status
// manager preloaded with SetPodStatus(pod, previous status), node IPs 127.0.0.1 and ::1 unless the
// vector gives node addresses, and an empty reason cache. See docs/conformance.md.
import { z } from "zod";
import { parseRFC3339, formatRFC3339 } from "../apiserver/time.ts";
import type { ContainerStatus, Pod, PodStatus as APIPodStatus } from "../k8s/pod.ts";
import type { PodSandboxStatus, PodStatus, Status } from "../kubelet/container/runtime.ts";
import { convertToAPIContainerStatuses, generateAPIPodStatus, GetNodeHostIPs, kubeletPodsEra, sortPodIPs, type GenerateAPIPodStatusDeps } from "../kubelet/kubelet_pods.ts";
import { ReasonCache } from "../kubelet/reason_cache.ts";
import { featureGateDefault } from "../scenario/types/kubelet.ts";
import { diffValues, show } from "./diff.ts";
import { goValue } from "./go_equal.ts";
import { parsePart, testPod } from "./oracle2_pods.ts";
import { VectorError, type Outcome, type RunContext } from "./outcome.ts";
import { StatusHarness } from "./status_harness.ts";

export const apiStatusVectorSchema = z.looseObject({
  name: z.string(),
  id: z.string().optional(),
  function: z.string(),
  featureGates: z.record(z.string(), z.boolean()).optional(),
  input: z.record(z.string(), z.unknown()),
  expect: z.record(z.string(), z.unknown()),
});

export type ApiStatusVector = z.infer<typeof apiStatusVectorSchema>;

export function runApiStatusVector(v: ApiStatusVector, ctx: RunContext): Outcome {
  const fn = v.function;
  if (fn.startsWith("convertToAPIContainerStatuses")) return runConvert(v, ctx);
  if (fn.startsWith("generateAPIPodStatus(pod, runtimeStatus")) return runGenerate(v, ctx);
  if (fn.startsWith("generateAPIPodStatus(")) return runPodIPs(v, ctx);
  if (fn.startsWith("sortPodIPs")) return runSort(v);
  return [`function ${JSON.stringify(fn)}: no runner for it`];
}

/** The test clock: "now" and "normalized_now" are virtual time 0; "unix:N" is time.Unix(N, 0). */
const UNIX_EPOCH_MS = parseRFC3339("1970-01-01T00:00:00Z");
function timeMs(token: string): number | undefined {
  if (token === "now" || token === "normalized_now") return 0;
  const m = /^unix:(-?\d+)$/.exec(token);
  return m === null ? undefined : UNIX_EPOCH_MS + Number(m[1]) * 1000;
}

/**
 * Replaces the time tokens of an API object by RFC 3339 text, recursively, and gives a container
 * status written without a state Go's zero ContainerState ({}: a struct, never nil).
 */
function withTimes(value: unknown): unknown {
  const out = withTimeTokens(value);
  checkContainerStatuses(out);
  return out;
}

function checkContainerStatuses(value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  for (const [k, x] of Object.entries(value)) {
    if (/[cC]ontainerStatuses$|^previousStatus$/.test(k) && Array.isArray(x)) {
      for (const c of x) {
        if (typeof c !== "object" || c === null || typeof (c as { name?: unknown }).name !== "string") throw new VectorError(`${k}: a container status needs a name, got ${show(c)}`);
        const st = (c as { state?: unknown }).state;
        if (st === undefined || st === null) (c as { state?: unknown }).state = {};
        else if (typeof st !== "object") throw new VectorError(`${k}: state must be {waiting|running|terminated: ...}, got ${show(st)}`);
      }
    } else checkContainerStatuses(x);
  }
}

function withTimeTokens(value: unknown): unknown {
  if (typeof value === "string") {
    const ms = timeMs(value);
    return ms === undefined ? value : formatRFC3339(ms);
  }
  if (Array.isArray(value)) return value.map(withTimeTokens);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, withTimeTokens(x)]));
  }
  return value;
}

/** A container list is written as bare names; statuses are API-shaped already. */
const podInput = z.looseObject({
  name: z.string().optional(),
  deletionTimestamp: z.string().optional(),
  spec: z.looseObject({ nodeName: z.string().optional(), restartPolicy: z.enum(["Always", "OnFailure", "Never"]).optional(), containers: z.array(z.string()) }),
  status: z.record(z.string(), z.unknown()).optional(),
});

function podFrom(p: z.infer<typeof podInput>, hostNetwork = false): Pod {
  const meta = { ...(p.name === undefined ? {} : { name: p.name }), ...(p.deletionTimestamp === undefined ? {} : { deletionTimestamp: withTimes(p.deletionTimestamp) as string }) };
  return testPod(meta, {
    ...(p.spec.nodeName === undefined ? {} : { nodeName: p.spec.nodeName }),
    ...(p.spec.restartPolicy === undefined ? {} : { restartPolicy: p.spec.restartPolicy }),
    ...(hostNetwork ? { hostNetwork } : {}),
    containers: p.spec.containers.map((name) => ({ name })),
  }, p.status === undefined ? undefined : (withTimes(p.status) as APIPodStatus));
}

const runtimeInput = z.looseObject({
  sandboxStatuses: z.array(z.looseObject({ state: z.enum(["SANDBOX_READY", "SANDBOX_NOTREADY"]), network: z.looseObject({ ip: z.string() }).optional(), attempt: z.number().int().optional() })).optional(),
  containerStatuses: z.array(z.looseObject({ id: z.string(), name: z.string(), state: z.enum(["running", "exited", "created", "unknown"]), startedAt: z.string().optional() })).optional(),
});

/** kubecontainer.PodStatus from the vector; container IDs have an empty runtime type ("://c1"). */
function runtimeStatusFrom(pod: Pod, r: z.infer<typeof runtimeInput>, ips: readonly string[] = []): PodStatus {
  const sandboxes: PodSandboxStatus[] = (r.sandboxStatuses ?? []).map((s, i) => ({
    id: `sandbox-${i}`,
    metadata: { name: pod.metadata.name, uid: pod.metadata.uid ?? "", namespace: pod.metadata.namespace ?? "", attempt: s.attempt ?? 0 },
    state: s.state,
    createdAtMs: -i,
    ...(s.network === undefined ? {} : { network: { ip: s.network.ip } }),
  }));
  const containers: Status[] = (r.containerStatuses ?? []).map((c, i) => ({
    id: { type: "", id: c.id }, name: c.name, state: c.state, createdAtMs: -i,
    ...(c.startedAt === undefined ? {} : { startedAtMs: timeMs(c.startedAt) ?? 0 }),
    exitCode: 0, image: "", imageID: "", hash: 0, restartCount: 0, reason: "", message: "",
  }));
  return { id: pod.metadata.uid ?? "", name: pod.metadata.name, namespace: pod.metadata.namespace ?? "", ips: [...ips], containerStatuses: containers, sandboxStatuses: sandboxes };
}

/** The Go test kubelet's collaborators for generateAPIPodStatus (see the file comment). */
function testKubeletDeps(v: ApiStatusVector, ctx: RunContext, pod: Pod, previous: APIPodStatus | undefined, hostIPs: readonly string[], nodeIPs: readonly string[]): GenerateAPIPodStatusDeps {
  const sm = new StatusHarness({ minor: ctx.minor });
  sm.addPod(pod);
  if (previous !== undefined) sm.manager.SetPodStatus(pod, previous);
  const gate = (name: "PodReadyToStartContainersCondition" | "SidecarContainers") => v.featureGates?.[name] ?? featureGateDefault(name, ctx.minor);
  return {
    era: kubeletPodsEra(ctx.minor),
    reasonCache: new ReasonCache(),
    statusManagerPodStatus: (uid) => sm.manager.GetPodStatus(uid),
    // probetest.FakeManager.UpdatePodStatus: every regular container is Ready.
    probeManagerUpdatePodStatus: (_p, s) => {
      for (const c of s.containerStatuses ?? []) c.ready = true;
    },
    sidecarContainers: gate("SidecarContainers"),
    readyToStartContainersCondition: gate("PodReadyToStartContainersCondition"),
    hostIPs,
    nodeIPs,
  };
}

/** newTestKubelet's node: HostIP 127.0.0.1 and HostIPs 127.0.0.1, ::1. */
const TEST_NODE_IPS = ["127.0.0.1", "::1"];

const convertInput = z.looseObject({ pod: podInput, runtimeStatus: runtimeInput, previousStatus: z.array(z.record(z.string(), z.unknown())) });

/** TestConvertToAPIContainerStatuses: element-wise, as many elements as the function returned. */
function runConvert(v: ApiStatusVector, ctx: RunContext): string[] {
  const input = parsePart(convertInput, v.input, "input");
  const expect = parsePart(z.looseObject({ containerStatuses: z.array(z.unknown()) }), v.expect, "expect");
  const pod = podFrom(input.pod);
  const deps = testKubeletDeps(v, ctx, pod, undefined, TEST_NODE_IPS, []);
  const previous = (withTimes({ previousStatus: input.previousStatus }) as { previousStatus: ContainerStatus[] }).previousStatus;
  const got = convertToAPIContainerStatuses(pod, runtimeStatusFrom(pod, input.runtimeStatus), previous, pod.spec.containers, false, false, deps);
  return got.flatMap((s, i) => diffValues(goValue(withTimes(expect.containerStatuses[i])), goValue(s), `containerStatuses[${i}]`));
}

const generateInput = z.looseObject({
  pod: podInput,
  runtimeStatus: runtimeInput,
  statusManagerPreviousStatus: z.record(z.string(), z.unknown()).optional(),
  podIsTerminal: z.boolean(),
});

/** Test_generateAPIPodStatus: the whole status, Semantic.DeepEqual. */
function runGenerate(v: ApiStatusVector, ctx: RunContext): string[] {
  const input = parsePart(generateInput, v.input, "input");
  const expect = parsePart(z.looseObject({ status: z.record(z.string(), z.unknown()) }), v.expect, "expect");
  const pod = podFrom(input.pod);
  const previous = input.statusManagerPreviousStatus === undefined ? undefined : (withTimes(input.statusManagerPreviousStatus) as APIPodStatus);
  const deps = testKubeletDeps(v, ctx, pod, previous, TEST_NODE_IPS, []);
  const got = generateAPIPodStatus(pod, runtimeStatusFrom(pod, input.runtimeStatus), input.podIsTerminal, deps);
  return diffValues(goValue(ipObjects(withTimes(expect.status) as Record<string, unknown>)), goValue(got), "status");
}

/** The vectors write hostIPs and podIPs as plain strings; the API has {ip} objects. */
function ipObjects(status: Record<string, unknown>): Record<string, unknown> {
  const out = { ...status };
  for (const key of ["hostIPs", "podIPs"]) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((ip) => (typeof ip === "string" ? { ip } : ip));
  }
  return out;
}

const podIPsInput = z.looseObject({
  hostNetwork: z.boolean().optional(),
  kubeletNodeIPs: z.union([z.array(z.string()), z.string()]).optional(),
  kubeletNodeIP: z.string().nullable().optional(),
  nodeAddresses: z.array(z.looseObject({ type: z.string(), address: z.string() })).optional(),
  criPodIPs: z.array(z.string()).nullable().optional(),
  /** pod.Status.PodIPs before the call (TestNodeAddressUpdates...: the node IPs); PodIP is the first. */
  apiPodIPs: z.array(z.string()).nullable().optional(),
});

const podIPsExpect = z.looseObject({
  podIPs: z.array(z.string()),
  podIP: z.string().optional(),
  hostIPEqualsPodIPs0: z.boolean().optional(),
  kubeletNodeIPs0EqualsPodIPs0: z.boolean().optional(),
});

/** The host-network and dual-stack pod IP tests: generateAPIPodStatus(pod, {IPs}, false).podIPs. */
function runPodIPs(v: ApiStatusVector, ctx: RunContext): string[] {
  const input = parsePart(podIPsInput, v.input, "input");
  const expect = parsePart(podIPsExpect, v.expect, "expect");
  const nodeIPs = nodeIPsOf(input);
  const hostIPs = input.nodeAddresses === undefined ? TEST_NODE_IPS : GetNodeHostIPs(input.nodeAddresses);
  const apiIPs = input.apiPodIPs ?? [];
  const apiStatus = apiIPs.length === 0 ? undefined : { podIP: apiIPs[0]!, podIPs: apiIPs.map((ip) => ({ ip })) };
  const pod = testPod({ uid: "12345", name: "test-pod", namespace: "test-namespace" }, { hostNetwork: input.hostNetwork === true, containers: [] }, apiStatus);
  const deps = testKubeletDeps(v, ctx, pod, undefined, hostIPs, nodeIPs);
  const got = generateAPIPodStatus(pod, runtimeStatusFrom(pod, {}, input.criPodIPs ?? []), false, deps);
  const podIPs = (got.podIPs ?? []).map((p) => p.ip);
  const diffs = diffValues(expect.podIPs, podIPs, "podIPs");
  if (expect.podIP !== undefined && got.podIP !== expect.podIP) diffs.push(`podIP: expected ${show(expect.podIP)}, got ${show(got.podIP)}`);
  // "hostIP equals podIPs[0]" (and the node IP one) is checked either way: false says they differ.
  const hostSame = got.hostIP === podIPs[0];
  if (expect.hostIPEqualsPodIPs0 !== undefined && hostSame !== expect.hostIPEqualsPodIPs0) diffs.push(`hostIP ${show(got.hostIP)} equals podIPs[0] ${show(podIPs[0])}: expected ${expect.hostIPEqualsPodIPs0}, got ${hostSame}`);
  const nodeSame = nodeIPs[0] === podIPs[0];
  if (expect.kubeletNodeIPs0EqualsPodIPs0 !== undefined && nodeSame !== expect.kubeletNodeIPs0EqualsPodIPs0) diffs.push(`the kubelet's node IP ${show(nodeIPs[0])} equals podIPs[0] ${show(podIPs[0])}: expected ${expect.kubeletNodeIPs0EqualsPodIPs0}, got ${nodeSame}`);
  return diffs;
}

/** kl.nodeIPs: the vector's list or single IP; "not set by the test" and null mean none. */
function nodeIPsOf(input: z.infer<typeof podIPsInput>): string[] {
  if (Array.isArray(input.kubeletNodeIPs)) return input.kubeletNodeIPs;
  if (typeof input.kubeletNodeIP === "string") return [input.kubeletNodeIP];
  return [];
}

/** TestSortPodIPs: sortPodIPs with kl.nodeIPs = [nodeIP], or none. */
function runSort(v: ApiStatusVector): string[] {
  const input = parsePart(z.looseObject({ kubeletNodeIP: z.string().nullable().optional(), podIPs: z.array(z.string()) }), v.input, "input");
  const expect = parsePart(z.looseObject({ ips: z.array(z.string()).nullable() }), v.expect, "expect");
  const nodeIPs = typeof input.kubeletNodeIP === "string" ? [input.kubeletNodeIP] : [];
  return diffValues(expect.ips ?? [], sortPodIPs(input.podIPs, nodeIPs), "ips");
}
