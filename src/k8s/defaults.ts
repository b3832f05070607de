// Models pkg/apis/core/v1/defaults.go (SetDefaults_Pod, _PodSpec, _Container, _Probe, _HTTPGetAction).
//
// The apiserver applies these defaults when a pod is created; the kubelet only ever sees defaulted
// pods, so a scenario manifest passes through defaultPod before any model reads it. Defaults for
// things the simulator does not model (dnsPolicy, schedulerName, securityContext, enableServiceLinks,
// pod-level resources) are left out on purpose. The namespace default comes from the request
// context in the apiserver, not from defaults.go; it is applied here for convenience.
import type { Container, EphemeralContainer, HTTPGetAction, LifecycleHandler, Pod, Probe } from "./pod.ts";
import { parseImageName } from "./image.ts";
import { cloneJSON } from "./json.ts";

export const DEFAULT_NAMESPACE = "default";
/** v1.DefaultTerminationGracePeriodSeconds */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
/** v1.TerminationMessagePathDefault */
export const TERMINATION_MESSAGE_PATH_DEFAULT = "/dev/termination-log";

/** Returns a defaulted deep copy of the pod; the input is never mutated. */
export function defaultPod(input: Pod): Pod {
  const pod = cloneJSON(input);
  pod.metadata.namespace ||= DEFAULT_NAMESPACE;
  const spec = pod.spec;
  // SetDefaults_PodSpec
  spec.restartPolicy ||= "Always";
  spec.terminationGracePeriodSeconds ??= DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  for (const c of spec.containers) setDefaultsContainer(c);
  for (const c of spec.initContainers ?? []) setDefaultsContainer(c);
  for (const c of spec.ephemeralContainers ?? []) setDefaultsContainer(c);
  // SetDefaults_Pod: requests default to limits for regular and init containers.
  for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) defaultRequestsToLimits(c);
  if (spec.hostNetwork) {
    for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) defaultHostNetworkPorts(c);
  }
  return pod;
}

/** SetDefaults_Container, plus the nested probe and handler defaults the generated code visits. */
export function setDefaultsContainer(c: Container | EphemeralContainer): void {
  if (!c.imagePullPolicy) {
    // "Ignore error and assume it has been validated elsewhere": an unparsable name has tag "".
    const { tag } = parseImageName(c.image ?? "");
    c.imagePullPolicy = tag === "latest" ? "Always" : "IfNotPresent";
  }
  c.terminationMessagePath ||= TERMINATION_MESSAGE_PATH_DEFAULT;
  c.terminationMessagePolicy ||= "File";
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
    if (probe) setDefaultsProbe(probe);
  }
  for (const handler of [c.lifecycle?.postStart, c.lifecycle?.preStop]) {
    if (handler) setDefaultsHandler(handler);
  }
}

/** SetDefaults_Probe: zero means unset, exactly as the Go code tests it. */
export function setDefaultsProbe(p: Probe): void {
  if (!p.timeoutSeconds) p.timeoutSeconds = 1;
  if (!p.periodSeconds) p.periodSeconds = 10;
  if (!p.successThreshold) p.successThreshold = 1;
  if (!p.failureThreshold) p.failureThreshold = 3;
  if (p.httpGet) setDefaultsHTTPGetAction(p.httpGet);
}

function setDefaultsHandler(h: LifecycleHandler): void {
  if (h.httpGet) setDefaultsHTTPGetAction(h.httpGet);
}

/** SetDefaults_HTTPGetAction */
export function setDefaultsHTTPGetAction(a: HTTPGetAction): void {
  a.path ||= "/";
  a.scheme ||= "HTTP";
}

function defaultRequestsToLimits(c: Container): void {
  const limits = c.resources?.limits;
  if (!limits || !c.resources) return;
  const requests = (c.resources.requests ??= {});
  for (const key of Object.keys(limits).sort()) {
    if (!(key in requests)) requests[key] = limits[key]!;
  }
}

/** defaultHostNetworkPorts: with host networking every container port is also a host port. */
function defaultHostNetworkPorts(c: Container): void {
  for (const port of c.ports ?? []) {
    if (!port.hostPort) port.hostPort = port.containerPort;
  }
}

/**
 * The defaults of defaults.go for fields the models do not read (SetDefaults_PodSpec dnsPolicy,
 * SetDefaults_ContainerPort protocol, SetDefaults_ObjectFieldSelector apiVersion, SetDefaults_Volume).
 * The apiserver applies them before it validates, so validation sees them; defaultPod leaves them
 * out so that what the models read (and a static pod's hash) stays as it was.
 */
export function defaultUnmodelledFields(input: Pod): Pod {
  const pod = cloneJSON(input);
  const spec = pod.spec as Pod["spec"] & { volumes?: unknown };
  spec.dnsPolicy ||= "ClusterFirst";
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])]) {
    for (const port of c.ports ?? []) port.protocol ||= "TCP";
    for (const env of c.env ?? []) {
      const fieldRef = (env.valueFrom as { fieldRef?: { apiVersion?: string } } | undefined)?.fieldRef;
      if (fieldRef !== null && typeof fieldRef === "object") fieldRef.apiVersion ||= "v1";
    }
  }
  if (Array.isArray(spec.volumes)) {
    for (const v of spec.volumes as Array<Record<string, unknown>>) {
      // SetDefaults_Volume: a volume with no source at all is an emptyDir.
      if (v !== null && typeof v === "object" && Object.keys(v).every((k) => k === "name" || v[k] === undefined || v[k] === null)) {
        v.emptyDir = {};
      }
    }
  }
  return pod;
}
