// Models the probe and lifecycle-hook checks of pkg/apis/core/validation/validation.go:
// validateLivenessProbe, validateReadinessProbe, validateStartupProbe, validateProbe,
// validateHandler (exactly one handler type), validateLifecycle, the action checks and
// ValidatePortNumOrName.
import type { Lifecycle, Probe } from "../../k8s/pod.ts";
import { FieldPath, forbidden, invalid, notSupported, required, type FieldError } from "./field.ts";
import { isHTTPHeaderName, isValidPortName, isValidPortNum } from "./names.ts";
import { validateNonnegativeField } from "./objectmeta.ts";
import type { PodValidationOptions } from "./options.ts";
import { get, int, isObj, list, str } from "./raw.ts";

/** commonHandler: the handler fields a probe or a hook may set, in the order they are checked. */
interface CommonHandler {
  exec?: unknown;
  httpGet?: unknown;
  tcpSocket?: unknown;
  grpc?: unknown;
  sleep?: unknown;
}

const present = (v: unknown) => v !== undefined && v !== null;

/** handlerFromProbe: a probe has no sleep action. */
const handlerFromProbe = (p: Probe): CommonHandler => ({ exec: p.exec, httpGet: p.httpGet, tcpSocket: p.tcpSocket, grpc: p.grpc });
/** handlerFromLifecycle: a hook has no gRPC action. */
const handlerFromLifecycle = (h: unknown): CommonHandler => ({
  exec: get(h, "exec"), httpGet: get(h, "httpGet"), tcpSocket: get(h, "tcpSocket"), sleep: get(h, "sleep"),
});

/** ValidatePortNumOrName: a number in 1..65535, or an IANA service name. */
export function validatePortNumOrName(port: unknown, p: FieldPath): FieldError[] {
  if (typeof port === "string") return isValidPortName(port).map((msg) => invalid(p, port, msg));
  const n = int(port);
  return isValidPortNum(n).map((msg) => invalid(p, n, msg));
}

function validateExecAction(exec: unknown, p: FieldPath): FieldError[] {
  return list(get(exec, "command")).length === 0 ? [required(p.child("command"), "")] : [];
}

const SUPPORTED_HTTP_SCHEMES = ["HTTP", "HTTPS"];

function validateHTTPGetAction(http: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(get(http, "path")).length === 0) errs.push(required(p.child("path"), ""));
  errs.push(...validatePortNumOrName(get(http, "port"), p.child("port")));
  const scheme = str(get(http, "scheme"));
  if (!SUPPORTED_HTTP_SCHEMES.includes(scheme)) errs.push(notSupported(p.child("scheme"), scheme, SUPPORTED_HTTP_SCHEMES));
  for (const header of list(get(http, "httpHeaders"))) {
    const name = str(get(header, "name"));
    for (const msg of isHTTPHeaderName(name)) errs.push(invalid(p.child("httpHeaders"), name, msg));
  }
  return errs;
}

function validateSleepAction(sleep: unknown, gracePeriod: number | null, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  // A nil grace period is already reported as required; no second error here.
  if (gracePeriod === null) return [];
  const seconds = int(get(sleep, "seconds"));
  if (opts.allowPodLifecycleSleepActionZeroValue) {
    if (seconds < 0 || seconds > gracePeriod) {
      return [invalid(p, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`)];
    }
  } else if (seconds <= 0 || seconds > gracePeriod) {
    return [invalid(p, seconds, `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`)];
  }
  return [];
}

/** validateHandler: the first handler type set is validated; every further one is forbidden. */
function validateHandler(h: CommonHandler, gracePeriod: number | null, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  let numHandlers = 0;
  const one = (key: keyof CommonHandler, check: (v: unknown, at: FieldPath) => FieldError[]) => {
    if (!present(h[key])) return;
    if (numHandlers > 0) {
      errs.push(forbidden(p.child(key), "may not specify more than 1 handler type"));
      return;
    }
    numHandlers++;
    errs.push(...check(h[key], p.child(key)));
  };
  one("exec", validateExecAction);
  one("httpGet", validateHTTPGetAction);
  one("tcpSocket", (v, at) => validatePortNumOrName(get(v, "port"), at.child("port")));
  one("grpc", (v, at) => validatePortNumOrName(int(get(v, "port")), at.child("port")));
  one("sleep", (v, at) => validateSleepAction(v, gracePeriod, at, opts));
  if (numHandlers === 0) errs.push(required(p, "must specify a handler type"));
  return errs;
}

/** validateLifecycle: postStart and preStop each need exactly one handler. */
export function validateLifecycle(lifecycle: Lifecycle, gracePeriod: number | null, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (present(lifecycle.postStart)) errs.push(...validateHandler(handlerFromLifecycle(lifecycle.postStart), gracePeriod, p.child("postStart"), opts));
  if (present(lifecycle.preStop)) errs.push(...validateHandler(handlerFromLifecycle(lifecycle.preStop), gracePeriod, p.child("preStop"), opts));
  return errs;
}

/** validateProbe: one handler, no negative numbers, a positive probe-level grace period. */
function validateProbe(probe: Probe, gracePeriod: number | null, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  const errs = validateHandler(handlerFromProbe(probe), gracePeriod, p, opts);
  for (const f of ["initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"] as const) {
    errs.push(...validateNonnegativeField(int(probe[f]), p.child(f)));
  }
  const tgps = probe.terminationGracePeriodSeconds;
  if (typeof tgps === "number" && tgps <= 0) errs.push(invalid(p.child("terminationGracePeriodSeconds"), tgps, "must be greater than 0"));
  return errs;
}

/** validateLivenessProbe and validateStartupProbe: a successThreshold other than 1 makes no sense. */
export function validateLivenessOrStartupProbe(probe: Probe | undefined, gracePeriod: number | null, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  if (!isObj(probe)) return [];
  const errs = validateProbe(probe, gracePeriod, p, opts);
  if (int(probe.successThreshold) !== 1) errs.push(invalid(p.child("successThreshold"), int(probe.successThreshold), "must be 1"));
  return errs;
}

/** validateReadinessProbe: readiness does not kill, so it has no grace period of its own. */
export function validateReadinessProbe(probe: Probe | undefined, gracePeriod: number | null, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  if (!isObj(probe)) return [];
  const errs = validateProbe(probe, gracePeriod, p, opts);
  const tgps = probe.terminationGracePeriodSeconds;
  if (tgps !== undefined && tgps !== null) {
    errs.push(invalid(p.child("terminationGracePeriodSeconds"), tgps, "must not be set for readinessProbes"));
  }
  return errs;
}
