// An exploration worker thread: builds the run context from the plan it is given, then runs the
// batches of run indices the main thread sends and posts their summaries back. A run is a function
// of (plan, index), so which thread runs it never matters.
import { parentPort, workerData } from "node:worker_threads";
import { RunContext, type ExplorePlan, type RunSummary } from "./context.ts";
import { makeRunner } from "./runner.ts";

export interface WorkerBatch {
  indices: number[];
  /** Indices whose canonical trace lines the determinism check wants back. */
  keepLines: number[];
}

export interface WorkerReply {
  summaries: RunSummary[];
}

const port = parentPort;
if (port === null) throw new Error("explore/worker.ts runs only as a worker thread");
const data = workerData as { plan: ExplorePlan; coverage: boolean };
const runner = makeRunner(new RunContext(data.plan), data.coverage);
port.on("message", (batch: WorkerBatch) => {
  const keep = new Set(batch.keepLines);
  const reply: WorkerReply = { summaries: runner.runBatch(batch.indices, keep) };
  port.postMessage(reply);
});
