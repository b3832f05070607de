// `kubelet-sim validate`: exit 0 when every file is valid, 2 otherwise; errors located, never a stack trace.
import { spawnSync } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const BAD = "test/fixtures/scenarios/bad";

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "kubelet-sim.mjs"), ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+\)?$/m);

describe("kubelet-sim validate", () => {
  it("prints ok and exits 0 for valid files", () => {
    const r = cli("validate", "scenarios/default.yaml", "scenarios/basics/01-pod-starts.yaml");
    expect(r.code).toBe(0);
    expect(r.out).toBe("ok scenarios/default.yaml\nok scenarios/basics/01-pod-starts.yaml\n");
    expect(r.err).toBe("");
  });

  it("validates every scenario under a folder", () => {
    const r = cli("validate", "scenarios/basics");
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n")).toHaveLength(12);
  });

  it("exits 2 and prints every located error of every invalid file, without a stack trace", () => {
    const r = cli("validate", "scenarios/default.yaml", `${BAD}/many-errors-at-once.yaml`, `${BAD}/syntax-tab-indent.yaml`);
    expect(r.code).toBe(2);
    expect(r.out).toBe("ok scenarios/default.yaml\n");
    const lines = r.err.trim().split("\n");
    expect(lines).toHaveLength(7 + 1 + 1);
    expect(lines[0]).toBe(
      `${BAD}/many-errors-at-once.yaml:1:7: name: expected a name in kebab-case (lower-case letters, digits and dashes), such as "crash-loop", found "Many Errors"`,
    );
    expect(lines[7]).toBe(`${BAD}/syntax-tab-indent.yaml:3:1: syntax error: a tab used for indentation; YAML indents with spaces only`);
    expect(lines[8]).toBe("2 of 3 files invalid");
    noStackTrace(r.err);
  });

  it("lists the ignored manifest fields once, with where each first appears", () => {
    const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-validate-"));
    const copy = join(dir, "copy.yaml");
    writeFileSync(copy, "name: copy\npods:\n  - manifest:\n      metadata: { name: w }\n      spec: { serviceAccount: x, containers: [{ name: c, image: i }] }\n");
    const r = cli("validate", "test/fixtures/scenarios/kubectl-get-pod.yaml", copy);
    expect(r.code).toBe(0);
    const out = r.out.split("\n");
    expect(out.filter((l) => / manifest field\(s\) accepted but not modelled by the simulator/.test(l))).toEqual(["9 manifest field(s) accepted but not modelled by the simulator (ignored):"]);
    expect(out.filter((l) => l.trimStart().startsWith("spec.serviceAccount "))).toEqual([
      "  spec.serviceAccount                test/fixtures/scenarios/kubectl-get-pod.yaml:116:9",
    ]);
    expect(r.out).toContain("  spec.affinity.podAntiAffinity      test/fixtures/scenarios/kubectl-get-pod.yaml:65:11\n");
    // Fields a cluster sets are not "unmodelled": one note says what a new create does with them.
    expect(out.filter((l) => l.startsWith("  note: fields set by a cluster"))).toHaveLength(1);
    expect(r.out).toContain("metadata.managedFields: dropped");
  });

  it("refuses a missing file with exit 2, and hostile input without a stack trace", () => {
    const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-validate-"));
    const bomb = join(dir, "bomb.yaml");
    const lines = ["name: lol", "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let i = 1; i <= 9; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(", ")}]`);
    writeFileSync(bomb, lines.join("\n"));
    const r = cli("validate", join(dir, "missing.yaml"), bomb);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${join(dir, "missing.yaml")}:1:1: no such file\n`);
    expect(r.err).toContain(`${bomb}:3:10: too many alias expansions`);
    noStackTrace(r.err);
  });

  it("prints the parsed scenario with --print, and usage errors exit 2", () => {
    const r = cli("validate", "--print", "scenarios/basics/01-pod-starts.yaml");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out.slice(r.out.indexOf("{")));
    expect(json.untilMs).toBe(60_000);
    expect(json.kubelet.syncFrequencyMs).toBe(60_000);
    expect(cli("validate").code).toBe(2);
  });

  it("has help with examples", () => {
    const r = cli("validate", "--help");
    expect(r.code).toBe(0);
    expect(r.out).toContain("Examples:");
    expect(r.out).toContain("kubelet-sim validate scenarios");
  });

  it("says so and exits 2 for a folder with nothing to validate, an empty one or one named x.yaml", () => {
    const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-validate-"));
    const empty = join(dir, "empty");
    const named = join(dir, "x.yaml");
    mkdirSync(empty);
    mkdirSync(named);
    const r = cli("validate", empty, named);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(
      `kubelet-sim: ${empty}: no .yaml or .yml files in this folder or under it; nothing was validated\n` +
        `kubelet-sim: ${named}: no .yaml or .yml files in this folder or under it; nothing was validated\n`,
    );
    // A folder named x.yaml among the files of a folder is searched, not read.
    writeFileSync(join(named, "ok.yaml"), "name: ok\n");
    const nested = cli("validate", dir);
    expect(nested.out).toBe(`ok ${join(named, "ok.yaml")}\n`);
    expect(nested.code).toBe(0);
  });

  it("refuses a FIFO named x.yaml at once rather than waiting on it, in a folder too", () => {
    const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-validate-"));
    const fifo = join(dir, "x.yaml");
    execFileSync("mkfifo", [fifo]);
    const r = cli("validate", fifo);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`${fifo}:1:1: expected a scenario file, found a FIFO (named pipe): only a regular file is read\n1 of 1 file invalid\n`);
    expect(cli("validate", dir).err).toContain(`${fifo}:1:1: expected a scenario file, found a FIFO`);
    const run = cli("run", fifo);
    expect(run.code).toBe(2);
    expect(run.err).toContain("found a FIFO (named pipe)");
  });

  it("prints at most 200 errors of a file, then how many more there are", () => {
    const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-validate-"));
    const file = join(dir, "many.yaml");
    const steps = Array.from({ length: 300 }, (_, i) => `  - { at: ${i}s, bogus${i}: 1 }`).join("\n");
    writeFileSync(file, `name: many\ntimeline:\n${steps}\n`);
    const r = cli("validate", file);
    expect(r.code).toBe(2);
    const lines = r.err.trim().split("\n");
    expect(lines).toHaveLength(200 + 2);
    expect(lines[200]).toMatch(new RegExp(`^\\.\\.\\. and \\d+ more errors in ${file} \\(the first 200 are above\\)$`));
    expect(lines[201]).toBe("1 of 1 file invalid");
  });
});
