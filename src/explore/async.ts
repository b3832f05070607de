// explore() for library users: exploreParallel as a promise. The rest of src/ makes no promises
// (the kernel and the pool are callback- or generator-driven); this is the library's door.
import { exploreParallel, type ExploreOptions, type ExploreReport } from "./explorer.ts";

/**
 * Many runs of one scenario under a randomized strategy, every invariant checked; the first failure
 * is shrunk and (with `outDir`) written as a repro file. `jobs` above 1 runs worker threads.
 */
export function explore(opts: ExploreOptions): Promise<ExploreReport> {
  return new Promise((resolve, reject) => {
    exploreParallel(opts, (err, report) => {
      if (err !== null) reject(err);
      else if (report === null) reject(new Error("explore ended with neither a report nor an error"));
      else resolve(report);
    });
  });
}
