// Where exploration worker threads start from. Installed from npm (or after `npm run build`) this
// module is compiled JavaScript in dist/, and threads start from dist/bundle/worker.js, the worker
// bundled with what it imports (scripts/build-node-bundles.mjs), else from dist/explore/worker.js
// as it is. This module may itself sit in the CLI's bundle (dist/bundle/), so both paths are
// written from dist/'s top.
// Run from the TypeScript sources (tests, tsx), loading the ~280 TypeScript modules of a run through
// tsx's loader costs each thread about 2 s (every module is a round trip to the loader's hooks
// thread); one bundled JavaScript file loads in about 0.2 s. So the first pool of a process
// bundles src/explore/worker.ts with esbuild (the compiler tsx itself uses) into a temporary file,
// removed when the process exits. If bundling fails, threads start from worker.mjs, which
// registers tsx: slower to start, the same code, the same runs.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface WorkerEntry {
  /** The module the thread runs. */
  url: URL;
  /** Node flags for the thread (tsx for the TypeScript fallback). */
  execArgv: string[];
  /** Whether the thread runs the bundle (false: the tsx fallback). */
  bundled: boolean;
}

const FALLBACK: WorkerEntry = { url: new URL("./worker.mjs", import.meta.url), execArgv: ["--import", "tsx"], bundled: false };

/** CommonJS packages inside an ESM bundle need a require of their own. */
const REQUIRE_BANNER = "import { createRequire as __kubeletSimCreateRequire } from 'node:module'; const require = __kubeletSimCreateRequire(import.meta.url);";

let entry: WorkerEntry | null = null;

/** The entry every worker of this process starts from; bundled on first use when run from sources. */
export function workerEntry(): WorkerEntry {
  entry ??= compiledWorker() ?? bundleWorker() ?? FALLBACK;
  return entry;
}

/** dist/bundle/worker.js (or dist/explore/worker.js), when this module is itself compiled. */
function compiledWorker(): WorkerEntry | null {
  if (!import.meta.url.endsWith(".js")) return null;
  const bundle = new URL("../bundle/worker.js", import.meta.url);
  return { url: existsSync(fileURLToPath(bundle)) ? bundle : new URL("../explore/worker.js", import.meta.url), execArgv: [], bundled: true };
}

function bundleWorker(): WorkerEntry | null {
  if (process.env.KUBELET_SIM_WORKER_BUNDLE === "0") return null;
  let dir: string | null = null;
  try {
    // esbuild is a development tool: required here, on the sources' path only, never by dist/.
    const { buildSync } = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
    const result = buildSync({
      entryPoints: [fileURLToPath(new URL("./worker.ts", import.meta.url))],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      write: false,
      logLevel: "silent",
      banner: { js: REQUIRE_BANNER },
    });
    const code = result.outputFiles[0]?.text;
    if (code === undefined) return null;
    dir = mkdtempSync(join(tmpdir(), "kubelet-sim-worker-"));
    const file = join(dir, "worker.mjs");
    writeFileSync(file, code);
    const made = dir;
    process.once("exit", () => rmSync(made, { recursive: true, force: true }));
    return { url: pathToFileURL(file), execArgv: [], bundled: true };
  } catch {
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
    return null;
  }
}
