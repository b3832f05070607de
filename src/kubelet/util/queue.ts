// Models pkg/kubelet/util/queue/work_queue.go: pod UIDs queued with a delay; GetWork returns
// (and removes) every UID whose time has come.

export class WorkQueue {
  private readonly queue = new Map<string, number>();

  constructor(private readonly clock: { readonly nowMs: number }) {}

  /** Enqueue(item, delay): a later Enqueue of the same UID replaces its time, as in the Go map. */
  Enqueue(uid: string, delayMs: number): void {
    this.queue.set(uid, this.clock.nowMs + delayMs);
  }

  /**
   * GetWork: UIDs due now, sorted; upstream returns them in Go map order, and the caller
   * (getPodsToSync) filters the pod manager's list with them, so the order that matters is decided
   * there, as a recorded choice.
   */
  GetWork(): string[] {
    const now = this.clock.nowMs;
    const due: string[] = [];
    for (const [uid, atMs] of this.queue) {
      if (atMs <= now) due.push(uid);
    }
    for (const uid of due) this.queue.delete(uid);
    return due.sort();
  }

  get length(): number {
    return this.queue.size;
  }
}
