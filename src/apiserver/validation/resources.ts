// Models the container resource checks of pkg/apis/core/validation/validation.go
// (ValidateContainerResourceRequirements, validateResourceRequirements, validateContainerResourceName,
// ValidateResourceQuantityValue) and the name helpers of pkg/apis/core/helper/helpers.go.
//
// Quantities arrive as text (decode.ts refused the unparsable ones). Simplifications: resource
// claims and hugepage size divisibility are not modelled; map keys are visited in sorted order.
import { FieldPath, forbidden, invalid, required, type FieldError } from "./field.ts";
import { isQualifiedName } from "./names.ts";
import { IS_NEGATIVE_ERROR_MSG } from "./objectmeta.ts";
import { cmpQuantity, hasFraction, parseQuantity, quantityString, sign, type Quantity } from "./quantity.ts";
import { byCodeUnit, isObj } from "./raw.ts";

const STANDARD_CONTAINER_RESOURCES = new Set(["cpu", "memory", "ephemeral-storage"]);
const STANDARD_RESOURCES = new Set([
  "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
  "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services",
  "replicationcontrollers", "secrets", "persistentvolumeclaims", "configmaps", "services.nodeports",
  "services.loadbalancers",
]);
const INTEGER_RESOURCES = new Set([
  "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
  "persistentvolumeclaims", "services.nodeports", "services.loadbalancers",
]);
const REQUESTS_PREFIX = "requests.";

const isHugePageResourceName = (name: string) => name.startsWith("hugepages-");
const isQuotaHugePageResourceName = (name: string) => name.startsWith("hugepages-") || name.startsWith("requests.hugepages-");
/** IsNativeResource: no domain, or a kubernetes.io domain. */
export const isNativeResource = (name: string) => !name.includes("/") || name.includes("kubernetes.io/");
/** IsExtendedResourceName: a domain-qualified name outside kubernetes.io ("example.com/gpu"). */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(REQUESTS_PREFIX)) return false;
  return isQualifiedName(REQUESTS_PREFIX + name).length === 0;
}
/** IsOvercommitAllowed: requests below limits are fine for native resources other than hugepages. */
const isOvercommitAllowed = (name: string) => isNativeResource(name) && !isHugePageResourceName(name);
const isStandardContainerResourceName = (name: string) => STANDARD_CONTAINER_RESOURCES.has(name) || isHugePageResourceName(name);
const isStandardResourceName = (name: string) => STANDARD_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
const isIntegerResourceName = (name: string) => INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);

/** validateResourceName: a qualified name, and a standard resource when it has no domain. */
function validateResourceName(name: string, p: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalid(p, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes("/") && !isStandardResourceName(name)) {
    errs.push(invalid(p, name, "must be a standard resource type or fully qualified"));
  }
  return errs;
}

/** validateContainerResourceName */
function validateContainerResourceName(name: string, p: FieldPath): FieldError[] {
  const errs = validateResourceName(name, p);
  if (!name.includes("/")) {
    if (!isStandardContainerResourceName(name)) errs.push(invalid(p, name, "must be a standard resource for containers"));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(invalid(p, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** ValidateResourceQuantityValue: not negative; whole for integer resources. */
function validateResourceQuantityValue(name: string, q: Quantity, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (sign(q) < 0) errs.push(invalid(p, quantityString(q), IS_NEGATIVE_ERROR_MSG));
  if (isIntegerResourceName(name) && hasFraction(q)) errs.push(invalid(p, { stringer: quantityString(q) }, "must be an integer"));
  return errs;
}

/** A ResourceList as sorted (name, quantity) pairs; unparsable quantities were refused at decode. */
function resourceList(list: unknown): Array<[string, Quantity]> {
  if (!isObj(list)) return [];
  const out: Array<[string, Quantity]> = [];
  for (const name of Object.keys(list).sort(byCodeUnit)) {
    const r = parseQuantity(String(list[name]));
    if (r.ok) out.push([name, r.q]);
  }
  return out;
}

/** ValidateContainerResourceRequirements */
export function validateContainerResourceRequirements(resources: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = p.child("limits");
  const reqPath = p.child("requests");
  const limits = resourceList(isObj(resources) ? resources.limits : undefined);
  const requests = resourceList(isObj(resources) ? resources.requests : undefined);
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, q] of limits) {
    const fld = limPath.key(name);
    errs.push(...validateContainerResourceName(name, fld), ...validateResourceQuantityValue(name, q, fld));
    hugePages ||= isHugePageResourceName(name);
    cpuOrMemory ||= name === "cpu" || name === "memory";
  }
  for (const [name, q] of requests) {
    const fld = reqPath.key(name);
    errs.push(...validateContainerResourceName(name, fld), ...validateResourceQuantityValue(name, q, fld));
    const limit = limits.find(([n]) => n === name)?.[1];
    if (limit !== undefined) {
      // For resources that cannot be overcommitted, a request must equal its limit.
      if (cmpQuantity(q, limit) !== 0 && !isOvercommitAllowed(name)) {
        errs.push(invalid(reqPath, quantityString(q), `must be equal to ${name} limit of ${quantityString(limit)}`));
      } else if (cmpQuantity(q, limit) > 0) {
        errs.push(invalid(reqPath, quantityString(q), `must be less than or equal to ${name} limit of ${quantityString(limit)}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, "Limit must be set for non overcommitable resources"));
    }
    hugePages ||= isHugePageResourceName(name);
    cpuOrMemory ||= name === "cpu" || name === "memory";
  }
  if (!cpuOrMemory && hugePages) errs.push(forbidden(p, "HugePages require cpu or memory"));
  return errs;
}
