// The commands a Markdown page shows, read out of the page itself so the docs test follows the docs
// as they are edited: each line of a shell code block (```sh, ```console with `$ ` prompts), with
// the `# comment` after it as its claim, and each inline `code` span that is a command.
import { readFileSync } from "node:fs";

export interface DocCommand {
  page: string;
  /** 1-based line of the page. */
  line: number;
  /** The command as the page writes it (prompt and trailing comment removed). */
  command: string;
  /** The comment after it, which states what it shows; null when none. */
  claim: string | null;
  /** From a code block (true) or an inline code span (false). */
  block: boolean;
  /** For a ```console block: the lines the page shows after the command, up to the next prompt. */
  shown: string[];
}

/** A code block: its info string, first line (1-based) and lines. */
export interface CodeBlock {
  lang: string;
  line: number;
  lines: string[];
}

export function codeBlocks(text: string): CodeBlock[] {
  const out: CodeBlock[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```|~~~)\s*([\w-]*)/.exec(lines[i]!);
    if (open === null) continue;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.trimStart().startsWith(open[2]!); j++) body.push(lines[j]!.slice(open[1]!.length));
    out.push({ lang: open[3]!, line: i + 2, lines: body });
    i = j;
  }
  return out;
}

/** A line's command and its trailing comment (a `#` after two spaces or more, or after `  `). */
function splitComment(line: string): { command: string; claim: string | null } {
  const m = /^(.*?\S)\s{2,}#\s?(.*)$/.exec(line) ?? /^(.*?\S)\s+#\s(.*)$/.exec(line);
  if (m === null) return { command: line.trim(), claim: null };
  return { command: m[1]!.trim(), claim: m[2]!.trim() };
}

const COMMAND = /^(?:npx\s+)?kubelet-sim\b|^npm\s/;

export function docCommands(page: string): DocCommand[] {
  const text = readFileSync(page, "utf8");
  const out: DocCommand[] = [];
  for (const b of codeBlocks(text)) {
    if (b.lang === "sh" || b.lang === "bash" || b.lang === "shell") {
      b.lines.forEach((l, k) => {
        if (l.trim() === "" || l.trimStart().startsWith("#")) return;
        const { command, claim } = splitComment(l);
        out.push({ page, line: b.line + k, command, claim, block: true, shown: [] });
      });
    } else if (b.lang === "console") {
      b.lines.forEach((l, k) => {
        if (!l.startsWith("$ ")) return;
        const { command, claim } = splitComment(l.slice(2));
        const shown: string[] = [];
        for (let n = k + 1; n < b.lines.length && !b.lines[n]!.startsWith("$ "); n++) shown.push(b.lines[n]!);
        out.push({ page, line: b.line + k, command, claim, block: true, shown });
      });
    }
  }
  // Inline code spans outside code blocks (they may wrap across a line break).
  const fenced = text.replace(/^(\s*)(```|~~~)[^\n]*\n[\s\S]*?^\s*\2[^\n]*$/gm, (m) => m.replace(/[^\n]/g, " "));
  for (const m of fenced.matchAll(/`([^`]+)`/g)) {
    const command = m[1]!.replace(/\s+/g, " ").trim();
    if (!COMMAND.test(command)) continue;
    const line = fenced.slice(0, m.index).split("\n").length;
    out.push({ page, line, command, claim: null, block: false, shown: [] });
  }
  return out;
}

/** Splits `a && b` into the commands it runs, in order. */
export function andThen(command: string): string[] {
  return command.split(/\s+&&\s+/).map((c) => c.trim());
}

/** The argv of a command line (no quoting in the docs' commands beyond plain words). */
export function argv(command: string): string[] {
  return command.split(/\s+/).filter((w) => w !== "");
}
