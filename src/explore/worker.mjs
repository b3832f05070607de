// The entry of an exploration worker thread. Node 20 does not apply `--import tsx` from a worker's
// execArgv to the worker's own module loading, so the worker registers tsx itself, then loads the
// TypeScript worker body.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
