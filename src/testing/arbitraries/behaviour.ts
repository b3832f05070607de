// What a container does (a scenario's `behaviour` entry): run until stopped, exit after a while
// with a code, fail to start; and what it does on SIGTERM. Shrinks toward "runs until stopped,
// exits at once on SIGTERM".
import fc from "fast-check";
import { durationArb } from "./duration.ts";

export interface BehaviourArbOptions {
  /** The longest a container runs before it exits by itself (default 30s). */
  maxRunMs?: number;
  /** The longest it takes to exit after SIGTERM (default 10s). */
  maxSigtermMs?: number;
}

export type RawBehaviour = Record<string, unknown>;

/** One attempt's program: forever, exit after a while, or a failed start. */
export function programArb(opts: BehaviourArbOptions = {}): fc.Arbitrary<RawBehaviour> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    { weight: 3, arbitrary: fc.record({ exitAfter: durationArb(100, opts.maxRunMs ?? 30_000), exitCode: fc.constantFrom(0, 1, 137) }) },
    { weight: 1, arbitrary: fc.constant({ failStart: "exec: \"app\": executable file not found in $PATH" }) },
  );
}

/** What the process does on SIGTERM: exit (after a while, with a code) or ignore it. */
export function sigtermArb(opts: BehaviourArbOptions = {}): fc.Arbitrary<RawBehaviour> {
  return fc.oneof(
    fc.record({ exitAfter: durationArb(0, opts.maxSigtermMs ?? 10_000), exitCode: fc.constantFrom(143, 0) }),
    fc.constant({ ignore: true }),
  );
}

/** A container's behaviour: its own program, maybe an onSigterm, maybe a first attempt that differs. */
export function containerBehaviourArb(opts: BehaviourArbOptions = {}): fc.Arbitrary<RawBehaviour> {
  return fc
    .record({ program: programArb(opts), onSigterm: fc.option(sigtermArb(opts), { nil: undefined }), first: fc.option(programArb(opts), { nil: undefined }) })
    .map(({ program, onSigterm, first }) => ({
      ...program,
      ...(onSigterm === undefined || "failStart" in program ? {} : { onSigterm }),
      ...(first === undefined ? {} : { runs: [first] }),
    }));
}
