// Files that appear whole or not at all: written to a temporary file beside the target, flushed,
// then renamed over it (a rename within one directory is atomic on POSIX file systems).
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

let tempCount = 0;

export function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${++tempCount}.tmp`);
  const fd = openSync(temp, "wx", 0o644);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(temp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (err) {
    unlinkSync(temp);
    throw err;
  }
}
