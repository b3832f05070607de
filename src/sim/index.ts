// The kernel's public surface. It knows nothing of Kubernetes.
export { Sim, type SimOptions, type RunResult } from "./kernel.ts";
export {
  sleep, call, recv, send, select, recvCase, sendCase, lock, rlock, wait, point, gosched,
  callOp, thenOp, andThen, genOp, awaitOp, recvOp, selectOp, again, invoke, Op,
  type CallHandler, type RecvResult, type SelectCase, type SelectResult,
} from "./ops.ts";
export { Chan } from "./channel.ts";
export { Mutex, RWMutex, WaitGroup } from "./sync.ts";
export { Timer, Ticker } from "./timer.ts";
export { Rng, RngStreams } from "./rng.ts";
export { ChoiceLog, type Choice, type ChoiceKind } from "./choices.ts";
export { parseStrategy, formatStrategy, StrategyPause, type StrategySpec } from "./strategy/index.ts";
export { MemorySink, LineSink, Trace, type TraceRecord, type TraceSink } from "./trace.ts";
export { TraceDigest, digestRecords } from "./digest.ts";
export { DEFAULT_BOUNDS, isFailureVerdict, type Bounds, type Verdict } from "./bounds.ts";
export { parseDuration, formatDuration, DurationError } from "./duration.ts";
export { GoPanic, type Proc, type Process, type SpawnOptions } from "./process.ts";
export { KernelLog, KERNEL_LOG_LIMIT, type Activity, type CallSpan, type ChoicePoint, type Handoff, type KernelObserver, type ProcEnd, type ProcInfo } from "./observe.ts";
