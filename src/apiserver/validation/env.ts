// Models the environment checks of pkg/apis/core/validation/validation.go: ValidateEnv,
// validateEnvVarValueFrom, ValidateEnvFrom and the key selectors they use.
//
// Simplification: a fieldRef path is checked against the supported list as written; upstream
// first converts it through ConvertDownwardAPIFieldLabel, and checks resource divisors.
import { FieldPath, invalid, notSupported, required, type FieldError } from "./field.ts";
import { isConfigMapKey, isEnvVarName, isQualifiedName, isRelaxedEnvVarName, nameIsDNSSubdomain } from "./names.ts";
import type { PodValidationOptions } from "./options.ts";
import { byCodeUnit, get, isObj, list, str } from "./raw.ts";

const ENV_FIELD_PATHS = [
  "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName",
  "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs",
].sort(byCodeUnit);
const CONTAINER_RESOURCE_PATHS = [
  "limits.cpu", "limits.memory", "limits.ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
].sort(byCodeUnit);
const HUGEPAGES_PREFIXES = ["requests.hugepages-", "limits.hugepages-"];

/** ValidateEnv: every variable named; valueFrom, when set, names exactly one source. */
export function validateEnv(vars: unknown, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  list(vars).forEach((ev, i) => {
    const at = p.index(i);
    const name = str(get(ev, "name"));
    if (name.length === 0) errs.push(required(at.child("name"), ""));
    else {
      const msgs = opts.allowRelaxedEnvironmentVariableValidation ? isRelaxedEnvVarName(name) : isEnvVarName(name);
      errs.push(...msgs.map((msg) => invalid(at.child("name"), name, msg)));
    }
    errs.push(...validateEnvVarValueFrom(ev, at.child("valueFrom")));
  });
  return errs;
}

function validateEnvVarValueFrom(ev: unknown, p: FieldPath): FieldError[] {
  const from = get(ev, "valueFrom");
  if (!isObj(from)) return [];
  const errs: FieldError[] = [];
  let numSources = 0;
  if (isObj(from.fieldRef)) {
    numSources++;
    errs.push(...validateObjectFieldSelector(from.fieldRef, p.child("fieldRef")));
  }
  if (isObj(from.resourceFieldRef)) {
    numSources++;
    errs.push(...validateResourceFieldSelector(from.resourceFieldRef, p.child("resourceFieldRef")));
  }
  if (isObj(from.configMapKeyRef)) {
    numSources++;
    errs.push(...validateKeySelector(from.configMapKeyRef, p.child("configMapKeyRef")));
  }
  if (isObj(from.secretKeyRef)) {
    numSources++;
    errs.push(...validateKeySelector(from.secretKeyRef, p.child("secretKeyRef")));
  }
  if (numSources === 0) errs.push(invalid(p, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
  else if (str(get(ev, "value")).length !== 0) errs.push(invalid(p, "", "may not be specified when `value` is not empty"));
  else if (numSources > 1) errs.push(invalid(p, "", "may not have more than one field specified at a time"));
  return errs;
}

function validateObjectFieldSelector(fs: unknown, p: FieldPath): FieldError[] {
  if (str(get(fs, "apiVersion")).length === 0) return [required(p.child("apiVersion"), "")];
  const path = str(get(fs, "fieldPath"));
  if (path.length === 0) return [required(p.child("fieldPath"), "")];
  const sub = /^(metadata\.(?:labels|annotations))\['(.*)'\]$/.exec(path);
  if (sub) {
    const key = sub[1] === "metadata.annotations" ? sub[2]!.toLowerCase() : sub[2]!;
    return isQualifiedName(key).map((msg) => invalid(p, key, msg));
  }
  return ENV_FIELD_PATHS.includes(path) ? [] : [notSupported(p.child("fieldPath"), path, ENV_FIELD_PATHS)];
}

function validateResourceFieldSelector(fs: unknown, p: FieldPath): FieldError[] {
  const resource = str(get(fs, "resource"));
  if (resource.length === 0) return [required(p.child("resource"), "")];
  if (CONTAINER_RESOURCE_PATHS.includes(resource) || HUGEPAGES_PREFIXES.some((x) => resource.startsWith(x))) return [];
  return [notSupported(p.child("resource"), resource, CONTAINER_RESOURCE_PATHS)];
}

/** validateConfigMapKeySelector and validateSecretKeySelector: a DNS subdomain name and a key. */
function validateKeySelector(s: unknown, p: FieldPath): FieldError[] {
  const name = str(get(s, "name"));
  const key = str(get(s, "key"));
  const errs = nameIsDNSSubdomain(name).map((msg) => invalid(p.child("name"), name, msg));
  if (key.length === 0) errs.push(required(p.child("key"), ""));
  else errs.push(...isConfigMapKey(key).map((msg) => invalid(p.child("key"), key, msg)));
  return errs;
}

/** ValidateEnvFrom: a valid prefix; exactly one of configMapRef or secretRef. */
export function validateEnvFrom(sources: unknown, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  list(sources).forEach((ev, i) => {
    const at = p.index(i);
    const prefix = str(get(ev, "prefix"));
    if (prefix.length > 0) {
      const msgs = opts.allowRelaxedEnvironmentVariableValidation ? isRelaxedEnvVarName(prefix) : isEnvVarName(prefix);
      errs.push(...msgs.map((msg) => invalid(at.child("prefix"), prefix, msg)));
    }
    let numSources = 0;
    for (const ref of ["configMapRef", "secretRef"]) {
      const src = get(ev, ref);
      if (!isObj(src)) continue;
      numSources++;
      const name = str(src.name);
      if (name.length === 0) errs.push(required(at.child(ref, "name"), ""));
      else errs.push(...nameIsDNSSubdomain(name).map((msg) => invalid(at.child(ref, "name"), name, msg)));
    }
    if (numSources === 0) errs.push(invalid(p, "", "must specify one of: `configMapRef` or `secretRef`"));
    else if (numSources > 1) errs.push(invalid(p, "", "may not have more than one field specified at a time"));
  });
  return errs;
}
