// Models staging/src/k8s.io/cri-api/pkg/errors/errors.go (IsNotFound) over gRPC status errors.
//
// A CRI call fails with a gRPC status: a code and a description. The kubelet reads the code
// (crierror.IsNotFound) and the text (grpcstatus.FromError(err).Message()), so both are kept.
// Errors are returned as values, never thrown: a throw inside a process is a Go panic here.

/** The gRPC codes a container runtime returns in practice. */
export type GrpcCode =
  | "Unknown"
  | "Canceled"
  | "NotFound"
  | "AlreadyExists"
  | "FailedPrecondition"
  | "DeadlineExceeded"
  | "Unavailable"
  | "InvalidArgument"
  | "Unauthenticated";

export class CriError {
  constructor(
    readonly code: GrpcCode,
    /** The status description: what grpcstatus.FromError(err).Message() returns. */
    readonly desc: string,
  ) {}

  /** err.Error() of a gRPC status error, as the kubelet logs and wraps it. */
  get message(): string {
    return `rpc error: code = ${this.code} desc = ${this.desc}`;
  }

  toString(): string {
    return this.message;
  }
}

/** crierror.IsNotFound: the runtime answered codes.NotFound. */
export function isNotFound(err: unknown): boolean {
  return err instanceof CriError && err.code === "NotFound";
}

/** grpcstatus.FromError(err).Message(): the description of a status error, else the whole text. */
export function statusMessage(err: CriError | Error | string): string {
  if (err instanceof CriError) return err.desc;
  return typeof err === "string" ? err : err.message;
}

export function notFound(desc: string): CriError {
  return new CriError("NotFound", desc);
}

export function unknown(desc: string): CriError {
  return new CriError("Unknown", desc);
}

/** What a call sees while the runtime's socket is down (a runtime restart). */
export function unavailable(socketPath: string): CriError {
  return new CriError(
    "Unavailable",
    `connection error: desc = "transport: Error while dialing: dial unix ${socketPath}: connect: connection refused"`,
  );
}

/** What the kubelet's gRPC client returns when runtimeRequestTimeout runs out. */
export function deadlineExceeded(): CriError {
  return new CriError("DeadlineExceeded", "context deadline exceeded");
}

/** What the kubelet's gRPC client returns when the caller's context is cancelled mid-call. */
export function canceled(): CriError {
  return new CriError("Canceled", "context canceled");
}
