// `kubelet-sim explore` sets smaller inlining limits (src/cli/inlining.ts): which commands, how the user's own flag wins, and that main() sets them only
// when started as the command (a `script`), never for a program that calls it in-process. Not a
// timing test: the figures are in docs/BENCHMARKS-history.md, "Less machine code (inline)".
import { describe, expect, it } from "vitest";
import { LESS_INLINING, inliningChosen, inliningFlagsFor, lessInlining } from "../../src/cli/inlining.ts";
import { main } from "../../src/cli/main.ts";
import { tempDir } from "./helpers.ts";

const FLAGS = "--max-inlined-bytecode-size=115 --max-inlined-bytecode-size-cumulative=230";

describe("which commands get the flags, and the user's choice", () => {
  it("are a quarter of V8's limits", () => {
    expect(LESS_INLINING.join(" ")).toBe(FLAGS);
  });

  it("explore: set", () => {
    expect(inliningFlagsFor("explore", [], "")).toBe(FLAGS);
  });

  it.each(["run", "replay", "diff", "serve", "list", "validate", "merge", "play", "--help", undefined])("%s: not set", (command) => {
    expect(inliningFlagsFor(command, [], "")).toBeNull();
  });

  it.each([
    [[], "", false],
    [["--max-inlined-bytecode-size=460"], "", true],
    [[], "--max_inlined_bytecode_size_cumulative=920", true],
    [[], "--no-turbo-inlining", true],
    [["--turbo-inlining"], "", true],
    [["--max-semi-space-size=64"], "--trace-gc", false],
  ] as const)("node's flags %j, NODE_OPTIONS %j: chosen %s", (execArgv, nodeOptions, chosen) => {
    expect(inliningChosen(execArgv, nodeOptions)).toBe(chosen);
    expect(inliningFlagsFor("explore", execArgv, nodeOptions)).toBe(chosen ? null : FLAGS);
  });

  it("lessInlining hands the flags to the setter it is given", () => {
    const seen: string[] = [];
    expect(lessInlining("explore", (f) => seen.push(f))).toBe(inliningChosen() ? null : FLAGS);
    expect(lessInlining("list", (f) => seen.push(f))).toBeNull();
    expect(seen).toEqual(inliningChosen() ? [] : [FLAGS]);
  });
});

describe("main() sets them only as the command", () => {
  const quiet = () => {};
  const scenario = "scenarios/basics/01-pod-starts.yaml";

  const explore = () => ["explore", scenario, "--runs", "2", "--no-shrink", "--json", "--out", tempDir()];

  it("started as the command (a script): an explore sets them, a run does not", async () => {
    if (inliningChosen()) return; // this test process's own NODE_OPTIONS chose
    const seen: string[] = [];
    await main(explore(), quiet, { script: "bin/kubelet-sim.mjs", setV8Flags: (f) => seen.push(f) });
    expect(seen).toEqual([FLAGS]);
    await main(["run", scenario], quiet, { script: "bin/kubelet-sim.mjs", setV8Flags: (f) => seen.push(f) });
    expect(seen).toEqual([FLAGS]);
  });

  it("called in-process (no script, as the library's users and the tests call it): never", async () => {
    const seen: string[] = [];
    await main(explore(), quiet, { setV8Flags: (f) => seen.push(f) });
    expect(seen).toEqual([]);
  });
});
