// Worker threads for exploration: J threads, each with the same plan, are handed small batches of
// run indices in index order until the runs are done or `shouldStop` says to stop; batches in
// flight always finish. Every run index below the last one handed out has completed when the pool
// ends, so "the first failing run" means the same run whatever J is. The pool reports through a
// callback: no promise is made under src/ outside cli/ (test/meta/determinism-ban.test.ts); the
// CLI turns it into one.
import { Worker } from "node:worker_threads";
import type { ExplorePlan, RunSummary } from "./context.ts";
import type { WorkerBatch, WorkerReply } from "./worker.ts";
import { workerEntry } from "./worker_entry.ts";
import { LOCKSTEP_RUNS } from "./lockstep.ts";

export interface PoolOptions {
  jobs: number;
  indices: readonly number[];
  keepLines: ReadonlySet<number>;
  shouldStop: () => boolean;
  onSummary: (s: RunSummary) => void;
  /** Measure coverage in every thread (guided always does). */
  coverage?: boolean;
  /**
   * Runs with the same key go to the same thread, in index order (guided: the island). With it,
   * runs are handed out while their index is below `limit()`, instead of until `shouldStop()`.
   */
  affinity?: (index: number) => number;
  limit?: () => number;
}

export function runPool(plan: ExplorePlan, opts: PoolOptions, done: (err: Error | null) => void): void {
  if (!(Number.isInteger(opts.jobs) && opts.jobs >= 1 && opts.jobs <= 256)) throw new RangeError(`bad --jobs ${opts.jobs}: expected 1 to 256`);
  // Small batches keep the threads busy to the end and a stop prompt; a run costs milliseconds, a message
  // microseconds. A full batch is one lockstep batch in the worker (lockstep.ts).
  const batchSize = Math.max(1, Math.min(LOCKSTEP_RUNS, Math.ceil(opts.indices.length / (opts.jobs * 8))));
  const workers: Worker[] = [];
  const queues = opts.affinity === undefined ? null : affinityQueues(opts.indices, opts.jobs, opts.affinity);
  const heads = queues === null ? [] : queues.map(() => 0);
  let next = 0;
  let inFlight = 0;
  let finished = false;
  const finish = (err: unknown) => {
    if (finished) return;
    finished = true;
    for (const w of workers) void w.terminate();
    done(err === null ? null : err instanceof Error ? err : new Error(String(err)));
  };
  /** The next batch for worker j: the next runs in index order, or (with affinity) of its own queue below the limit. */
  const take = (j: number): number[] => {
    if (queues === null) {
      if (next >= opts.indices.length || opts.shouldStop()) return [];
      const indices = opts.indices.slice(next, next + batchSize);
      next += indices.length;
      return indices;
    }
    const q = queues[j]!;
    const limit = opts.limit === undefined ? Infinity : opts.limit();
    const indices: number[] = [];
    while (heads[j]! < q.length && indices.length < batchSize && q[heads[j]!]! < limit) indices.push(q[heads[j]!++]!);
    return indices;
  };
  /** With affinity, whether some thread (started or not yet online) still has runs to take. */
  const owed = (): boolean => {
    if (queues === null) return false;
    const limit = opts.limit === undefined ? Infinity : opts.limit();
    return queues.some((q, j) => heads[j]! < q.length && q[heads[j]!]! < limit);
  };
  const dispatch = (w: Worker) => {
    const indices = take(workers.indexOf(w));
    if (indices.length > 0) {
      inFlight++;
      const batch: WorkerBatch = { indices, keepLines: indices.filter((i) => opts.keepLines.has(i)) };
      w.postMessage(batch);
    } else if (inFlight === 0 && !owed()) finish(null);
  };
  const count = queues === null ? Math.min(opts.jobs, Math.max(1, opts.indices.length)) : queues.length;
  const entry = workerEntry();
  for (let j = 0; j < count; j++) {
    const w = new Worker(entry.url, { execArgv: entry.execArgv, workerData: { plan, coverage: opts.coverage === true } });
    workers.push(w);
    w.on("message", (reply: WorkerReply) => {
      inFlight--;
      for (const s of reply.summaries) opts.onSummary(s);
      dispatch(w);
    });
    w.on("error", (err) => finish(err));
    w.on("online", () => dispatch(w));
  }
}

/** The runs split by key over at most `jobs` threads: keys in order of first appearance, dealt round robin. */
export function affinityQueues(indices: readonly number[], jobs: number, key: (index: number) => number): number[][] {
  const slot = new Map<number, number>();
  for (const i of indices) if (!slot.has(key(i))) slot.set(key(i), slot.size);
  const count = Math.max(1, Math.min(jobs, slot.size));
  const queues: number[][] = Array.from({ length: count }, () => []);
  for (const i of indices) queues[slot.get(key(i))! % count]!.push(i);
  return queues;
}
