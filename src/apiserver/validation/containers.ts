// Models the container checks of pkg/apis/core/validation/validation.go: validateContainerCommon,
// validateContainers, validateInitContainers (sidecars: restartPolicy Always), validateEphemeralContainers,
// validateContainerOnlyForPod, validateContainerPorts, validatePullPolicy, validateResizePolicy
// and the host port conflict check.
//
// Simplification: securityContext and volumeDevices are not modelled.
import type { Container, EphemeralContainer } from "../../k8s/pod.ts";
import { validateEnv, validateEnvFrom } from "./env.ts";
import { FieldPath, duplicate, forbidden, invalid, notFound, notSupported, required, type FieldError } from "./field.ts";
import { isDNS1123Label, isValidPortName, isValidPortNum } from "./names.ts";
import type { PodValidationOptions } from "./options.ts";
import { validateLifecycle, validateLivenessOrStartupProbe, validateReadinessProbe } from "./probes.ts";
import { get, int, isObj, list, str } from "./raw.ts";
import { validateContainerResourceRequirements } from "./resources.ts";
import { validateVolumeMounts } from "./volumes.ts";

/** What every container's checks need from the pod around it. */
export interface ContainerContext {
  readonly volumes: ReadonlySet<string>;
  /** spec.terminationGracePeriodSeconds (a sleep hook may not outlast it); null when unset. */
  readonly gracePeriod: number | null;
  readonly podRestartPolicy: string;
  readonly opts: PodValidationOptions;
}

const SUPPORTED_PORT_PROTOCOLS = ["SCTP", "TCP", "UDP"];
const SUPPORTED_PULL_POLICIES = ["Always", "IfNotPresent", "Never"];
const TERMINATION_MESSAGE_POLICIES = ["File", "FallbackToLogsOnError"];

/** validateContainerPorts: names unique and valid, port numbers in range, a known protocol. */
function validateContainerPorts(ports: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list(ports).forEach((port, i) => {
    const at = p.index(i);
    const name = str(get(port, "name"));
    if (name.length > 0) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) errs.push(...msgs.map((msg) => invalid(at.child("name"), name, msg)));
      else if (names.has(name)) errs.push(duplicate(at.child("name"), name));
      else names.add(name);
    }
    const containerPort = int(get(port, "containerPort"));
    if (containerPort === 0) errs.push(required(at.child("containerPort"), ""));
    else errs.push(...isValidPortNum(containerPort).map((msg) => invalid(at.child("containerPort"), containerPort, msg)));
    const hostPort = int(get(port, "hostPort"));
    if (hostPort !== 0) errs.push(...isValidPortNum(hostPort).map((msg) => invalid(at.child("hostPort"), hostPort, msg)));
    const protocol = str(get(port, "protocol"));
    if (protocol.length === 0) errs.push(required(at.child("protocol"), ""));
    else if (!SUPPORTED_PORT_PROTOCOLS.includes(protocol)) errs.push(notSupported(at.child("protocol"), protocol, SUPPORTED_PORT_PROTOCOLS));
  });
  return errs;
}

function validatePullPolicy(policy: string, p: FieldPath): FieldError[] {
  if (SUPPORTED_PULL_POLICIES.includes(policy)) return [];
  return policy === "" ? [required(p, "")] : [notSupported(p, policy, SUPPORTED_PULL_POLICIES)];
}

