// Hostile or broken input is refused with one clear message and no stack trace. How fast the
// hostile cases are refused is `npm run bench -- hostile-input`; no test asserts wall time.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkScenarioFile, checkScenarioText, formatIssue, type CheckResult } from "../../src/scenario/index.ts";

const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-hostile-"));

function refused(run: () => CheckResult): string[] {
  const result = run();
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.issues.map(formatIssue);
}

function billionLaughs(): string {
  const lines = ["name: lol", 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= 9; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(",")}]`);
  return lines.join("\n");
}

describe("hostile input", () => {
  it("refuses an alias bomb", () => {
    expect(refused(() => checkScenarioText(billionLaughs(), "bomb.yaml"))).toEqual([
      "bomb.yaml:3:10: too many alias expansions: aliases may expand to at most 100 nodes (this looks like an alias bomb)",
    ]);
  });

  it("refuses 200-deep block nesting", () => {
    const text = "name: deep\n" + Array.from({ length: 200 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n") + " 1\n";
    const lines = refused(() => checkScenarioText(text, "deep.yaml"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^deep\.yaml:\d+:\d+: nested too deeply: more than 64 levels/);
  });

  it("refuses 200-deep flow nesting, and a million brackets", () => {
    const flow = (n: number) => `name: deep\nseed: ${"[".repeat(n)}${"]".repeat(n)}\n`;
    expect(refused(() => checkScenarioText(flow(200), "flow.yaml"))).toEqual([
      "flow.yaml:2:71: nested too deeply: more than 64 levels; a scenario never needs that many",
    ]);
    expect(refused(() => checkScenarioText(`name: x\nseed: ${"[".repeat(1_000_000)}`, "huge.yaml"))).toHaveLength(1);
  });

  it("refuses a 2 MiB file before reading it, and 2 MiB of text", () => {
    const path = join(dir, "big.yaml");
    writeFileSync(path, `name: big\n#${"x".repeat(2 * 1024 * 1024)}\n`);
    expect(refused(() => checkScenarioFile(path))).toEqual([
      `${path}:1:1: file too large: 2097164 bytes; a scenario file may be at most 1048576 bytes (1 MiB)`,
    ]);
    expect(refused(() => checkScenarioText("#".repeat(2 * 1024 * 1024), "big.yaml"))[0]).toContain("file too large");
  });

  it("refuses binary content: NUL bytes and invalid UTF-8", () => {
    const nul = join(dir, "nul.yaml");
    writeFileSync(nul, Buffer.from("name: x\nseed: \u0000\u0001\u0002", "utf8"));
    expect(refused(() => checkScenarioFile(nul))).toEqual([
      `${nul}:2:7: binary content: a NUL byte; a scenario is a UTF-8 YAML text file`,
    ]);
    const latin1 = join(dir, "latin1.yaml");
    writeFileSync(latin1, Buffer.concat([Buffer.from("name: caf"), Buffer.from([0xe9]), Buffer.from("\n")]));
    expect(refused(() => checkScenarioFile(latin1))).toEqual([
      `${latin1}:1:10: binary content: invalid UTF-8 at byte 9; a scenario is a UTF-8 YAML text file`,
    ]);
  });

  it("refuses an empty file, a comment-only file, a top-level list and a top-level scalar", () => {
    const empty = join(dir, "empty.yaml");
    writeFileSync(empty, "");
    expect(refused(() => checkScenarioFile(empty))).toEqual([
      `${empty}:1:1: empty file: expected a scenario (a mapping with at least \`name\`)`,
    ]);
    expect(refused(() => checkScenarioText("# todo\n\n", "c.yaml"))[0]).toContain("empty file");
    expect(refused(() => checkScenarioText("- name: a\n- name: b\n", "list.yaml"))).toEqual([
      "list.yaml:1:1: expected a scenario: a mapping of fields (name, kubelet, pods, ...), found a list at the top level",
    ]);
    expect(refused(() => checkScenarioText("42\n", "n.yaml"))[0]).toContain("found the number 42 at the top level");
  });

  it("refuses a missing file and a folder", () => {
    expect(refused(() => checkScenarioFile(join(dir, "nope.yaml")))[0]).toMatch(/nope\.yaml:1:1: no such file$/);
    expect(refused(() => checkScenarioFile(dir))[0]).toContain("expected a scenario file, found a directory");
  });
});
