// Usage mistakes said in words: a missing file names what the command needs with its example, a
// number flag given a word quotes the word, and the help lists every strategy.
import { describe, expect, it } from "vitest";
import { typedWord } from "../../src/cli/main.ts";
import { cli } from "./helpers.ts";

describe("usage errors in words", () => {
  it("run with no file says what it needs and shows an example (exit 2)", () => {
    const r = cli(["run"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "kubelet-sim: run needs <file>, e.g. kubelet-sim run scenarios/default.yaml (kubelet-sim list shows the bundled scenarios); kubelet-sim run --help lists its options\n",
    );
    expect(cli(["validate"]).err).toMatch(/^kubelet-sim: validate needs <files\.\.>, e\.g\. kubelet-sim validate /);
  });

  it("a number flag given a word quotes the word, not NaN", () => {
    const seed = cli(["run", "scenarios/default.yaml", "--seed=seven"]);
    expect(seed.code).toBe(2);
    expect(seed.err).toBe("kubelet-sim: --seed seven: expected a whole number from 0 to 4294967295\n");
    expect(cli(["explore", "scenarios/default.yaml", "--runs", "many"]).err).toBe("kubelet-sim: --runs many: expected a whole number from 0 to 9007199254740991\n");
  });

  it("finds the word typed for a flag in either spelling, the last one winning", () => {
    expect(typedWord(["run", "x", "--max-messages", "lots"], "maxMessages")).toBe("lots");
    expect(typedWord(["--port=abc"], "port")).toBe("abc");
    expect(typedWord(["--port", "1", "--port", "z"], "port")).toBe("z");
    expect(typedWord(["--seed"], "seed")).toBe("");
    expect(typedWord([], "seed")).toBeNull();
  });

  it("--strategy's help lists every strategy, pos too", () => {
    for (const command of ["run", "serve"]) {
      const help = cli([command, "--help"]).out.replace(/\s+/g, " ");
      expect(help, command).toContain("fifo, random, pct, pct:DEPTH[:STEPS], pos");
    }
  });
});
