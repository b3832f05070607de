// What `import { simulate } from "kubelet-sim"` costs a consumer's tsc: a project of its own
// (strict, exactOptionalPropertyTypes, no skipLibCheck, as test/package/consumer does) with the
// package linked in as installed, type-checked with the import and without it, alternately, each
// the fastest of a few rounds in CPU time of the tsc process. README.md promises well under a
// second; it was 8 s and 1 GB when the declarations carried zod's inferred schema types.
// Reads the build (dist/): `npm run build` first.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchLine } from "./kernel.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = 3;

const TSCONFIG = (file: string) =>
  JSON.stringify({
    compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, exactOptionalPropertyTypes: true, noEmit: true, types: [] },
    files: [file],
  });

/** The tsc process's own CPU time, printed as it exits (host-time-ok: src/bench). */
const RUNNER = `process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write("cpu-us " + (u.user + u.system) + "\\n"); });
require(process.env.TSC_PATH);
`;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-consumer-tsc-"));
  mkdirSync(join(dir, "node_modules"));
  // Linked as `npm install` of a folder links it: the package's own node_modules serve its imports (fast-check).
  symlinkSync(ROOT, join(dir, "node_modules", "kubelet-sim"), "dir");
  writeFileSync(join(dir, "bare.ts"), "export const n: number = 1;\n");
  writeFileSync(join(dir, "root.ts"), 'import { simulate } from "kubelet-sim";\nexport const run: typeof simulate = simulate;\n');
  writeFileSync(join(dir, "sim.ts"), 'import { Sim } from "kubelet-sim/sim";\nexport const S: typeof Sim = Sim;\n');
  for (const f of ["bare", "root", "sim"]) writeFileSync(join(dir, `${f}.json`), TSCONFIG(`${f}.ts`));
  writeFileSync(join(dir, "runner.cjs"), RUNNER);
  return dir;
}

/** CPU milliseconds of one type-check of `name`.ts; throws when tsc reports an error. */
function tscCpuMs(dir: string, name: string): number {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, ["runner.cjs", "-p", `${name}.json`], { cwd: dir, encoding: "utf8", env: { ...process.env, TSC_PATH: tsc } });
  if (r.status !== 0) throw new Error(`tsc of ${name}.ts failed:\n${r.stdout}${r.stderr}`);
  const us = /cpu-us (\d+)/.exec(r.stderr);
  if (us === null) throw new Error(`tsc of ${name}.ts printed no CPU time: ${r.stderr}`);
  return Number(us[1]) / 1000;
}

export function benchConsumerTsc(): BenchLine[] {
  if (!existsSync(join(ROOT, "dist", "index.d.ts"))) throw new Error("consumer-tsc needs the build: npm run build");
  const dir = project();
  try {
    const best = { bare: Infinity, root: Infinity, sim: Infinity };
    // Interleaved, so a change in the machine's load touches every figure alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of ["bare", "root", "sim"] as const) best[name] = Math.min(best[name], tscCpuMs(dir, name));
    }
    return (["root", "sim"] as const).map((name) => {
      const added = best[name] - best.bare;
      return {
        name: "consumer-tsc",
        import: name === "root" ? '{ simulate } from "kubelet-sim"' : '{ Sim } from "kubelet-sim/sim"',
        cpuMs: Math.round(best[name]),
        bareCpuMs: Math.round(best.bare),
        addedCpuMs: Math.round(added),
        underASecond: added < 1000 ? "yes" : "no",
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
