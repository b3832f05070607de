// The apiserver's pod validation, as one call per request: decode (400) and then validate (422),
// on the pod with the apiserver's defaults applied. The scenario loader, the registry and the
// manifest importer all call validatePodForCreate, so a pod is refused the same way everywhere.
import { defaultPod, defaultUnmodelledFields } from "../../k8s/defaults.ts";
import type { Pod } from "../../k8s/pod.ts";
import { decodeErrors } from "./decode.ts";
import { aggregateText, errorText, goQuote, type FieldError } from "./field.ts";
import { APISERVER_POD_OPTIONS, type PodValidationOptions } from "./options.ts";
import { ValidatePodCreate, ValidatePodUpdate } from "./pod.ts";

export { ValidatePodCreate, ValidatePodUpdate, MIRROR_POD_ANNOTATION_KEY } from "./pod.ts";
export { APISERVER_POD_OPTIONS, ZERO_POD_OPTIONS, type PodValidationOptions } from "./options.ts";
export { aggregateText, errorListText, errorText, FieldPath, type FieldError } from "./field.ts";
export { decodeErrors, type DecodeError } from "./decode.ts";

/** One reason the apiserver refuses a pod, placed at a field of the manifest. */
export interface PodRejection {
  /** 400 for what the decoder refuses, 422 for what validation refuses. */
  readonly code: 400 | 422;
  /** Keys from the manifest's root to the field: ["spec", "containers", 0, "image"]. */
  readonly path: readonly PropertyKey[];
  /** The error as upstream prints it: `spec.containers[0].image: Required value`. */
  readonly message: string;
}

export interface PodValidationResult {
  readonly ok: boolean;
  readonly rejections: readonly PodRejection[];
  /** The apiserver's whole answer, as a client sees it; "" when the pod is accepted. */
  readonly statusMessage: string;
  readonly code: 0 | 400 | 422;
}

const ACCEPTED: PodValidationResult = { ok: true, rejections: [], statusMessage: "", code: 0 };

/** The pod as the apiserver validates it: every default applied, the models' and the others. */
export const defaultedForValidation = (pod: Pod): Pod => defaultUnmodelledFields(defaultPod(pod));

/** NewInvalid(Kind "Pod", name, errs).Error() */
export function invalidMessage(name: string, errs: readonly FieldError[]): string {
  return errs.length === 0 ? `Pod ${goQuote(name)} is invalid` : `Pod ${goQuote(name)} is invalid: ${aggregateText(errs)}`;
}

function result(name: string, errs: readonly FieldError[]): PodValidationResult {
  if (errs.length === 0) return ACCEPTED;
  return {
    ok: false,
    code: 422,
    rejections: errs.map((e) => ({ code: 422, path: e.path, message: errorText(e) })),
    statusMessage: invalidMessage(name, errs),
  };
}

function decodeResult(pod: Pod): PodValidationResult | null {
  const errs = decodeErrors(pod);
  if (errs.length === 0) return null;
  return {
    ok: false,
    code: 400,
    rejections: errs.map((e) => ({ code: 400, path: e.path, message: e.message })),
    // The decoder stops at the first error; the loader still shows every one.
    statusMessage: `Pod in version "v1" cannot be handled as a Pod: ${errs[0]!.message}`,
  };
}

/** What the apiserver answers to a create of this pod (as written, before its defaults). */
export function validatePodForCreate(pod: Pod, opts: PodValidationOptions = APISERVER_POD_OPTIONS): PodValidationResult {
  const decoded = decodeResult(pod);
  if (decoded !== null) return decoded;
  return result(pod.metadata.name, ValidatePodCreate(defaultedForValidation(pod), opts));
}

/** What the apiserver answers to an update of `old` (as stored) to `next` (as sent). */
export function validatePodForUpdate(next: Pod, old: Pod, opts: PodValidationOptions = APISERVER_POD_OPTIONS): PodValidationResult {
  const decoded = decodeResult(next);
  if (decoded !== null) return decoded;
  return result(old.metadata.name, ValidatePodUpdate(defaultedForValidation(next), defaultedForValidation(old), opts));
}
