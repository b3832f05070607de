// Models ValidatePodSpec of pkg/apis/core/validation/validation.go, with the checks it calls in its
// order: grace period, volumes, containers (regular, init, ephemeral), host network, restart and
// DNS policies, node selector, readiness and scheduling gates, names, deadlines and tolerations.
//
// Simplification: securityContext, imagePullSecrets, affinity, dnsConfig, topology spread,
// hostAliases, overhead, pod-level resources, resource claims and os are not modelled.
import type { PodSpec } from "../../k8s/pod.ts";
import { validateContainers, validateEphemeralContainers, validateInitContainers, type ContainerContext } from "./containers.ts";
import { FieldPath, duplicate, invalid, notSupported, required, type FieldError } from "./field.ts";
import { inclusiveRangeError, isDNS1123Label, isQualifiedName, isValidLabelValue, nameIsDNSSubdomain } from "./names.ts";
import { validateLabelName, validateLabels } from "./objectmeta.ts";
import type { PodValidationOptions } from "./options.ts";
import { get, int, intPtr, list, str } from "./raw.ts";
import { validateVolumes } from "./volumes.ts";

const MAX_INT32 = 2 ** 31 - 1;
const RESTART_POLICIES = ["Always", "OnFailure", "Never"];
const DNS_POLICIES = ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"];
const TAINT_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/** validateRestartPolicy (also DNS and preemption policies): one of the listed values. */
function validateEnum(value: string, valid: readonly string[], p: FieldPath): FieldError[] {
  if (valid.includes(value)) return [];
  return value === "" ? [required(p, "")] : [notSupported(p, value, valid)];
}

/** validatePodHostNetworkDeps: under hostNetwork a pod's hostPort must equal its containerPort. */
function validatePodHostNetworkDeps(spec: PodSpec, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  spec.containers.forEach((c, i) => {
    list(c.ports).forEach((port, j) => {
      const hp = int(get(port, "hostPort"));
      const cp = int(get(port, "containerPort"));
      if ((opts.resourceIsPod || hp !== 0) && hp !== cp) {
        const at = p.child("containers").index(i).child("ports").index(j).child("hostPort");
        errs.push(invalid(at, hp, "must match `containerPort` when `hostNetwork` is true"));
      }
    });
  });
  return errs;
}

/** ValidateTolerations */
export function validateTolerations(tolerations: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  list(tolerations).forEach((t, i) => {
    const at = p.index(i);
    const key = str(get(t, "key"));
    const operator = str(get(t, "operator"));
    const value = str(get(t, "value"));
    const effect = str(get(t, "effect"));
    if (key.length > 0) errs.push(...validateLabelName(key, at.child("key")));
    if (key.length === 0 && operator !== "Exists") {
      errs.push(invalid(at.child("operator"), operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    const seconds = get(t, "tolerationSeconds");
    if (seconds !== undefined && seconds !== null && effect !== "NoExecute") {
      errs.push(invalid(at.child("effect"), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === "Equal" || operator === "") {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0) errs.push(invalid(at.child("operator"), value, msgs.join(";")));
    } else if (operator === "Exists") {
      if (value.length > 0) errs.push(invalid(at.child("operator"), value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(notSupported(at.child("operator"), operator, ["Equal", "Exists"]));
    }
    if (effect.length > 0 && !TAINT_EFFECTS.includes(effect)) errs.push(notSupported(at.child("effect"), effect, TAINT_EFFECTS));
  });
  return errs;
}

function validateGates(spec: PodSpec, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  list(get(spec, "readinessGates")).forEach((g, i) => {
    const type = str(get(g, "conditionType"));
    errs.push(...isQualifiedName(type).map((msg) => invalid(p.child("readinessGates").index(i).child("conditionType"), type, msg)));
  });
  const seen = new Set<string>();
  list(get(spec, "schedulingGates")).forEach((g, i) => {
    const name = str(get(g, "name"));
    const at = p.child("schedulingGates").index(i);
    errs.push(...isQualifiedName(name).map((msg) => invalid(at, name, msg)));
    if (seen.has(name)) errs.push(duplicate(at, name));
    seen.add(name);
  });
  return errs;
}

/** The name-shaped fields of a spec, each checked only when set. */
function validateSpecNames(spec: PodSpec, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const named = (field: string, value: string, fn: (v: string) => string[]) => {
    if (value.length > 0) errs.push(...fn(value).map((msg) => invalid(p.child(field), value, msg)));
  };
  named("serviceAccountName", str(spec.serviceAccountName), nameIsDNSSubdomain);
  named("nodeName", str(spec.nodeName), nameIsDNSSubdomain);
  const deadline = intPtr(spec.activeDeadlineSeconds);
  if (deadline !== null && (deadline < 1 || deadline > MAX_INT32)) {
    errs.push(invalid(p.child("activeDeadlineSeconds"), deadline, inclusiveRangeError(1, MAX_INT32)));
  }
  named("hostname", str(get(spec, "hostname")), isDNS1123Label);
  named("subdomain", str(get(spec, "subdomain")), isDNS1123Label);
  errs.push(...validateTolerations(get(spec, "tolerations"), p.child("tolerations")));
  named("priorityClassName", str(spec.priorityClassName), nameIsDNSSubdomain);
  const runtimeClassName = get(spec, "runtimeClassName");
  if (typeof runtimeClassName === "string") {
    errs.push(...nameIsDNSSubdomain(runtimeClassName).map((msg) => invalid(p.child("runtimeClassName"), runtimeClassName, msg)));
  }
  const preemption = get(spec, "preemptionPolicy");
  if (typeof preemption === "string") errs.push(...validateEnum(preemption, ["PreemptLowerPriority", "Never"], p.child("preemptionPolicy")));
  return errs;
}

/** ValidatePodSpec */
export function validatePodSpec(spec: PodSpec, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const gracePeriod = intPtr(spec.terminationGracePeriodSeconds);
  if (gracePeriod === null) errs.push(required(p.child("terminationGracePeriodSeconds"), ""));
  const vols = validateVolumes(get(spec, "volumes"), p.child("volumes"));
  errs.push(...vols.errs);
  const ctx: ContainerContext = { volumes: vols.names, gracePeriod, podRestartPolicy: str(spec.restartPolicy), opts };
  const containers = spec.containers ?? [];
  const inits = spec.initContainers ?? [];
  errs.push(
    ...validateContainers(containers, ctx, p.child("containers")),
    ...validateInitContainers(inits, containers, ctx, p.child("initContainers")),
    ...validateEphemeralContainers(spec.ephemeralContainers ?? [], containers, inits, ctx, p.child("ephemeralContainers")),
    ...validatePodHostNetworkDeps(spec, p, opts),
    ...validateEnum(str(spec.restartPolicy), RESTART_POLICIES, p.child("restartPolicy")),
    ...validateEnum(str(spec.dnsPolicy), DNS_POLICIES, p.child("dnsPolicy")),
    ...validateLabels(get(spec, "nodeSelector"), p.child("nodeSelector")),
    ...validateGates(spec, p),
    ...validateSpecNames(spec, p),
  );
  return errs;
}
