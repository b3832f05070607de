// The package as a stranger gets it: `npm pack`, the tarball installed into a project of its own
// (one install), then (a) a plain Node ESM script, (b) tsc under strict and
// exactOptionalPropertyTypes, (c) a vitest property test, (d) `require()` of the ES module, and
// (e) every example the CLI's help and README.md show, run from that project as a user would type
// it. Slow (an npm install and some sixty commands), so it runs once, in its own file. How long
// the consumer's tsc takes is not asserted here: `npm run bench -- consumer-tsc` measures it.
import { execFileSync, spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesWritten, helpExamples, README, readmeCommands, readmeLibrarySnippet, uniqueCommands } from "./examples.ts";
import { HANG_MS } from "../setup/hang.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURES = fileURLToPath(new URL("./consumer", import.meta.url));
const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string; devDependencies: Record<string, string> };

/** The environment without this vitest's own variables, so the consumer's vitest starts afresh. */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "NODE_OPTIONS" && k !== "TEST"));

let work = "";
let project = "";
let tarball = "";
let installOutput = "";
/** A folder of the files the examples name (x.yaml, run.json, out/1...), copied afresh for each example. */
let template = "";

function run(cmd: string, args: readonly string[], cwd = project): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: cleanEnv, encoding: "utf8", timeout: HANG_MS, maxBuffer: 64 * 1024 * 1024 });
}

function explain(r: SpawnSyncReturns<string>): string {
  return `exit ${String(r.status)}\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`;
}

/** A shell line as a user types it in the project, with the installed kubelet-sim on PATH. */
function sh(line: string, cwd: string): SpawnSyncReturns<string> {
  const PATH = `${join(project, "node_modules", ".bin")}${delimiter}${cleanEnv.PATH ?? ""}`;
  return spawnSync("sh", ["-c", line], { cwd, env: { ...cleanEnv, PATH, NO_COLOR: "1" }, encoding: "utf8", timeout: HANG_MS, maxBuffer: 64 * 1024 * 1024 });
}

/** Packs as `npm pack` does (prepack's manifest without scripts) but without prepack's build: the global set-up built dist/. */
function pack(): string {
  execFileSync(process.execPath, ["scripts/pack_manifest.mjs", "strip"], { cwd: ROOT });
  try {
    const out = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], { cwd: ROOT, env: cleanEnv, encoding: "utf8" });
    return join(work, out.trim().split("\n").pop()!);
  } finally {
    execFileSync(process.execPath, ["scripts/pack_manifest.mjs", "restore"], { cwd: ROOT });
  }
}

/** The files the examples take for granted, made with the installed CLI itself. */
function makeTemplate(): void {
  template = join(project, "examples-template");
  mkdirSync(template);
  const pkg = join(project, "node_modules", "kubelet-sim");
  writeFileSync(join(template, "x.yaml"), X_YAML);
  for (const f of ["my.yaml", "my-scenario.yaml"]) copyFileSync(join(template, "x.yaml"), join(template, f));
  copyFileSync(join(pkg, "examples", "actions", "liveness-failed.yaml"), join(template, "snapshot.yaml"));
  mkdirSync(join(template, "my-scenarios"));
  copyFileSync(join(template, "x.yaml"), join(template, "my-scenarios", "x.yaml"));
  // ../old/x.yaml from each example's folder: the moved scenario of `replay --scenario`.
  mkdirSync(join(project, "ws", "old"), { recursive: true });
  copyFileSync(join(template, "x.yaml"), join(project, "ws", "old", "x.yaml"));
  const made = [
    "kubelet-sim run x.yaml --strategy random --record run.json",
    "kubelet-sim run x.yaml --seed 2 --strategy random --record run2.json",
    ...[1, 2, 3, 4].map((i) => `kubelet-sim explore x.yaml --runs 8 --shard ${i}/4 --out out/${i}`),
  ];
  for (const line of made) {
    const r = sh(line, template);
    if (r.status !== 0) throw new Error(`setting up the examples: ${line}\n${explain(r)}`);
  }
  cpSync(join(template, "out"), join(template, "shards"), { recursive: true });
  for (const i of [1, 2, 3, 4]) cpSync(join(template, "shards", String(i)), join(template, "shards", `shard-${i}`), { recursive: true });
  for (const i of [1, 2, 3, 4]) rmSync(join(template, "shards", String(i)), { recursive: true });
}

