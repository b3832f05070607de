// `prepare` (npm install or npm ci in a clone; an install from the registry never runs it): build
// dist/ with `npm run build`. `npm ci --dry-run` runs this script too, without installing anything,
// so there is no TypeScript to build with: say so and leave the build to the real install, rather
// than fail the dry run (`sh: tsc: not found`, exit 127).
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

const typescript = new URL("../node_modules/typescript/package.json", import.meta.url);
if (!existsSync(typescript)) {
  process.stderr.write("kubelet-sim: prepare: TypeScript is not installed (a dry run, or --omit=dev), so dist/ is not built; `npm run build` builds it\n");
  process.exit(0);
}
// Through the npm that runs this script, so `build` stays the one definition of the build.
const npm = process.env.npm_execpath;
const r = npm === undefined
  ? spawnSync("npm", ["run", "build"], { stdio: "inherit" })
  : spawnSync(process.execPath, [npm, "run", "build"], { stdio: "inherit" });
process.exit(r.status ?? 1);
