// Located issues and their one-line form: `file:line:col: path.to.field: what was expected, what was found`.

/** One problem (or warning) in a scenario file, with where it is. */
export interface LocatedIssue {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  col: number;
  /** The field, as `pods[0].manifest.spec.containers[1].image`; "" for the whole file. */
  path: string;
  message: string;
}

/** An issue with its path relative to the scenario root, before it gets a line and column. */
export interface PathIssue {
  path: PropertyKey[];
  message: string;
  /** Locate the last path segment's key rather than its value (unknown fields). */
  atKey?: boolean;
}

/** Thrown by the loader when a scenario file has errors; carries every one of them, in file order. */
export class ScenarioError extends Error {
  override name = "ScenarioError";
  constructor(readonly issues: readonly LocatedIssue[]) {
    super(formatIssueList(issues).join("\n"));
  }
}

/** The most issues printed for one file: a mistake repeated thousands of times reads the same in the first hundreds. */
export const MAX_PRINTED_ISSUES = 200;

/** The issues as lines, at most `max`, then one line saying how many more there are. */
export function formatIssueList(issues: readonly LocatedIssue[], max = MAX_PRINTED_ISSUES): string[] {
  const lines = issues.slice(0, max).map(formatIssue);
  const rest = issues.length - lines.length;
  if (rest > 0) lines.push(`... and ${rest} more error${rest === 1 ? "" : "s"} in ${issues[max]!.file} (the first ${max} are above)`);
  return lines;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Renders a zod-style path the way people write fields: `a.b[0]["nginx:1.25"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (typeof seg === "string" && IDENTIFIER.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

export function formatIssue(issue: LocatedIssue): string {
  const where = issue.path === "" ? "" : `${issue.path}: `;
  return `${issue.file}:${issue.line}:${issue.col}: ${where}${issue.message}`;
}

export function formatIssues(issues: readonly LocatedIssue[]): string {
  return issues.map(formatIssue).join("\n");
}

/** File order: by line, then column, then path, then message (a total order, so output is stable). */
export function sortIssues(issues: LocatedIssue[]): LocatedIssue[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return issues.sort((a, b) => a.line - b.line || a.col - b.col || cmp(a.path, b.path) || cmp(a.message, b.message));
}

/** Drops exact duplicates, which unions and aliases can produce. */
export function dedupeIssues(issues: readonly LocatedIssue[]): LocatedIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = formatIssue(i);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
