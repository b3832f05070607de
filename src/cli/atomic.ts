// Output files appear whole or not at all: everything is written to a temporary file in the
// target's own directory (so the rename cannot cross file systems), flushed, then renamed over the
// target. A run that fails half-way removes its temporary file and leaves the target untouched.
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UserError } from "./exit.ts";

let tempCount = 0;

export class AtomicFile {
  private fd: number | null;

  private constructor(
    readonly target: string,
    readonly tempPath: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Creates the temporary file now, so an unwritable target fails before a long run, not after. */
  static open(target: string): AtomicFile {
    const tempPath = join(dirname(target), `.${basename(target)}.${process.pid}-${++tempCount}.tmp`);
    try {
      return new AtomicFile(target, tempPath, openSync(tempPath, "wx", 0o644));
    } catch (err) {
      throw new UserError(`cannot write ${target}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  }

  write(text: string): void {
    if (this.fd === null) throw new Error(`AtomicFile ${this.target}: write after commit or abort`);
    writeSync(this.fd, text);
  }

  /** Flushes, closes and renames over the target: from now on readers see the whole file. */
  commit(): void {
    if (this.fd === null) throw new Error(`AtomicFile ${this.target}: commit after commit or abort`);
    const fd = this.fd;
    this.fd = null;
    try {
      fsyncSync(fd);
      closeSync(fd);
      renameSync(this.tempPath, this.target);
    } catch (err) {
      removeQuietly(this.tempPath);
      throw new UserError(`cannot write ${this.target}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  }

  /** Drops the temporary file; the target keeps whatever it held before. Safe to call twice. */
  abort(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      closeSync(fd);
    } finally {
      removeQuietly(this.tempPath);
    }
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing is left behind either way.
  }
}

/** Writes a whole text atomically. */
export function writeFileAtomic(target: string, text: string): void {
  const file = AtomicFile.open(target);
  try {
    file.write(text);
  } catch (err) {
    file.abort();
    throw err;
  }
  file.commit();
}
