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

export interface PoolOptions {
  jobs: number;
  indices: readonly number[];
  keepLines: ReadonlySet<number>;
  shouldStop: () => boolean;
  onSummary: (s: RunSummary) => void;
}

export function runPool(plan: ExplorePlan, opts: PoolOptions, done: (err: Error | null) => void): void {
  if (!(Number.isInteger(opts.jobs) && opts.jobs >= 1 && opts.jobs <= 256)) throw new RangeError(`bad --jobs ${opts.jobs}: expected 1 to 256`);
  // Small batches keep the threads busy to the end and a stop prompt; a run costs milliseconds, a message microseconds.
  const batchSize = Math.max(1, Math.min(8, Math.ceil(opts.indices.length / (opts.jobs * 8))));
  const workers: Worker[] = [];
  let next = 0;
  let inFlight = 0;
  let finished = false;
  const finish = (err: unknown) => {
    if (finished) return;
    finished = true;
    for (const w of workers) void w.terminate();
    done(err === null ? null : err instanceof Error ? err : new Error(String(err)));
  };
  const dispatch = (w: Worker) => {
    if (next < opts.indices.length && !opts.shouldStop()) {
      const indices = opts.indices.slice(next, next + batchSize);
      next += indices.length;
      inFlight++;
      const batch: WorkerBatch = { indices, keepLines: indices.filter((i) => opts.keepLines.has(i)) };
      w.postMessage(batch);
    } else if (inFlight === 0) finish(null);
  };
  const count = Math.min(opts.jobs, Math.max(1, opts.indices.length));
  const entry = workerEntry();
  for (let j = 0; j < count; j++) {
    const w = new Worker(entry.url, { execArgv: entry.execArgv, workerData: { plan } });
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
