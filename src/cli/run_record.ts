// The run record on disk: `run --record FILE` writes one and `replay FILE` reads it back. The
// format itself is the library's (src/record/run_record.ts); here are the file system and the
// command line's errors. See docs/cli.md for the format.
import { readFileSync } from "node:fs";
import { parseRunRecord, RunRecordError, textSha256, type RunRecord } from "../record/run_record.ts";
import type { ChoiceLog } from "../sim/index.ts";
import { UserError } from "./exit.ts";

export { RUN_RECORD_FORMAT, formatRunRecord, type RunRecord } from "../record/run_record.ts";

/** Reads and checks a record; every problem is a UserError naming the file and the field. */
export function readRunRecord(path: string): { record: RunRecord; tape: ChoiceLog } {
  try {
    return parseRunRecord(readText(path), path);
  } catch (err) {
    if (err instanceof RunRecordError) throw new UserError(err.message);
    throw err;
  }
}

/** The sha256 of a file's text, as the record pins the scenario. */
export function fileSha256(path: string): string {
  return textSha256(readText(path));
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new UserError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}
