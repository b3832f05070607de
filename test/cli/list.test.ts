// `kubelet-sim list`: one line per bundled scenario: path, name, the description's first sentence.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { executeList, firstSentence } from "../../src/cli/commands/list.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { bundledScenarios } from "./golden_table.ts";
import { cli, inProcess, ROOT, tempDir } from "./helpers.ts";

describe("kubelet-sim list", () => {
  it("lists every bundled scenario, aligned, with its name and first sentence", () => {
    const r = cli(["list"]);
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    const lines = r.out.trimEnd().split("\n");
    const files = bundledScenarios();
    expect(lines).toHaveLength(files.length);
    const nameColumn = Math.max(...files.map((f) => f.length)) + 2;
    files.forEach((file, i) => {
      const { scenario } = loadScenarioFile(join(ROOT, file));
      const line = lines[i]!;
      expect(line.startsWith(`${file} `)).toBe(true);
      expect(line.slice(nameColumn).startsWith(`${scenario.name} `)).toBe(true);
      expect(line.endsWith(`  ${firstSentence(scenario.description)}`)).toBe(true);
    });
    expect(r.out).toContain("scenarios/default.yaml");
  });

  it("lists a folder of one's own, marking an invalid file and exiting 2", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.yaml"), "name: a\ndescription: First. Second.\n");
    writeFileSync(join(dir, "b.yaml"), "name: B\n");
    writeFileSync(join(dir, "notes.txt"), "not a scenario\n");
    const r = inProcess((io) => executeList(dir, io));
    expect(r.code).toBe(2);
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/a\.yaml +a {10}First\.$/); // names padded to "(invalid)"
    expect(lines[1]).toMatch(/b\.yaml +\(invalid\) {2}1 error\(s\); run kubelet-sim validate .*b\.yaml$/);
  });

  it("refuses a path that is not a folder (exit 2)", () => {
    const r = inProcess((io) => executeList(join(tempDir(), "nope"), io));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/nope: not a folder of scenarios\n$/);
  });
});

describe("firstSentence", () => {
  it.each([
    ["The simplest life of a pod. At 0s the pod is created.", "The simplest life of a pod."],
    ["A wrapped\n  first sentence.\nSecond.", "A wrapped first sentence."],
    ["Pulls nginx:1.25 (2s) then starts. More.", "Pulls nginx:1.25 (2s) then starts."],
    ["No full stop at all", "No full stop at all"],
    ["Is it ready? Not yet.", "Is it ready?"],
    ["", ""],
  ])("%j", (description, sentence) => {
    expect(firstSentence(description)).toBe(sentence);
  });
});