/** What the examples call x.yaml: a small scenario of one pod named web, quick to explore (5,000 runs in one example). */
const X_YAML = `name: x
until: 5s
runtime:
  images:
    "nginx:1.25": { present: true }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web }
      spec:
        containers:
          - { name: app, image: "nginx:1.25" }
timeline:
  - { at: 0s, create: web }
expect:
  - eventually: { pod: web, phase: Running }
`;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "kubelet-sim-consumer-"));
  tarball = pack();
  project = join(work, "project");
  mkdirSync(project);
  const pkg = {
    name: "kubelet-sim-consumer",
    private: true,
    type: "module",
    dependencies: { "kubelet-sim": `file:${tarball}` },
    devDependencies: { typescript: own.devDependencies.typescript, vitest: own.devDependencies.vitest },
  };
  writeFileSync(join(project, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  for (const f of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, f), join(project, f));
  // README's library example, as a module of the project (type-checked by (b), run by (e)).
  writeFileSync(join(project, "readme-library.ts"), readmeLibrarySnippet(README));
  const install = run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"]);
  installOutput = `${install.stdout}\n${install.stderr}`;
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${explain(install)}`);
  makeTemplate();
});

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

describe("the npm package, installed from its tarball", () => {
  it("ships the build, the scenarios, examples, vectors and docs, no tests, sources or maps, and a manifest without scripts", () => {
    const list = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).trim().split("\n");
    for (const f of ["dist/index.js", "dist/index.d.ts", "bin/kubelet-sim.mjs", "scenarios/default.yaml", "LICENSE", "dist/bundle/main.js", "dist/bundle/worker.js",
      "examples/manifests/job.yaml", "test/fixtures/oracle/compute_pod_actions.yaml", "test/fixtures/oracle2/phase.yaml", "docs/cli.md", "cjs/esm-only.cjs"]) {
      expect(list, f).toContain(`package/${f}`);
    }
    // Data under test/fixtures/oracle*, read by `conformance`; nothing else of test/, and no sources or source maps.
    const unwanted = list.filter((f) => /(^package\/test\/(?!fixtures\/oracle2?\/)|\.test\.|^package\/src\/|^package\/scripts\/|tsbuildinfo|\.map$|\.png$)/.test(f));
    expect(unwanted).toEqual([]);
    const manifest = JSON.parse(execFileSync("tar", ["xzfO", tarball, "package/package.json"], { encoding: "utf8" })) as Record<string, unknown>;
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.version).toBe(own.version);
    // About 2.1 MB packed: the per-module build (its declarations, the zod schemas' among them, that
    // no entry point reaches, about 0.5 MB), the CLI's bundle, and the play page's client with its
    // source index (the model code the page shows, about 0.35 MB). A bound, so growth is a decision:
    // the benchmarks' history (the developers' record of every change, half a megabyte and growing)
    // stays in the repository; the current figures ship.
    expect(list).toContain("package/docs/BENCHMARKS.md");
    expect(list).not.toContain("package/docs/BENCHMARKS-history.md");
    expect(statSync(tarball).size).toBeLessThan(2_500_000);
  });

  it("installs without a warning about install scripts", () => {
    expect(installOutput).not.toMatch(/install-scripts|prepare/i);
  });

  it("(a) runs a scenario, renders, records and replays it from plain Node", () => {
    const r = run(process.execPath, ["run-scenario.mjs"]);
    expect(r.status, explain(r)).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ version: own.version, ok: true, events: true, html: true, divergence: null });
    expect(out.replayedHash).toBe(out.traceHash);
  });

  it("(b) type-checks a consumer (and README's library example) under strict and exactOptionalPropertyTypes", () => {
    const r = run(process.execPath, [join(project, "node_modules", "typescript", "bin", "tsc"), "-p", "."]);
    expect(r.status, explain(r)).toBe(0);
  });

  it("(c) runs a vitest property test with assertInvariantHolds", () => {
    const r = run(process.execPath, [join(project, "node_modules", "vitest", "vitest.mjs"), "run", "--reporter=dot"]);
    expect(r.status, explain(r)).toBe(0);
  });

  it("(d) require() of the ES module says so in one line", () => {
    for (const entry of ["kubelet-sim", "kubelet-sim/sim"]) {
      const r = run(process.execPath, ["-e", `require(${JSON.stringify(entry)})`]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('Error: kubelet-sim is an ES module: load it with `import { simulate } from "kubelet-sim"`');
      expect(r.stderr).not.toContain("ERR_PACKAGE_PATH_NOT_EXPORTED");
    }
  });
});

/** The examples whose point is a failure, a difference or a found race: exit 1 is their success. */
const EXPECT_EXIT_1 = [
  /^(npx )?kubelet-sim run (scenarios\/races\/r05-pw-kill-pinning\.yaml|r05)( --format text)?$/,
  /^(npx )?kubelet-sim diff /,
  // An exploration of a race's scenario or hunt form that finds it (README says which run does).
  /^(npx )?kubelet-sim explore scenarios\/races\/hunt\/r05-hunt\.yaml --invariants lost-wakeup --runs 2000$/,
  /^(npx )?kubelet-sim explore scenarios\/races\/r05-pw-kill-pinning\.yaml --runs 2000( --no-shrink)?$/,
];

/** Commands that serve until stopped: started, asked once over HTTP, then stopped with Ctrl-C. */
const SERVES = /^kubelet-sim (serve|play \S+ --serve)\b/;

/** A fresh copy of the template for one example, inside the project (npx finds the package from there). */
function exampleDir(i: number): string {
  const dir = join(project, "ws", `ex${i}`);
  cpSync(template, dir, { recursive: true });
  return dir;
}

async function serveOnce(line: string, cwd: string): Promise<{ code: number | null; out: string; err: string; answered: number | null }> {
  const PATH = `${join(project, "node_modules", ".bin")}${delimiter}${cleanEnv.PATH ?? ""}`;
  const child = spawn("sh", ["-c", `exec ${line}`], { cwd, env: { ...cleanEnv, PATH, NO_COLOR: "1" } });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let answered: number | null = null;
  for (let i = 0; i < 1200 && child.exitCode === null; i++) {
    const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    if (url !== undefined) {
      answered = (await fetch(`${url}/${line.includes(" play ") ? "" : "healthz"}`)).status;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGINT");
  return { code: await exited, out, err, answered };
}

describe("every example the help and README.md show, run from the consumer's project", () => {
  // README's commands as written (npx ...), then the help's; one README already runs is run once.
  const examples = uniqueCommands([...readmeCommands(README), ...helpExamples()]);

  it("finds the examples: the help's and README's, its blocks' and its prose's", () => {
    expect(examples.length).toBeGreaterThan(40);
    expect(examples).toContain("npx kubelet-sim conformance test/fixtures/oracle/*.yaml");
    expect(examples).toContain("npx kubelet-sim replay run.json");
    expect(examples).toContain("npx kubelet-sim run r05");
    expect(examples).toContain("kubelet-sim actions --no-sidecars snapshot.yaml");
  });

  it.each(examples.map((line, i) => [line, i] as const))("%s", async (line, i) => {
    const cwd = exampleDir(i);
    if (SERVES.test(line)) {
      const r = await serveOnce(line, cwd);
      // The default port may be taken on a shared machine: then the one-line refusal is the right answer.
      if (r.code === 2 && /port \d+ on 127\.0\.0\.1 is in use; pass --port 0/.test(r.err)) return;
      expect(r.answered, `${r.out}\n${r.err}`).toBe(200);
      expect(r.code, `${r.out}\n${r.err}`).toBe(0);
      return;
    }
    const r = sh(line, cwd);
    const want = EXPECT_EXIT_1.some((re) => re.test(line)) ? 1 : 0;
    expect(r.status, explain(r)).toBe(want);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?$/m);
    expect(r.stderr).not.toMatch(/no such file|not found|cannot find/i);
    // A file an example says it writes is there.
    for (const path of filesWritten(line)) {
      // A shard's folder, and the repro folder of an exploration that found nothing, may stay unwritten.
      if (!line.includes("--shard") && !path.startsWith("repros/")) expect(existsSync(join(cwd, path)), path).toBe(true);
    }
  });

  it("README's library example runs as a module of the project", () => {
    const cwd = exampleDir(9999);
    copyFileSync(join(project, "readme-library.ts"), join(cwd, "readme-library.mjs"));
    const r = run(process.execPath, [join(cwd, "readme-library.mjs")], cwd);
    expect(r.status, explain(r)).toBe(0);
    expect(r.stdout).toMatch(/Started/);
  });
});
