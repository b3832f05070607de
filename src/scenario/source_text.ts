// The checks a scenario's text gets however it arrived: from a file (source.ts reads it), from a
// library caller, or in play mode's page, which compiles the learner's timing in the browser. No
// Node built-ins here: the browser bundle imports this module.
import type { LocatedIssue } from "./errors.ts";

const UTF8 = new TextEncoder();

/** Scenario files are small; anything larger is refused before it is read. */
export const MAX_FILE_BYTES = 1024 * 1024;

export type SourceResult = { ok: true; text: string } | { ok: false; issue: LocatedIssue };

export const fileIssue = (file: string, message: string, line = 1, col = 1): SourceResult => ({
  ok: false,
  issue: { file, line, col, path: "", message },
});

export function tooLarge(bytes: number): string {
  return `file too large: ${bytes} bytes; a scenario file may be at most ${MAX_FILE_BYTES} bytes (1 MiB)`;
}

/** The checks that also apply to text handed over directly (loadScenarioText). */
export function checkText(text: string, file: string): SourceResult {
  const bytes = UTF8.encode(text).length;
  if (bytes > MAX_FILE_BYTES) return fileIssue(file, tooLarge(bytes));
  const nul = text.indexOf("\0");
  if (nul >= 0) {
    const before = text.slice(0, nul).split("\n");
    return fileIssue(file, "binary content: a NUL byte; a scenario is a UTF-8 YAML text file", before.length, before.at(-1)!.length + 1);
  }
  if (isBlank(text)) return fileIssue(file, "empty file: expected a scenario (a mapping with at least `name`)");
  return { ok: true, text };
}

/** Blank means only whitespace, comments and document markers. */
function isBlank(text: string): boolean {
  return text.split(/\r?\n/).every((l) => /^\s*(#.*)?$/.test(l) || /^(---|\.\.\.)\s*$/.test(l));
}

