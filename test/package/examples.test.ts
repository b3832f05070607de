// The examples test/package/consumer.test.ts runs, as collected (fast, beside that slow file), and
// what README.md's commands leave behind in a clone: nothing git would list as untracked.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filesWritten, helpExamples, README, readmeCommands, uniqueCommands } from "./examples.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe("the examples a newcomer is shown", () => {
  it("are README's block and inline commands and every command's help examples, each once", () => {
    const readme = readmeCommands(README);
    expect(readme).toContain("npx kubelet-sim replay run.json");
    // Inline in README's prose: run as shown, from the consumer's folder.
    expect(readme).toContain("npx kubelet-sim run basics/01-pod-starts");
    expect(readme).toContain("npx kubelet-sim conformance test/fixtures/oracle/*.yaml");
    // A command named in passing is no example.
    expect(readme).not.toContain("kubelet-sim diff");
    const help = helpExamples();
    expect(help).toContain("kubelet-sim validate --print my.yaml");
    const all = uniqueCommands([...readme, ...help]);
    expect(all.filter((c) => c.replace(/^npx /, "") === "kubelet-sim play r05")).toHaveLength(1);
  });

  it("finds what a command line writes", () => {
    expect(filesWritten("npx kubelet-sim run x.yaml --record run.json")).toEqual(["run.json"]);
    expect(filesWritten("kubelet-sim run job.yaml --print-scenario > my.yaml && kubelet-sim run my.yaml --out t.jsonl")).toEqual(["my.yaml", "t.jsonl"]);
    expect(filesWritten("npx kubelet-sim explore r05 --runs 20")).toEqual(["repros/r.json"]);
    expect(filesWritten("npx kubelet-sim explore r05 --out found")).toEqual(["found"]);
  });

  it("README's commands, typed in a clone's root, leave no file that git status would list as untracked", () => {
    const written = [...new Set(readmeCommands(README).flatMap(filesWritten))];
    expect(written).toEqual(expect.arrayContaining(["run.json", "repros/r.json"]));
    const r = spawnSync("git", ["check-ignore", ...written], { cwd: ROOT, encoding: "utf8" });
    expect(r.error).toBeUndefined();
    expect(r.stdout.split("\n").filter((l) => l !== "").sort()).toEqual(written.sort());
  });

  it("README's npm pack, typed in a clone's root, leaves a tarball git ignores (the one README names)", () => {
    const { name, version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
    const tarball = `${name}-${version}.tgz`;
    expect(README).toMatch(/^npm pack\b/m);
    expect(README).toContain(tarball);
    const r = spawnSync("git", ["check-ignore", tarball, `${name}-${version}.tar`], { cwd: ROOT, encoding: "utf8" });
    // The tarball is ignored; a file of another name beside it is not (the check can fail).
    expect(r.stdout).toBe(`${tarball}\n`);
  });
});
