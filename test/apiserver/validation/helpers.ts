// What the validation tables share: upstream's test helpers (pkg/api/pod/testing/make.go MakePod,
// MakeContainer; validation_test.go getResources, defaultGracePeriod) and the comparison
// upstream makes (cmp.Diff ignoring BadValue and Detail: type and field only).
import type { Container, Pod } from "../../../src/k8s/pod.ts";
import type { ContainerContext } from "../../../src/apiserver/validation/containers.ts";
import { ErrorType, type FieldError } from "../../../src/apiserver/validation/field.ts";
import { ZERO_POD_OPTIONS, type PodValidationOptions } from "../../../src/apiserver/validation/options.ts";

/** A Go struct literal in a test table, loosely typed as upstream's are. */
export type Loose = Record<string, unknown>;

/** podtest.MakeContainer: a container with what defaulting would fill. */
export function makeContainer(name: string, tweak: Loose = {}): Container {
  return { name, image: "image", imagePullPolicy: "IfNotPresent", terminationMessagePolicy: "File", ...tweak } as Container;
}

/** podtest.MakePod: a valid pod in the default namespace with one container "ctr". */
export function makePod(name: string, spec: Loose = {}, meta: Loose = {}): Pod {
  return {
    metadata: { name, namespace: "default", ...meta },
    spec: {
      containers: [makeContainer("ctr")],
      dnsPolicy: "ClusterFirst",
      restartPolicy: "Always",
      terminationGracePeriodSeconds: 30,
      ...spec,
    },
  } as Pod;
}

/** getResources(cpu, memory, storage, ...): only the non-empty ones. */
export function getResources(cpu: string, memory: string, storage: string): Record<string, string> {
  const res: Record<string, string> = {};
  if (cpu !== "") res.cpu = cpu;
  if (memory !== "") res.memory = memory;
  if (storage !== "") res["ephemeral-storage"] = storage;
  return res;
}

/** defaultGracePeriod in validation_test.go. */
export const DEFAULT_GRACE_PERIOD = 30;

export function context(podRestartPolicy: string, opts: PodValidationOptions = ZERO_POD_OPTIONS, volumes: string[] = []): ContainerContext {
  return { volumes: new Set(volumes), gracePeriod: DEFAULT_GRACE_PERIOD, podRestartPolicy, opts };
}

/** Upstream's field.ErrorType names, for writing expectations as upstream does. */
export const T = {
  Required: ErrorType.Required,
  Invalid: ErrorType.Invalid,
  Duplicate: ErrorType.Duplicate,
  NotFound: ErrorType.NotFound,
  NotSupported: ErrorType.NotSupported,
  Forbidden: ErrorType.Forbidden,
} as const;

/** {Type, Field} pairs, the part of a field.Error upstream's tables compare. */
export const typeAndField = (errs: readonly FieldError[]) => errs.map((e) => ({ type: e.type, field: e.field }));

/** Shorthand for a table's expected error list. */
export const e = (type: ErrorType, field: string) => ({ type, field });
