// Part of `npm run build`, after tsc: the CLI and the exploration worker bundled, dependencies
// included, into dist/bundle/ (main.js, worker.js, and the chunk of code they share). Loading
// the ~400 compiled modules of a run one file at a time was most of a `kubelet-sim run`'s start-up
// (module resolution, stats and reads: about 0.2 s of 0.6 s); one file loads in a fraction of it,
// and each worker thread of `explore --jobs N` starts faster too. The per-module files in dist/
// stay: they are the library (`import ... from "kubelet-sim"`) and its type declarations.
// dist/bundle/ is two levels below the package root, as every compiled module is, so paths made
// from import.meta.url (scenarios/, the page scripts in dist/) resolve as they do from them.
import { buildSync } from "esbuild";
import { renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** CommonJS packages inside an ESM bundle need a require of their own. */
const REQUIRE_BANNER = "import { createRequire as __kubeletSimCreateRequire } from 'node:module'; const require = __kubeletSimCreateRequire(import.meta.url);";

// Built beside and swapped in whole: chunk names carry a content hash, so chunks of an older build
// would linger among the new ones, and a CLI started meanwhile (the tests run it while `npm pack`
// or an edit rebuilds) must never find a new main.js without its chunks. Between the removal and
// the rename there is no dist/bundle/main.js, and bin/ starts from dist/cli/main.js instead.
const out = join(root, "dist", "bundle");
const next = join(root, "dist", `bundle.next-${process.pid}`);
rmSync(next, { recursive: true, force: true });
buildSync({
  entryPoints: { main: join(root, "dist", "cli", "main.js"), worker: join(root, "dist", "explore", "worker.js") },
  outdir: next,
  splitting: true,
  chunkNames: "shared-[hash]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  banner: { js: REQUIRE_BANNER },
  legalComments: "eof",
  // Whitespace and syntax only: identifiers stay, so a stack trace of an internal error still names
  // functions (one that esbuild renamed to keep two modules' names apart reads with a digit: `run2`).
  minifyWhitespace: true,
  minifySyntax: true,
  // No keepNames: it wraps every named closure in a __name() call (Object.defineProperty) each time
  // the closure is made, ~3,800 sites, hot ones among them; nothing here reads a function's .name.
  // Without it an exploration costs 3.4% less CPU (farm-bench -n 8, the same command on the two
  // bundles in turn: 02-crash-loop-backoff guided 600 runs A/B 0.966, hunt r10 300 runs 0.967).
  keepNames: false,
  logLevel: "warning",
});
rmSync(out, { recursive: true, force: true });
renameSync(next, out);
