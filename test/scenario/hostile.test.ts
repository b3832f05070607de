// Hostile or broken input is refused with one clear message and no stack trace. How fast the
// hostile cases are refused is `npm run bench -- hostile-input`; no test asserts wall time. What
// these tests check instead is the work a refusal does, counted: the bytes read from the file, the
// YAML tokens the depth pre-scan lexed, and whether the (recursive) composer ran at all.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { checkScenarioFile, checkScenarioText, formatIssue, type CheckResult } from "../../src/scenario/index.ts";

const work = vi.hoisted(() => ({ bytesRead: 0, tokensLexed: 0, composed: 0 }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const readSync = ((...args: Parameters<typeof fs.readSync>) => {
    const n = fs.readSync(...args);
    work.bytesRead += n;
    return n;
  }) as typeof fs.readSync;
  return { ...fs, default: { ...fs, readSync }, readSync };
});

vi.mock("yaml", async (importOriginal) => {
  const yaml = await importOriginal<typeof import("yaml")>();
  class Lexer extends yaml.Lexer {
    override *lex(source: string, incomplete?: boolean): Generator<string, void> {
      for (const token of super.lex(source, incomplete)) {
        work.tokensLexed++;
        yield token;
      }
    }
  }
  // A manifest stream is parsed through the Parser and Composer classes (scenario/yaml.ts, which
  // feeds the parser the depth-counted tokens of this Lexer): each document composed counts.
  class Composer extends yaml.Composer {
    override *compose(...args: Parameters<InstanceType<typeof yaml.Composer>["compose"]>): ReturnType<InstanceType<typeof yaml.Composer>["compose"]> {
      for (const doc of super.compose(...args)) {
        work.composed++;
        yield doc;
      }
    }
  }
  const parseDocument = ((...args: Parameters<typeof yaml.parseDocument>) => (work.composed++, yaml.parseDocument(...args))) as typeof yaml.parseDocument;
  const parseAllDocuments = ((...args: Parameters<typeof yaml.parseAllDocuments>) => (work.composed++, yaml.parseAllDocuments(...args))) as typeof yaml.parseAllDocuments;
  return { ...yaml, Lexer, Composer, parseDocument, parseAllDocuments };
});

beforeEach(() => Object.assign(work, { bytesRead: 0, tokensLexed: 0, composed: 0 }));

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
    // The pre-scan stops at the 65th bracket: refusing a million costs what refusing 65 does (the
    // other 999,935 are never lexed), and nothing is composed.
    const refusalWork = (brackets: number) => {
      Object.assign(work, { tokensLexed: 0, composed: 0 });
      expect(refused(() => checkScenarioText(`name: x\nseed: ${"[".repeat(brackets)}`, "huge.yaml"))).toEqual([
        "huge.yaml:2:71: nested too deeply: more than 64 levels; a scenario never needs that many",
      ]);
      return { ...work };
    };
    const atBound = refusalWork(65);
    expect(refusalWork(1_000_000)).toEqual(atBound);
    expect(atBound.composed).toBe(0);
    expect(atBound.tokensLexed).toBeLessThan(200);
  });

  it("lexes a scenario within the depth bound to its end before each composition (what the counts above are counted against)", async () => {
    const text = `name: x\nseed: ${"[".repeat(64)}${"]".repeat(64)}\n`;
    const { Lexer } = await vi.importActual<typeof import("yaml")>("yaml");
    const wholeText = [...new Lexer().lex(text)].length;
    expect(checkScenarioText(text, "deep64.yaml").ok).toBe(false);
    // Today the text is composed twice (as a manifest stream, whose lexing counts the depth on the
    // way to the parser, then as a scenario, after a pre-scan); what is checked is that every
    // composition follows a lexing of the whole text.
    expect(work.composed).toBeGreaterThan(0);
    expect(work.tokensLexed).toBe(work.composed * wholeText);
    expect(wholeText).toBeGreaterThan(2 * 64);
  });

  it("refuses a 2 MiB file before reading it, and 2 MiB of text", () => {
    const path = join(dir, "big.yaml");
    writeFileSync(path, `name: big\n#${"x".repeat(2 * 1024 * 1024)}\n`);
    expect(refused(() => checkScenarioFile(path))).toEqual([
      `${path}:1:1: file too large: 2097164 bytes; a scenario file may be at most 1048576 bytes (1 MiB)`,
    ]);
    expect(work).toMatchObject({ bytesRead: 0, tokensLexed: 0, composed: 0 });
    expect(refused(() => checkScenarioText("#".repeat(2 * 1024 * 1024), "big.yaml"))[0]).toContain("file too large");
    expect(work).toMatchObject({ tokensLexed: 0, composed: 0 });
  });

  it("reads a file of exactly the bound whole, and not a byte more (what the count of 0 above is counted against)", () => {
    const path = join(dir, "exact.yaml");
    writeFileSync(path, `name: big\n#${"x".repeat(1024 * 1024 - 12)}\n`);
    expect(checkScenarioFile(path).ok).toBe(true);
    expect(work.bytesRead).toBe(1024 * 1024);
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
