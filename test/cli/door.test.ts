// The command line as a newcomer meets it: a bare command, a typo, --version, bundled scenarios by
// name from any folder, a trace hash that does not depend on how the path was typed, and machine
// formats that stay pure on stdout.
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, ROOT, tempDir } from "./helpers.ts";

const BIN = join(ROOT, "bin", "kubelet-sim.mjs");
const POD_STARTS = "scenarios/basics/01-pod-starts.yaml";

function cliIn(cwd: string, args: readonly string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function recordedHash(cwd: string, file: string, record: string): string {
  const r = cliIn(cwd, ["run", file, "--record", record, "--format", "events"]);
  expect(r.code, r.err).toBe(0);
  return (JSON.parse(readFileSync(resolve(cwd, record), "utf8")) as { traceHash: string }).traceHash;
}

describe("kubelet-sim, first contact", () => {
  it("with no command lists every command with one example, and exits 0", () => {
    const r = cli([]);
    expect(r.code).toBe(0);
    for (const name of ["run", "replay", "list", "explore", "validate", "conformance", "actions"]) {
      expect(r.out).toMatch(new RegExp(`^  ${name}\\b`, "m"));
      expect(r.out).toContain(`e.g. kubelet-sim ${name}`);
    }
  });

  it("names the commands when the command is unknown, with a suggestion for a typo (exit 2)", () => {
    const r = cli(["rnu", "x.yaml"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown command 'rnu' (did you mean run?)");
    expect(r.err).toContain("the commands are: run, replay, list, explore");
    expect(r.err).not.toContain("Unknown argument");
  });

  it("--version prints package.json's version", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(cli(["--version"]).out).toBe(`${pkg.version}\n`);
  });

  it("finds a bundled scenario by name or repository path from any folder", () => {
    const dir = tempDir();
    for (const name of ["basics/01-pod-starts", POD_STARTS, "r05"]) {
      const r = cliIn(dir, ["run", name, "--format", "events"]);
      expect(r.out.split("\n")[0]).toBe(`# replay: kubelet-sim run ${name} --seed 1 --strategy fifo`);
      expect(r.code === 0 || r.code === 1, r.err).toBe(true);
    }
  });
});

describe("the trace hash", () => {
  it("is the same however the scenario's path is typed and wherever kubelet-sim runs", () => {
    const dir = tempDir();
    copyFileSync(join(ROOT, POD_STARTS), join(dir, "job.yaml"));
    const hashes = new Set([
      recordedHash(dir, "job.yaml", "a.json"),
      recordedHash(dir, "./job.yaml", "b.json"),
      recordedHash(dir, join(dir, "job.yaml"), "c.json"),
      recordedHash(ROOT, join(dir, "job.yaml"), join(dir, "d.json")),
      recordedHash(ROOT, POD_STARTS, join(dir, "e.json")),
    ]);
    expect(hashes.size).toBe(1);
  });
});

describe("machine formats on stdout", () => {
  it("--format mermaid is exactly a Mermaid document; the key, guide and verdict go to stderr", () => {
    const r = cli(["run", POD_STARTS, "--format", "mermaid", "--explain"]);
    expect(r.code).toBe(0);
    expect(r.out.startsWith("sequenceDiagram\n")).toBe(true);
    const body = r.out.split("\n").slice(1).filter((l) => l.trim() !== "");
    expect(body.every((l) => l.startsWith("    "))).toBe(true);
    expect(r.err).toContain("# replay: kubelet-sim run");
    expect(r.err).toContain("verdict: PASS");
  });
});
