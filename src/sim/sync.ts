// sync.Mutex, sync.RWMutex and sync.WaitGroup with Go's semantics.
// Mutex: in normal mode a woken waiter competes with newcomers and, if it loses, goes back to the
// front of the queue; once a waiter has waited 1 ms or more the mutex hands itself over directly
// (starvation mode, sync/mutex.go's starvationThresholdNs), in virtual time here.
import { Deque } from "./deque.ts";
import { GoPanic, KILLED, type Process, type Waker } from "./process.ts";
import { Op, OP_LOCK } from "./ops.ts";

export const STARVATION_THRESHOLD_MS = 1;

function liveHead(q: Deque<Process>): Process | undefined {
  while (q.length > 0 && q.at(0).state === KILLED) q.popFront();
  return q.length > 0 ? q.at(0) : undefined;
}

export class Mutex {
  readonly kind = "mutex";
  locked = false;
  readonly waiters = new Deque<Process>(4);
  private readonly relockOp: Op;

  constructor(
    private readonly waker: Waker,
    readonly name: string,
  ) {
    this.relockOp = new Op(OP_LOCK, 0, this, null, "");
  }

  /** Takes the mutex if it is free (the kernel's Lock fast path). */
  tryLock(): boolean {
    if (this.locked) return false;
    this.locked = true;
    return true;
  }

  /** Queues p; a waiter that was woken and lost the race goes back to the front (LIFO), as in Go. */
  enqueue(p: Process): void {
    if (p.lockSinceMs >= 0) this.waiters.pushFront(p);
    else {
      p.lockSinceMs = this.waker.nowMs;
      this.waiters.pushBack(p);
    }
  }

  unlock(): void {
    if (!this.locked) throw new GoPanic(`sync: unlock of unlocked mutex ${this.name}`);
    const w = liveHead(this.waiters);
    if (w === undefined) {
      this.locked = false;
      return;
    }
    this.waiters.popFront();
    if (this.waker.nowMs - w.lockSinceMs >= STARVATION_THRESHOLD_MS) {
      w.lockSinceMs = -1; // handed over: the mutex stays locked, now on w's behalf
      this.waker.wake(w, undefined);
    } else {
      this.locked = false;
      this.waker.wakeToRetry(w, this.relockOp);
    }
  }
}

/** Writer-preferring, as Go's: a pending writer blocks new readers; a writer's unlock frees readers first. */
export class RWMutex {
  readonly kind = "rwmutex";
  writer = false;
  readers = 0;
  readonly readWaiters = new Deque<Process>(4);
  readonly writeWaiters = new Deque<Process>(4);

  constructor(
    private readonly waker: Waker,
    readonly name: string,
  ) {}

  tryRLock(): boolean {
    if (this.writer || liveHead(this.writeWaiters) !== undefined) return false;
    this.readers++;
    return true;
  }

  tryLock(): boolean {
    if (this.writer || this.readers > 0) return false;
    this.writer = true;
    return true;
  }

  runlock(): void {
    if (this.readers <= 0) throw new GoPanic(`sync: RUnlock of unlocked RWMutex ${this.name}`);
    this.readers--;
    if (this.readers === 0) this.handToWriter();
  }

  unlock(): void {
    if (!this.writer) throw new GoPanic(`sync: Unlock of unlocked RWMutex ${this.name}`);
    this.writer = false;
    let woke = 0;
    for (let r = this.readWaiters.popFront(); r !== undefined; r = this.readWaiters.popFront()) {
      if (r.state === KILLED) continue;
      this.readers++;
      woke++;
      this.waker.wake(r, undefined);
    }
    if (woke === 0) this.handToWriter();
  }

  private handToWriter(): void {
    const w = liveHead(this.writeWaiters);
    if (w === undefined) return;
    this.writeWaiters.popFront();
    this.writer = true;
    this.waker.wake(w, undefined);
  }
}

export class WaitGroup {
  private counter = 0;
  readonly waiters = new Deque<Process>(4);

  constructor(
    private readonly waker: Waker,
    readonly name: string,
  ) {}

  get count(): number {
    return this.counter;
  }

  add(delta: number): void {
    this.counter += delta;
    if (this.counter < 0) throw new GoPanic(`sync: negative WaitGroup counter ${this.name}`);
    if (this.counter > 0) return;
    for (let p = this.waiters.popFront(); p !== undefined; p = this.waiters.popFront()) {
      if (p.state !== KILLED) this.waker.wake(p, undefined);
    }
  }

  done(): void {
    this.add(-1);
  }
}
