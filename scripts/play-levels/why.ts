// The "why this breaks the kubelet" paragraph of a race's level: the first paragraph of its page's
// story (docs/races/rNN.md, "## The story"), as plain text; with the next one when it ends on a colon.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export function whyParagraph(root: string, raceId: string): string {
  const md = readFileSync(join(root, "docs", "races", `${raceId.toLowerCase()}.md`), "utf8");
  const start = md.indexOf("## The story\n");
  if (start < 0) throw new Error(`docs/races/${raceId.toLowerCase()}.md: no "## The story" section`);
  const body = md.slice(start + "## The story\n".length);
  const end = body.search(/\n## /);
  const paragraphs = (end < 0 ? body : body.slice(0, end)).split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== "" && !p.startsWith("```") && !p.startsWith("|"));
  const first = paragraphs[0] ?? "";
  const text = first.endsWith(":") && paragraphs[1] !== undefined && !/^\d+\.|^-/.test(paragraphs[1]) ? `${first} ${paragraphs[1]}` : first;
  return plain(text);
}

/** Markdown to plain text: links to their text, no code ticks or emphasis, one line. */
export function plain(md: string): string {
  return md
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/\*([^*]+)\*/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}
