// Every command README.md and docs/getting-started.md show runs here, read out of the pages (so
// the test follows the docs as they are edited), and what the page claims of it is asserted: the
// comment after a command in a code block (`# lost-wakeup: FAIL (kubelet 1.20)`, `# lost-wakeup
// at run 15: FAIL, shrunk to a repro file`, `# PASS`, `# ok hello.yaml`...), the output the page
// shows, and the few claims the prose makes of a run. A claim this test cannot check fails it, so a
// new claim needs a check. The commands run in a scratch folder that sees the clone's scenarios/
// and examples/, as a user in a clone would, so whatever they write stays out of the repository.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { andThen, argv, codeBlocks, docCommands, type DocCommand } from "./doc_commands.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "kubelet-sim.mjs");
const README = join(ROOT, "README.md");
const GETTING_STARTED = join(ROOT, "docs", "getting-started.md");

const work = mkdtempSync(join(tmpdir(), "kubelet-sim-docs-"));
for (const dir of ["scenarios", "examples"]) symlinkSync(join(ROOT, dir), join(work, dir));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** A `kubelet-sim` (or `npx kubelet-sim`) command line, run in the scratch folder; `| less` dropped, `> file` honoured. */
function kubeletSim(command: string): Ran {
  const [line, redirect] = command.replace(/\s*\|\s*less$/, "").split(/\s+>\s+/) as [string, string | undefined];
  const args = argv(line).slice(line.startsWith("npx ") ? 2 : 1);
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: work, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (redirect !== undefined) writeFileSync(join(work, redirect), r.stdout);
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string>; version: string; bin: Record<string, string> };

/** `npm start`: the package's start script (node bin/kubelet-sim.mjs ...), as `npm start` runs it. */
function npmStart(): Ran {
  const script = PACKAGE.scripts["start"]!;
  expect(script).toMatch(/^node bin\/kubelet-sim\.mjs /);
  return kubeletSim(`kubelet-sim ${script.slice("node bin/kubelet-sim.mjs ".length)}`);
}

/**
 * npm commands this suite does not run, and why: installing reaches the registry (CI runs `npm ci`
 * before this suite, which is the check that it works), `npm test` is this suite, the build is the
 * suite's global set-up, and benchmarks measure speed, which `npm test` never asserts.
 */
const NOT_RUN: readonly { command: RegExp; why: string }[] = [
  { command: /^npm (install|ci)\b/, why: "installing reaches the npm registry; CI runs npm ci before the suite" },
  { command: /^npm test$/, why: "that is this suite" },
  { command: /^npm pack$/, why: "packing builds and writes a tarball; test/package/consumer.test.ts packs, installs and uses it" },
  { command: /^npm run build$/, why: "the suite's global set-up builds dist/ first" },
  { command: /^npm run (bench|profile)\b/, why: "benchmarks measure speed, which npm test never asserts" },
];

const ran = new Map<string, Ran>();

/** Runs a documented command once (a page may show the same one twice). */
function run(c: DocCommand): Ran {
  const key = c.command;
  let r = ran.get(key);
  if (r === undefined) {
    r = c.command === "npm start" ? npmStart() : kubeletSim(c.command);
    ran.set(key, r);
  }
  return r;
}

