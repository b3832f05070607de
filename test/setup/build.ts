// Vitest's global set-up: compile src/ to dist/ before any test runs, because the CLI tests run
// bin/kubelet-sim.mjs as a user would, and it runs the compiled JavaScript. The build is
// incremental, so an unchanged tree costs about a second.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
    // The rest of `npm run build`: the page scripts, and the CLI's bundle that bin/ starts from
    // (dist/bundle/), so the CLI tests run the code of this tree, not of the last install.
    execFileSync(process.execPath, ["scripts/build-html-client.mjs"], { cwd: root, stdio: "pipe" });
    execFileSync(process.execPath, ["scripts/build-node-bundles.mjs"], { cwd: root, stdio: "pipe" });
  } catch (err) {
    const out = (err as { stdout?: Buffer }).stdout?.toString() ?? "";
    throw new Error(`npm run build failed, so the CLI tests cannot run:\n${out}`);
  }
}
