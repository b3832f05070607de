// Every relative link in README.md and docs/ resolves: the file or folder exists, and a #anchor
// names a heading of the target page (GitHub's slugs) or an explicit anchor. Links inside code
// blocks and inline code are not links.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return markdownFiles(p);
    return name.endsWith(".md") ? [p] : [];
  });
}

/** The page without fenced code blocks and inline code (links there are text). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's heading slug: lower case, punctuation out (hyphens and underscores stay), spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/ /g, "-");
}

/** The anchors a page defines: its headings' slugs (numbered when repeated) and <a id/name>. */
function anchors(path: string): Set<string> {
  const text = readFileSync(path, "utf8").replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!.replace(/`/g, ""));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]!);
  return out;
}

interface Link {
  from: string;
  target: string;
}

function links(path: string): Link[] {
  const from = relative(ROOT, path);
  return [...prose(readFileSync(path, "utf8")).matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t))
    .map((target) => ({ from, target }));
}

/** Why a link does not resolve, or null. */
export function brokenWhy(path: string, target: string): string | null {
  const [file, anchor] = target.split("#", 2) as [string, string | undefined];
  const dest = file === "" ? path : resolve(dirname(path), decodeURIComponent(file));
  if (!existsSync(dest)) return `no such file ${relative(ROOT, dest)}`;
  if (anchor === undefined || anchor === "") return null;
  if (statSync(dest).isDirectory() || !dest.endsWith(".md")) return `#${anchor} on a target that is not a Markdown page`;
  return anchors(dest).has(decodeURIComponent(anchor)) ? null : `${relative(ROOT, dest)} has no heading #${anchor}`;
}

const PAGES = [join(ROOT, "README.md"), ...markdownFiles(join(ROOT, "docs"))];

describe("links in README.md and docs/", () => {
  it("finds the pages and their links", () => {
    expect(PAGES.length).toBeGreaterThan(20);
    expect(PAGES.flatMap(links).length).toBeGreaterThan(100);
  });

  it("every relative link and #anchor resolves", () => {
    const broken = PAGES.flatMap((p) => links(p).flatMap(({ from, target }) => {
      const why = brokenWhy(p, target);
      return why === null ? [] : [`${from}: (${target}) ${why}`];
    }));
    expect(broken).toEqual([]);
  });

  it("tells a missing heading, a missing file and a good link apart", () => {
    const page = join(ROOT, "docs", "cli.md");
    expect(brokenWhy(page, "outputs.md#the-trace-hash")).toBeNull();
    expect(brokenWhy(page, "outputs.md#no-such-heading")).toMatch(/has no heading #no-such-heading/);
    expect(brokenWhy(page, "nope.md")).toMatch(/no such file docs\/nope\.md/);
    expect(brokenWhy(page, "#the-run-record")).toBeNull();
    expect(slug("Which runs: seeds, strategies, threads, shards")).toBe("which-runs-seeds-strategies-threads-shards");
    expect(slug("jsonl: JSON lines")).toBe("jsonl-json-lines");
    expect(slug("`kubelet-sim run` vs `explore`")).toBe("kubelet-sim-run-vs-explore");
  });
});