/** The checks a claim asks for; throws when no check knows the claim. */
function checkClaim(c: DocCommand, r: Ran): void {
  const claim = c.claim!;
  const where = `${c.page.slice(ROOT.length + 1)}:${c.line} \`${c.command}\` # ${claim}`;
  const exploreFail = /^([a-z][a-z0-9-]+) at run (\d+): FAIL(, shrunk to a repro file)?$/.exec(claim);
  if (exploreFail !== null) {
    expect(r.code, where).toBe(1);
    expect(r.out, where).toMatch(new RegExp(`^FAIL run ${exploreFail[2]} \\(seed \\d+\\)`, "m"));
    expect(r.out, where).toMatch(new RegExp(`^ {2}invariant ${exploreFail[1]} at \\d+ms`, "m"));
    if (exploreFail[3] !== undefined) {
      expect(r.out, where).toMatch(/^shrunk in \d+ runs/m);
      expect(r.out, where).toMatch(/^repro: \S+\.json/m);
    }
    return;
  }
  const runFail = /^([a-z][a-z0-9-]+): FAIL\b/.exec(claim);
  if (runFail !== null) {
    expect(r.code, where).toBe(1);
    expect(r.out, where).toMatch(new RegExp(`VIOLATED .*${runFail[1]}:`));
    expect(r.out, where).toMatch(/^verdict: FAIL/m);
    return;
  }
  if (/^PASS\b/.test(claim)) {
    expect(r.code, where).toBe(0);
    expect(r.out, where).toMatch(/^verdict: PASS/m);
    const at = /Running at about (\d+)s/.exec(claim);
    if (at !== null) {
      const held = /^ {2}PASS +(\d+\.\d+)s +eventually \S+: phase=Running/m.exec(r.out);
      expect(held, where).not.toBeNull();
      expect(Math.abs(Number(held![1]) - Number(at[1])), where).toBeLessThan(1);
    }
    const exit = /exit code (\d+)/.exec(claim);
    if (exit !== null) expect(r.code, where).toBe(Number(exit[1]));
    return;
  }
  const ok = /^ok ([^\s,]+)/.exec(claim);
  if (ok !== null) {
    expect(r.code, where).toBe(0);
    expect(r.out.trim(), where).toBe(`ok ${ok[1]}`);
    return;
  }
  const ends = /ends "([^"]+)"/.exec(claim);
  if (ends !== null) {
    const last = r.out.trim().split("\n").at(-1)!;
    const pattern = ends[1]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/<[^>]+>/g, "\\S+");
    expect(last, where).toMatch(new RegExp(`^${pattern}$`));
    expect(r.code, where).toBe(0);
    return;
  }
  const tour = () => {
    expect(r.code, where).toBe(0);
    expect(r.out, where).toMatch(/^scenario tour {2}seed 1/m);
    expect(r.out.split("\n").filter((l) => l.startsWith("# ")).length, where).toBeGreaterThan(3); // --explain's guide
  };
  const prose: Record<string, () => void> = {
    "install, build (dist/), run the tour scenario and explain what you are looking at": tour,
    "in a clone: install, build (dist/), run the tour scenario and explain what you are looking at": tour,
    "run the tour scenario and explain its output": tour,
    "the commands, one example each": () => {
      expect(r.code, where).toBe(0);
      for (const name of ["run", "replay", "list", "explore", "diff", "merge", "validate", "conformance", "actions", "serve", "play"]) {
        expect(r.out, where).toMatch(new RegExp(`^ {2}${name}\\b[^\\n]*\\n\\s+e\\.g\\. kubelet-sim ${name}`, "m"));
      }
    },
    "the bundled scenarios, one line each": () => {
      expect(r.code, where).toBe(0);
      expect(r.out.trim().split("\n").length, where).toBe(yamlFiles(join(ROOT, "scenarios")).length);
    },
    "a timeline, then kubectl-style Events": () => {
      expect(r.code, where).toBe(0);
      expect(r.out.indexOf("Events:"), where).toBeGreaterThan(r.out.search(/^scenario \S+ {2}seed/m));
      expect(r.out, where).toMatch(/^ {2}Type +Reason +Age +From +Message$/m);
    },
    "the same trace, checked by its hash": () => {
      expect(r.code, where).toBe(0);
      expect(r.out.trim().split("\n").at(-1), where).toMatch(/^# reproduced: the identical trace, [0-9a-f]{16}$/);
    },
    "the same run, another view": () => {
      expect(r.code, where).toBe(0);
      expect(r.out, where).toMatch(/^NAME +READY +STATUS +RESTARTS +AGE$/m);
      expect(r.out, where).toMatch(/^# reproduced: the identical trace/m);
    },
    "the scenario it built, to edit": () => {
      expect(r.code, where).toBe(0);
      const built = c.command.split(/\s+>\s+/)[1]!;
      const v = kubeletSim(`kubelet-sim validate ${built}`);
      expect(v.code, where).toBe(0);
      expect(v.out.split("\n")[0], where).toBe(`ok ${built}`);
    },
  };
  const check = prose[claim];
  if (check === undefined) throw new Error(`${where}: no check knows this claim; add one to test/docs/commands.test.ts`);
  check();
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? yamlFiles(join(dir, n)) : n.endsWith(".yaml") ? [n] : []));
}

