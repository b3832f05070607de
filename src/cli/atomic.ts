// Output files appear whole or not at all: everything is written to a temporary file in the
// target's own directory (so the rename cannot cross file systems), flushed, then renamed over the
// target. A run that fails half-way removes its temporary file and leaves the target untouched.
//
// An interrupted run leaves nothing either: while a temporary file is open, SIGINT, SIGTERM and
// SIGHUP remove it before the process dies of the signal (the run yields between slices so that
// the handlers get to run: session.ts). SIGKILL cannot be caught; the next run that writes the
// same target removes the temporary files of processes that no longer exist (its name carries the
// writer's pid).
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UserError } from "./exit.ts";

let tempCount = 0;

/** The temporary files open now, removed if a signal ends the process. */
const open = new Set<AtomicFile>();

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
    sweepStale(target);
    const tempPath = join(dirname(target), tempName(basename(target), process.pid, ++tempCount));
    // The handlers go in before the file exists: a signal that comes between the two would
    // otherwise kill the process with its default action and leave the file. A JS handler runs
    // only once this synchronous code is done, so by then the file is tracked.
    install();
    let file: AtomicFile;
    try {
      file = new AtomicFile(target, tempPath, openSync(tempPath, "wx", 0o644));
    } catch (err) {
      if (open.size === 0) uninstall();
      throw new UserError(`cannot write ${target}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    open.add(file);
    return file;
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
    } finally {
      untrack(this);
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
      untrack(this);
    }
  }

  /** Removes the temporary file at once, as a signal handler must: no flushing, no rename. */
  discard(): void {
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // Closing is a courtesy here; the process is about to end.
      }
    }
    this.fd = null;
    removeQuietly(this.tempPath);
    open.delete(this);
  }
}

/** `.run.json.1234-1.tmp`: hidden, beside the target, named after it and the writer's pid. */
export function tempName(targetBase: string, pid: number, n: number): string {
  return `.${targetBase}.${pid}-${n}.tmp`;
}

/** The pid in a temporary file's name when it is one of ours for this target, else null. */
export function tempOwner(name: string, targetBase: string): number | null {
  const prefix = `.${targetBase}.`;
  if (!name.startsWith(prefix) || !name.endsWith(".tmp")) return null;
  const m = /^(\d+)-\d+$/.exec(name.slice(prefix.length, -".tmp".length));
  return m === null ? null : Number(m[1]);
}

/** Whether a process of this pid exists (signal 0 asks without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the temporary files a killed writer of the same target left (kill -9, a power cut). */
function sweepStale(target: string): void {
  const base = basename(target);
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return; // An unreadable folder: opening the temporary file will say what is wrong.
  }
  for (const name of names) {
    const pid = tempOwner(name, base);
    if (pid !== null && pid !== process.pid && !processAlive(pid)) removeQuietly(join(dirname(target), name));
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing is left behind either way.
  }
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Removes every open temporary file, then dies of the signal as if no handler had been there. */
function onSignal(signal: NodeJS.Signals): void {
  for (const file of [...open]) file.discard();
  uninstall();
  process.kill(process.pid, signal);
}

/** A process ended by process.exit() (a closed pipe, say) leaves no temporary file either. */
function onExit(): void {
  for (const file of [...open]) file.discard();
}

/** Installs the handlers unless a file already open installed them. */
function install(): void {
  if (open.size > 0) return;
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on("exit", onExit);
}

function untrack(file: AtomicFile): void {
  if (!open.delete(file) || open.size > 0) return;
  uninstall();
}

function uninstall(): void {
  for (const s of SIGNALS) process.off(s, onSignal);
  process.off("exit", onExit);
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
