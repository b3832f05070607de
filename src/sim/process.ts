// A process is a goroutine: a generator that yields operations to the kernel and runs without
// interruption between two yields, exactly like Go code between two blocking points.
import type { CallHandler, Op, SelectCase } from "./ops.ts";
import type { Waiter } from "./channel.ts";
import type { KernelObserver } from "./observe.ts";
import type { Timer } from "./timer.ts";

export type Proc<T = void> = Generator<Op, T, unknown>;

/** A continuation on the process's stack: a function of the result below it, or a generator run as a stage. */
export type Cont = ((value: unknown) => unknown) | Proc<unknown>;

export const READY = 0;
export const RUNNING = 1;
export const BLOCKED = 2; // on a channel, select, mutex or wait group
export const SLEEPING = 3; // on a timed wake-up
export const DONE = 4;
export const KILLED = 5;
const STATE_NAMES = ["ready", "running", "blocked", "sleeping", "done", "killed"];

export interface SpawnOptions {
  /** A group lets a fault kill many processes at once (e.g. "kubelet" on a kubelet restart). */
  group?: string;
  /**
   * A daemon may block forever without that being a deadlock (a worker waiting for work that
   * never comes). The run is a deadlock only when a non-daemon process is stuck.
   */
  daemon?: boolean;
}

export class Process {
  state = READY;
  resumeValue: unknown = undefined;
  resumeError: Error | null = null;
  /** An operation to perform again before resuming (a woken mutex waiter that must re-compete). */
  retry: Op | null = null;
  /**
   * A call in progress (see ops.ts callOp): its handler runs when the process is next stepped,
   * before the process's own code, and what it returns resumes the process.
   */
  call: CallHandler | null = null;
  /** The latency timer of a call with a cancellation channel: stopped when the channel fired first. */
  callTimer: Timer | null = null;
  /**
   * What runs before the process's own code resumes, innermost last: continuations (ops.ts thenOp)
   * and generators run as stages (ops.ts genOp). Empty for a process that yields plain operations.
   */
  readonly conts: Cont[] = [];
  /**
   * The cases of the process's last blocking select and its waiters (chained in case order), kept
   * so that a select on the same cases array can revive them (perform.ts requeueSelect).
   */
  selectCases: readonly SelectCase[] | null = null;
  selectWaiters: Waiter | null = null;
  /**
   * The select the process is blocked in, whose waiters are live (Waiter.selectId), or 0: the
   * first case to fire sets it to 0, which kills the select's other waiters. On the process, which
   * a wake touches anyway, not an object of the select's own.
   */
  selectArmed = 0;
  /** The number of selects that queued waiters: the next one's id. */
  selectCount = 0;
  /** When this process started waiting for a mutex (Go's starvation mode looks at it). */
  lockSinceMs = -1;
  /** What the process waits on, for deadlock diagnoses ("chan receive podUpdates"). */
  waitingOn = "";
  /**
   * The object waited on (a channel, a lock, a select's cases), named only when a diagnosis asks:
   * building "chan receive podUpdates" on every block would cost a string per operation.
   */
  waitingTarget: unknown = null;
  /**
   * What the process resumes from, the resource of its pending operation (see ProcRef): set when
   * it is woken or preempted, read by the pos strategy. Null: nothing named (a spawn, a sleep).
   */
  resumeOn: unknown = null;

  constructor(
    readonly id: number,
    readonly name: string,
    readonly gen: Proc<unknown>,
    readonly group: string,
    readonly daemon: boolean,
  ) {}

  get alive(): boolean {
    return this.state !== DONE && this.state !== KILLED;
  }

  describeState(): string {
    if (this.waitingOn === "") return STATE_NAMES[this.state]!;
    const t = this.waitingTarget;
    if (t === null || typeof t === "string") return this.waitingOn;
    if (Array.isArray(t)) {
      const names = (t as readonly { ch: { name: string } | null }[]).flatMap((c) => (c.ch === null ? [] : [c.ch.name]));
      return names.length === 0 ? `${this.waitingOn} (no cases)` : `${this.waitingOn} ${names.join(", ")}`;
    }
    return `${this.waitingOn} ${(t as { name: string }).name}`;
  }
}

/** Waking processes is the kernel's; channels and locks call it through this interface. */
export interface Waker {
  readonly nowMs: number;
  /** The process running now (channels name the sender of a hand-off with it). */
  readonly current?: Process | null;
  /** Told of channel hand-offs when the run is observed (see observe.ts). */
  readonly observer?: KernelObserver | null;
  wake(p: Process, value: unknown): void;
  /** wake, from a channel: p resumes from `ch` (its receive, send, or the case of its select that fired). */
  wakeFrom(p: Process, value: unknown, ch: unknown): void;
  wakeWithError(p: Process, err: Error): void;
  /** Wake p to perform `op` again before it resumes (it lost a race for a lock). */
  wakeToRetry(p: Process, op: Op): void;
}

/** A Go panic raised by a kernel primitive (send on a closed channel, unlock of an unlocked mutex). */
export class GoPanic extends Error {
  override name = "GoPanic";
}