/** What a page says of a command this suite does not run, checked against the package instead. */
const NOT_RUN_CLAIMS: Record<string, () => void> = {
  "or npm ci; either builds src/ into dist/ (the `prepare` script)": () => {
    expect(PACKAGE.scripts["prepare"]).toBe("node scripts/prepare.mjs");
    expect(readFileSync(join(ROOT, "scripts", "prepare.mjs"), "utf8")).toMatch(/\["run", "build"\]/);
    expect(PACKAGE.scripts["build"]).toMatch(/^tsc -p tsconfig\.build\.json/);
  },
  "type-check, build, and run the test suite": () => {
    expect(PACKAGE.scripts["test"]).toMatch(/^tsc --noEmit -p \. .*vitest run$/);
  },
  "type-check, build and run the test suite": () => {
    expect(PACKAGE.scripts["test"]).toMatch(/^tsc --noEmit -p \. .*vitest run$/);
  },
  "install, build (dist/), run the tour scenario and explain what you are looking at": () => {
    expect(PACKAGE.scripts["prepare"]).toBe("node scripts/prepare.mjs");
  },
  "in the clone: builds dist/, writes kubelet-sim-0.1.0.tgz": () => {
    expect(PACKAGE.scripts["prepack"]).toMatch(/^npm run build && /);
    expect(PACKAGE.version).toBe("0.1.0");
  },
  "in your project: the library, and npx kubelet-sim": () => {
    // test/package/consumer.test.ts installs the tarball so and runs both.
    expect(PACKAGE.bin["kubelet-sim"]).toBe("bin/kubelet-sim.mjs");
    expect(readFileSync(join(ROOT, "test", "package", "consumer.test.ts"), "utf8")).toMatch(/"npm", \["install"/);
  },
  "in a clone: install, build (dist/), run the tour scenario and explain what you are looking at": () => {
    expect(PACKAGE.scripts["prepare"]).toBe("node scripts/prepare.mjs");
    expect(PACKAGE.scripts["start"]).toMatch(/ run scenarios\/default\.yaml .*--explain/);
  },
  "type-check, build, and run the test suite (the browser tests need Chromium: see below)": () => {
    expect(PACKAGE.scripts["test"]).toMatch(/^tsc --noEmit -p \. .*vitest run$/);
    expect(readFileSync(README, "utf8")).toMatch(/apt-get install chromium/);
  },
  "type-check, build and run the test suite (the browser tests need Chromium: apt-get install chromium)": () => {
    expect(PACKAGE.scripts["test"]).toMatch(/^tsc --noEmit -p \. .*vitest run$/);
    expect(readFileSync(join(ROOT, "test", "browser", "chromium.ts"), "utf8")).toMatch(/apt-get install -y chromium/);
  },
};

/** The commands of a page, npm ones split on && and set aside when not run. */
function commandsOf(page: string): DocCommand[] {
  return docCommands(page).flatMap((c) => andThen(c.command).map((command) => ({ ...c, command })));
}

/** Runs a page's commands in order and checks each one's claim. */
function checkPage(page: string, setUp: Record<string, () => void> = {}): void {
  for (const c of commandsOf(page)) {
    if (c.command.includes("...")) continue; // a placeholder ("npx kubelet-sim ..."), not a command
    const skip = NOT_RUN.find((n) => n.command.test(c.command));
    if (skip !== undefined) {
      expect(skip.why.length).toBeGreaterThan(10);
      if (c.claim !== null) {
        const check = NOT_RUN_CLAIMS[c.claim];
        if (check === undefined) throw new Error(`${c.page.slice(ROOT.length + 1)}:${c.line} \`${c.command}\` # ${c.claim}: no check knows this claim`);
        check();
      }
      continue;
    }
    setUp[c.command]?.();
    const r = run(c);
    const where = `${page.slice(ROOT.length + 1)}:${c.line} \`${c.command}\``;
    expect(r.err, where).not.toMatch(/\n\s+at /); // never a stack trace
    if (c.claim !== null) checkClaim(c, r);
    else if (c.block) expect(r.code, where).toBe(0);
    // An inline mention runs without a usage error; a bare command name that needs an argument is a mention only.
    else if (!/^(npx )?kubelet-sim \w+$/.test(c.command) || c.command.endsWith(" list")) expect([0, 1], where).toContain(r.code);
  }
}

describe("README.md: every command it shows", () => {
  it("runs, and does what its comment says", () => {
    const commands = commandsOf(README);
    expect(commands.map((c) => c.command)).toContain("npx kubelet-sim explore scenarios/races/hunt/r05-hunt.yaml --invariants lost-wakeup --runs 2000");
    checkPage(README);
  });

  it("'Change a timing': a pull of 30s moves the Pulled event to 30s and fails the by: 10s expectation (exit 1)", () => {
    const text = readFileSync(README, "utf8");
    const m = /in a copy of `([^`]+)`, set `pullTime: (\d+)s`/.exec(text)!;
    const copy = readFileSync(join(ROOT, m[1]!), "utf8").replace(/pullTime: \S+ \}/, `pullTime: ${m[2]}s }`);
    writeFileSync(join(work, "slow-pull.yaml"), copy);
    const r = kubeletSim("kubelet-sim run slow-pull.yaml");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(new RegExp(`^ +${m[2]}\\.\\d+s +kubelet +default/web +Event Normal Pulled`, "m"));
    expect(r.out).toMatch(/^ {2}FAIL +- +eventually default\/web: phase=Running.* by 10s$/m);
  });
});

describe("docs/getting-started.md: every command it shows", () => {
  const text = readFileSync(GETTING_STARTED, "utf8");
  const blocks = codeBlocks(text);
  const section = (title: string) => {
    const start = text.indexOf(`\n## ${title}\n`);
    const end = text.indexOf("\n## ", start + 1);
    const first = text.slice(0, start).split("\n").length;
    const last = text.slice(0, end < 0 ? text.length : end).split("\n").length;
    return blocks.filter((b) => b.line > first && b.line <= last);
  };

  it("npm start is the command the page says, and prints the replay key and timeline the page shows", () => {
    const said = /`npm start` runs `([^`]+)`/.exec(text)![1]!;
    expect(PACKAGE.scripts["start"]).toBe(`node bin/kubelet-sim.mjs ${said.slice("kubelet-sim ".length)}`);
    const r = npmStart();
    expect(r.code).toBe(0);
    const shown = section("Your first run").filter((b) => b.lang === "text").flatMap((b) => b.lines);
    expect(shown.length).toBeGreaterThan(5);
    const lines = r.out.split("\n");
    for (const l of shown) if (l.trim() !== "..." && l.trim() !== "") expect(lines, l).toContain(l);
    expect(lines[0]).toBe(shown[0]);
  });

  it("the relist period the page points at: the container dies, and PLEG notices a relist later", () => {
    const m = /container dying at (\d+\.\d+s) \(`(\w+)`\) and PLEG noticing it at (\d+\.\d+s)/.exec(text.replace(/\s+/g, " "))!;
    const cmd = /`(kubelet-sim run scenarios\/default\.yaml --verbosity normal --pod web)(?: \| less)?`/.exec(text.replace(/\s+/g, " "))![1]!;
    const r = kubeletSim(cmd);
    expect(r.out).toMatch(new RegExp(`^ +${m[1]!.replace(".", "\\.")} +${m[2]} +container app exited`, "m"));
    expect(r.out).toMatch(new RegExp(`^ +${m[3]!.replace(".", "\\.")} +pleg +PLEG ContainerDied`, "m"));
  });

  it("runs, and does what its comment says (hello.yaml saved first, a pod manifest of your own as my-pod.yaml)", () => {
    const hello = section("Your first scenario").find((b) => b.lang === "yaml")!;
    expect(/Save this as `hello\.yaml`/.test(text)).toBe(true);
    writeFileSync(join(work, "hello.yaml"), `${hello.lines.join("\n")}\n`);
    const myPod = () => writeFileSync(join(work, "my-pod.yaml"), readFileSync(join(ROOT, "examples", "manifests", "kubectl-get-pod.yaml")));
    checkPage(GETTING_STARTED, { "kubelet-sim run my-pod.yaml --print-scenario > my-scenario.yaml": myPod });
  });

  it("'change a timing': a pull of 30s fails hello.yaml's expectation as the page shows (exit 1)", () => {
    const hello = section("Your first scenario").find((b) => b.lang === "yaml")!;
    const pull = /make the pull take `(\d+s)`/.exec(text)![1]!;
    writeFileSync(join(work, "hello-slow.yaml"), `${hello.lines.join("\n").replace(/pullTime: \S+ \}/, `pullTime: ${pull} }`)}\n`);
    const r = kubeletSim("kubelet-sim run hello-slow.yaml");
    expect(r.code).toBe(1);
    const shown = section("Your first scenario").filter((b) => b.lang === "text").flatMap((b) => b.lines);
    expect(shown.length).toBeGreaterThan(2);
    const lines = r.out.split("\n");
    for (const l of shown) {
      const prefix = l.replace(/\.\.\.$/, "");
      expect(lines.some((x) => x.startsWith(prefix)), l).toBe(true);
    }
    const moved = /The `Pulled` event moves to\s+about (\d+\.\d+)s/.exec(text)![1]!;
    const at = /^ +(\d+\.\d+)s +kubelet +default\/web +Event Normal Pulled/m.exec(r.out)!;
    expect(Math.abs(Number(at[1]) - Number(moved))).toBeLessThan(0.5);
  });
});
