// Every example a newcomer is shown: the ones `kubelet-sim --help` and each command's --help list
// (read from the command definitions themselves, so a new example is run without anyone adding
// it here), the one a bare `kubelet-sim` shows per command, and README.md's commands and library
// snippet. test/package/consumer.test.ts runs them all from a project that installed the tarball.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { TOP_EXAMPLES, type CommandContext } from "../../src/cli/main.ts";

/** The .example() calls a command's yargs builder makes, caught by a stand-in for yargs that records them. */
function builderExamples(builder: unknown): string[] {
  const found: string[] = [];
  const recorder: unknown = new Proxy(
    {},
    {
      get: (_t, prop) => (...args: unknown[]) => {
        if (prop === "example") {
          const pairs = Array.isArray(args[0]) ? (args[0] as [string][]) : [[args[0] as string]];
          for (const [cmd] of pairs) found.push(cmd);
        }
        return recorder;
      },
    },
  );
  if (typeof builder === "function") builder(recorder);
  return found;
}

/** Every command line the help shows, with `$0` as `kubelet-sim`, each once. */
export function helpExamples(): string[] {
  const ctx: CommandContext = { exitCode: 0 };
  const all = [
    ...TOP_EXAMPLES.map(([cmd]) => cmd),
    ...COMMANDS.map((c) => c.example),
    ...COMMANDS.flatMap((c) => builderExamples(c.make(ctx).builder)),
  ];
  return [...new Set(all.map((cmd) => cmd.replaceAll("$0", "kubelet-sim")))];
}

/**
 * README.md's commands, as written: the lines of its sh blocks that run kubelet-sim (without their
 * trailing comments), then the ones its prose shows inline: `npx kubelet-sim ...`, and
 * `kubelet-sim COMMAND ARG...` (a bare `kubelet-sim diff` names a command, it is no example).
 * Each once, `npx` or not.
 */
export function readmeCommands(readme: string): string[] {
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const lines = blocks
    .flatMap((b) => b.split("\n"))
    .map((line) => line.replace(/\s+#\s.*$/, "").trim())
    .filter((line) => /^npx kubelet-sim\b/.test(line));
  const prose = readme.replace(/```[\s\S]*?```/g, "");
  const inline = [...prose.matchAll(/`((?:npx )?kubelet-sim(?: [^`]*)?)`/g)]
    .map((m) => m[1]!.trim())
    .filter((cmd) => cmd.startsWith("npx ") || /^kubelet-sim \S+ \S/.test(cmd));
  return uniqueCommands([...lines, ...inline]);
}

/** Commands each once, `npx kubelet-sim x` and `kubelet-sim x` being the same (the first kept). */
export function uniqueCommands(commands: readonly string[]): string[] {
  const seen = new Set<string>();
  return commands.filter((cmd) => {
    const bare = cmd.replace(/^npx /, "");
    if (seen.has(bare)) return false;
    seen.add(bare);
    return true;
  });
}

/**
 * The files a command line writes, relative to where it runs: `--record F`, `--out F`, `> F`, and
 * the repro folder `explore` writes to by default (a file in it: repros/r.json).
 */
export function filesWritten(line: string): string[] {
  const named = [...line.matchAll(/(?:--out|--record|>) (\S+)/g)].map((m) => m[1]!);
  const explores = /\bkubelet-sim explore\b/.test(line) && !/--out\b/.test(line);
  return [...named, ...(explores ? ["repros/r.json"] : [])];
}

/** README.md's library example (its ```ts block under "As a library"). */
export function readmeLibrarySnippet(readme: string): string {
  const section = readme.slice(readme.indexOf("## As a library"));
  const m = /```ts\n([\s\S]*?)```/.exec(section);
  if (m === null) throw new Error("README.md has no ```ts block under ## As a library");
  return m[1]!;
}

export const README = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
