// `prepack` and `postpack`: the package.json inside the tarball carries no scripts. They run only
// in a clone (scripts/ is not shipped), and npm warns about an install script such as `prepare`
// when a project installs the tarball, although it never runs it there. `strip` sets the clone's
// package.json aside and writes the tarball's; `restore` puts the clone's back (also after a pack
// that failed half-way: `strip` restores first).
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const MANIFEST = new URL("../package.json", import.meta.url);
const ASIDE = new URL("../.package.json.clone", import.meta.url);

function restore() {
  if (existsSync(ASIDE)) renameSync(ASIDE, MANIFEST);
}

/** The clone's manifest without what only a clone uses: its scripts and the allowScripts of its dev tools. */
export function packedManifest(manifest) {
  const { scripts: _scripts, allowScripts: _allow, ...rest } = manifest;
  return rest;
}

const [command] = process.argv.slice(2);
if (command === "strip") {
  restore();
  const text = readFileSync(MANIFEST, "utf8");
  renameSync(MANIFEST, ASIDE);
  writeFileSync(MANIFEST, `${JSON.stringify(packedManifest(JSON.parse(text)), null, 2)}\n`);
} else if (command === "restore") {
  restore();
} else {
  process.stderr.write("usage: node scripts/pack_manifest.mjs strip|restore\n");
  process.exitCode = 2;
}
