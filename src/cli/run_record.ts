// The run record on disk: `run --record FILE` writes one and `replay FILE` reads it back. The
// format itself is the library's (src/record/run_record.ts); here are the file system and the
// command line's errors. See docs/cli.md for the format.
import { MAX_RECORD_BYTES, parseRunRecord, RunRecordError, textSha256, type RunRecord } from "../record/run_record.ts";
import { readRegularFile } from "../scenario/read_file.ts";
import { MAX_FILE_BYTES, tooLarge } from "../scenario/source_text.ts";
import type { ChoiceLog } from "../sim/index.ts";
import { UserError } from "./exit.ts";

export { RUN_RECORD_FORMAT, formatRunRecord, type RunRecord } from "../record/run_record.ts";

/** Reads and checks a record; every problem is a UserError naming the file and the field. */
export function readRunRecord(path: string): { record: RunRecord; tape: ChoiceLog } {
  try {
    return parseRunRecord(readRecordText(path), path);
  } catch (err) {
    if (err instanceof RunRecordError) throw new UserError(err.message);
    throw err;
  }
}

/** The sha256 of a scenario file's text, as the record pins the scenario. */
export function fileSha256(path: string): string {
  return textSha256(readText(path, "a scenario file", MAX_FILE_BYTES, tooLarge));
}

/**
 * The sha256 of the scenario a record names, read at `path`: a file that cannot be read (a folder,
 * a FIFO, too large) is named as the record's `scenario`, since the user did not type that path.
 */
export function recordedScenarioSha256(path: string, recordFile: string): string {
  try {
    return fileSha256(path);
  } catch (err) {
    if (err instanceof UserError) throw new UserError(`${recordFile}: scenario: ${err.message}`);
    throw err;
  }
}

/** A run record's text: a regular file of at most MAX_RECORD_BYTES. */
export function readRecordText(path: string): string {
  const tooBig = (bytes: number) => `file too large: ${bytes} bytes; a run record may be at most ${MAX_RECORD_BYTES} bytes`;
  return readText(path, "a run record (JSON)", MAX_RECORD_BYTES, tooBig);
}

function readText(path: string, what: string, maxBytes: number, tooBig: (bytes: number) => string): string {
  const read = readRegularFile(path, what, maxBytes, tooBig);
  if (!read.ok) throw new UserError(`cannot read ${path}: ${read.why}`);
  return read.bytes.toString("utf8");
}