/** validateResizePolicy: cpu and memory at most once each; NotRequired only under restartPolicy Never. */
function validateResizePolicy(policies: unknown, p: FieldPath, podRestartPolicy: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list(policies).forEach((policy, i) => {
    const resourceName = str(get(policy, "resourceName"));
    const restartPolicy = str(get(policy, "restartPolicy"));
    if (seen.has(resourceName)) errs.push(duplicate(p.index(i), resourceName));
    seen.add(resourceName);
    if (resourceName === "") errs.push(required(p, ""));
    else if (resourceName !== "cpu" && resourceName !== "memory") errs.push(notSupported(p, resourceName, ["cpu", "memory"]));
    if (restartPolicy === "") errs.push(required(p, ""));
    else if (restartPolicy !== "NotRequired" && restartPolicy !== "RestartContainer") {
      errs.push(notSupported(p, restartPolicy, ["NotRequired", "RestartContainer"]));
    }
    if (podRestartPolicy === "Never" && restartPolicy !== "NotRequired") {
      errs.push(invalid(p, restartPolicy, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
    }
  });
  return errs;
}

/** validateContainerCommon: what every kind of container must get right. */
function validateContainerCommon(ctr: Container | EphemeralContainer, ctx: ContainerContext, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(ctr.name);
  if (name.length === 0) errs.push(required(p.child("name"), ""));
  else errs.push(...isDNS1123Label(name).map((msg) => invalid(p.child("name"), name, msg)));
  // Leading and trailing whitespace is not checked here, for pod templates' sake (see validateContainerOnlyForPod).
  if (str(ctr.image).length === 0) errs.push(required(p.child("image"), ""));
  const tmp = str(ctr.terminationMessagePolicy);
  if (tmp === "") errs.push(required(p.child("terminationMessagePolicy"), ""));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(tmp)) errs.push(notSupported(p.child("terminationMessagePolicy"), tmp, TERMINATION_MESSAGE_POLICIES));
  errs.push(
    ...validateContainerPorts(ctr.ports, p.child("ports")),
    ...validateEnv(ctr.env, p.child("env"), ctx.opts),
    ...validateEnvFrom(get(ctr, "envFrom"), p.child("envFrom"), ctx.opts),
    ...validateVolumeMounts(get(ctr, "volumeMounts"), ctx.volumes, p.child("volumeMounts")),
    ...validatePullPolicy(str(ctr.imagePullPolicy), p.child("imagePullPolicy")),
    ...validateContainerResourceRequirements(ctr.resources, p.child("resources")),
    ...validateResizePolicy(get(ctr, "resizePolicy"), p.child("resizePolicy"), ctx.podRestartPolicy),
  );
  return errs;
}

/** The hooks and probes a regular container or a sidecar may carry. */
function validateHooksAndProbes(ctr: Container, ctx: ContainerContext, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (isObj(ctr.lifecycle)) errs.push(...validateLifecycle(ctr.lifecycle, ctx.gracePeriod, p.child("lifecycle"), ctx.opts));
  errs.push(
    ...validateLivenessOrStartupProbe(ctr.livenessProbe, ctx.gracePeriod, p.child("livenessProbe"), ctx.opts),
    ...validateReadinessProbe(ctr.readinessProbe, ctx.gracePeriod, p.child("readinessProbe"), ctx.opts),
    ...validateLivenessOrStartupProbe(ctr.startupProbe, ctx.gracePeriod, p.child("startupProbe"), ctx.opts),
  );
  return errs;
}

/** checkHostPortConflicts (AccumulateUniqueHostPorts): a protocol/hostIP/hostPort is used once. */
function checkHostPortConflicts(containers: readonly Container[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((ctr, ci) => {
    list(ctr.ports).forEach((port, pi) => {
      const hostPort = int(get(port, "hostPort"));
      if (hostPort === 0) return;
      const key = `${str(get(port, "protocol"))}/${str(get(port, "hostIP"))}/${hostPort}`;
      if (seen.has(key)) errs.push(duplicate(p.index(ci).child("ports").index(pi).child("hostPort"), key));
      else seen.add(key);
    });
  });
  return errs;
}

/** validateContainers: at least one; names unique among them; no restartPolicy. */
export function validateContainers(containers: readonly Container[], ctx: ContainerContext, p: FieldPath): FieldError[] {
  if (containers.length === 0) return [required(p, "")];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((ctr, i) => {
    const at = p.index(i);
    errs.push(...validateContainerCommon(ctr, ctx, at));
    // Collisions with init or ephemeral containers are reported by their own checks, once.
    if (names.has(str(ctr.name))) errs.push(duplicate(at.child("name"), str(ctr.name)));
    else names.add(str(ctr.name));
    errs.push(...validateHooksAndProbes(ctr, ctx, at));
    if (ctr.restartPolicy !== undefined && ctr.restartPolicy !== null) errs.push(forbidden(at.child("restartPolicy"), "may not be set for non-init containers"));
  });
  errs.push(...checkHostPortConflicts(containers, p));
  return errs;
}

const INIT_FORBIDDEN = "may not be set for init containers without restartPolicy=Always";

/** validateInitContainers: names unique across init and regular containers; hooks and probes only on sidecars. */
export function validateInitContainers(inits: readonly Container[], regular: readonly Container[], ctx: ContainerContext, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(regular.map((c) => str(c.name)));
  inits.forEach((ctr, i) => {
    const at = p.index(i);
    errs.push(...validateContainerCommon(ctr, ctx, at));
    const restartPolicy = ctr.restartPolicy as unknown;
    let restartAlways = false;
    if (restartPolicy !== undefined && restartPolicy !== null) {
      if (restartPolicy !== "Always") errs.push(notSupported(at.child("restartPolicy"), str(restartPolicy), ["Always"]));
      restartAlways = restartPolicy === "Always";
    }
    const name = str(ctr.name);
    if (names.has(name)) errs.push(duplicate(at.child("name"), name));
    else if (name.length > 0) names.add(name);
    // Init containers run one at a time, so each is checked for port conflicts on its own.
    errs.push(...checkHostPortConflicts([ctr], p));
    if (restartAlways) errs.push(...validateHooksAndProbes(ctr, ctx, at));
    else {
      for (const f of ["lifecycle", "livenessProbe", "readinessProbe", "startupProbe"] as const) {
        if (ctr[f] !== undefined && ctr[f] !== null) errs.push(forbidden(at.child(f), INIT_FORBIDDEN));
      }
    }
    const resize = list(get(ctr, "resizePolicy"));
    if (!ctx.opts.allowSidecarResizePolicy && resize.length > 0) {
      errs.push(invalid(at.child("resizePolicy"), { goSyntax: "[]core.ContainerResizePolicy{...}" }, "must not be set for init containers"));
    }
  });
  return errs;
}

/**
 * The EphemeralContainerCommon fields an ephemeral container may not set, in struct order
 * (validateFieldAllowList over allowedEphemeralContainerFields). A list counts as set even when
 * empty, as reflect.DeepEqual tells an empty slice from a nil one.
 */
const EPHEMERAL_DISALLOWED = ["ports", "resources", "resizePolicy", "restartPolicy", "livenessProbe", "readinessProbe", "startupProbe", "lifecycle"];

function isSet(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (isObj(v)) return Object.values(v).some((x) => x !== undefined && x !== null);
  return true;
}

/** validateEphemeralContainers: names unique across all three lists; a target that exists; no pod-service fields. */
export function validateEphemeralContainers(ephemerals: readonly EphemeralContainer[], containers: readonly Container[],
  inits: readonly Container[], ctx: ContainerContext, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const otherNames = new Set([...containers, ...inits].map((c) => str(c.name)));
  const allNames = new Set(otherNames);
  ephemerals.forEach((ec, i) => {
    const at = p.index(i);
    errs.push(...validateContainerCommon(ec, ctx, at), ...validateContainerOnlyForPod(ec, at));
    const name = str(ec.name);
    if (allNames.has(name)) errs.push(duplicate(at.child("name"), name));
    else allNames.add(name);
    const target = str(ec.targetContainerName);
    if (target !== "" && !otherNames.has(target)) errs.push(notFound(at.child("targetContainerName"), target));
    for (const f of EPHEMERAL_DISALLOWED) {
      if (isSet(get(ec, f))) errs.push(forbidden(at.child(f), "cannot be set for an Ephemeral Container"));
    }
    list(get(ec, "volumeMounts")).forEach((vm, j) => {
      for (const sub of ["subPath", "subPathExpr"]) {
        if (str(get(vm, sub)) !== "") errs.push(forbidden(at.child("volumeMounts").index(j).child(sub), "cannot be set for an Ephemeral Container"));
      }
    });
  });
  return errs;
}

// unicode.IsSpace, which strings.TrimSpace trims: not quite JavaScript's \s (U+0085 yes, U+FEFF no).
const GO_SPACE = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const GO_TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, "g");

/** validateContainerOnlyForPod: a pod's image may not start or end with whitespace. */
export function validateContainerOnlyForPod(ctr: Container | EphemeralContainer, p: FieldPath): FieldError[] {
  const image = str(ctr.image);
  return image.replace(GO_TRIM, "").length !== image.length
    ? [invalid(p.child("image"), image, "must not have leading or trailing whitespace")]
    : [];
}

