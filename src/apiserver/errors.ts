// Models staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (StatusError and its constructors).
//
// Messages are copied from upstream word for word, so a trace line reads like the kubelet's log.
// A transport failure (a partition) has code 0 and reason "", as client-go returns a plain Go
// error there, not a metav1.Status.

/** metav1.StatusReason values the pods API returns here; "" for a transport error. */
export type StatusReason =
  | "NotFound"
  | "AlreadyExists"
  | "Conflict"
  | "Expired"
  | "Invalid"
  | "BadRequest"
  | "";

export class StatusError extends Error {
  constructor(
    /** HTTP status code: 404, 409, 410, 422, 400; 0 for a transport error. */
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
  ) {
    // A Go error is a value: the models make and compare these by the thousand (every request of a
    // partitioned kubelet fails), and a JavaScript stack for each was 3% of a cluster hunt's time.
    // Without one, a StatusError that escapes into a panic still names its message.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = "StatusError";
  }
}

/** errors.NewNotFound(v1.Resource("pods"), name) */
export function newNotFound(name: string): StatusError {
  return new StatusError(404, "NotFound", `pods "${name}" not found`);
}

/** errors.NewAlreadyExists(v1.Resource("pods"), name) */
export function newAlreadyExists(name: string): StatusError {
  return new StatusError(409, "AlreadyExists", `pods "${name}" already exists`);
}

/**
 * errors.NewConflict(qualifiedResource, name, err). rest.BeforeDelete names the resource by its
 * Kind ("Pod"), the generic store by its resource ("pods"); both spellings appear in real logs.
 */
export function newConflict(resource: "pods" | "Pod", name: string, cause: string): StatusError {
  return new StatusError(409, "Conflict", `Operation cannot be fulfilled on ${resource} "${name}": ${cause}`);
}

/** The generic store's optimistic-concurrency failure (registry/generic/registry/store.go). */
export const OBJECT_MODIFIED = "the object has been modified; please apply your changes to the latest version and try again";

/** errors.NewResourceExpired, as the watch cache returns it for a too-old resourceVersion. */
export function newResourceExpired(message: string): StatusError {
  return new StatusError(410, "Expired", message);
}

/** errors.NewBadRequest */
export function newBadRequest(message: string): StatusError {
  return new StatusError(400, "BadRequest", message);
}

/** errors.NewInvalid, with the message validation/ already built (`Pod "web" is invalid: ...`). */
export function newInvalidStatus(message: string): StatusError {
  return new StatusError(422, "Invalid", message);
}

/** errors.NewInvalid, reduced to one field error's text. */
export function newInvalid(name: string, detail: string): StatusError {
  return new StatusError(422, "Invalid", `Pod "${name}" is invalid: ${detail}`);
}

/** A request that could not reach the apiserver (a partition that refuses connections). */
export function newConnectionRefused(verb: string, path: string): StatusError {
  return new StatusError(0, "", `${verb} "https://apiserver${path}": dial tcp apiserver:6443: connect: connection refused`);
}

/** A request that hung in a partition until the client's timeout (net/http Client.Timeout). */
export function newClientTimeout(verb: string, path: string): StatusError {
  return new StatusError(0, "", `${verb} "https://apiserver${path}": net/http: request canceled (Client.Timeout exceeded while awaiting headers)`);
}

/** errors.IsNotFound */
export function isNotFound(err: StatusError | null): boolean {
  return err !== null && err.reason === "NotFound";
}

/** errors.IsConflict */
export function isConflict(err: StatusError | null): boolean {
  return err !== null && err.reason === "Conflict";
}

/** reflector.isExpiredError: errors.IsResourceExpired(err) || errors.IsGone(err). */
export function isExpiredError(err: StatusError | null): boolean {
  return err !== null && (err.reason === "Expired" || err.code === 410);
}

/** utilnet.IsConnectionRefused */
export function isConnectionRefused(err: StatusError | null): boolean {
  return err !== null && err.code === 0 && err.message.endsWith("connection refused");
}
