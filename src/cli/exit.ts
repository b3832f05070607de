// Exit codes of every kubelet-sim command, documented in docs/cli.md.
export const EXIT_OK = 0; // every expectation held
export const EXIT_VIOLATION = 1; // an expectation, invariant or conformance vector failed
export const EXIT_USAGE = 2; // usage or input error (bad flags, bad scenario file)
export const EXIT_INTERNAL = 3; // internal error: a bug in kubelet-sim (printed with the replay key)

/** An error meant for the user: printed as one message, never with a stack trace. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
  ) {
    super(message);
    this.name = "UserError";
  }
}

/** A bug met while running a scenario: reported with the run's replay key, so it can be reproduced. */
export class InternalError extends Error {
  constructor(
    readonly replayKey: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "InternalError";
  }
}
