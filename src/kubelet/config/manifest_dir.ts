// Models the static pod directory (--pod-manifest-path) and the inotify events fsnotify reports for it.
//
// The scenario writes, changes, removes and re-adds manifests with plain calls; each change
// queues one fsnotify event that the file source's watch goroutine reads.
// Simplification: a write is one event (Create for a new file, Write for an existing one); real
// editors and `cp` produce sequences (CREATE, WRITE, CHMOD, or a rename dance), which all map to
// the same podAdd/podModify handling upstream. Events are delivered without latency.
import type { Chan, Sim } from "../../sim/index.ts";

/** fsnotify.Op values the file source distinguishes. */
export type FsOp = "Create" | "Write" | "Remove" | "Rename" | "Chmod";

/** fsnotify.Event */
export interface FsEvent {
  readonly name: string;
  readonly op: FsOp;
}

/** The kernel's inotify queue bound (fs.inotify.max_queued_events); an overflow loses events. */
export const INOTIFY_QUEUE_CAPACITY = 16_384;

export class ManifestDir {
  /** fsnotify Watcher.Events. */
  readonly events: Chan<FsEvent>;
  private readonly files = new Map<string, unknown>();
  private watching = false;

  constructor(
    private readonly sim: Sim,
    /** The directory, without a trailing "/" (NewSourceFile trims it). */
    readonly path: string,
  ) {
    if (path.length === 0 || path.endsWith("/")) throw new RangeError(`manifest dir: bad path ${JSON.stringify(path)}`);
    this.events = sim.chan<FsEvent>(`fsnotify:${path}`, INOTIFY_QUEUE_CAPACITY);
  }

  /** fsnotify Watcher.Add(path): from now on changes are reported (earlier ones never are). */
  addWatch(): Chan<FsEvent> {
    this.watching = true;
    return this.events;
  }

  /** The full path of a file in the directory. */
  pathOf(fileName: string): string {
    return `${this.path}/${fileName}`;
  }

  /**
   * Writes a manifest (a parsed pod object, or anything else, which the source fails to decode).
   * `inotify: false` models a change inotify does not report (a network filesystem, a lost
   * event): only the next periodic list sees it.
   */
  write(fileName: string, manifest: unknown, opts: { inotify?: boolean } = {}): void {
    const full = this.pathOf(checkName(fileName));
    const op: FsOp = this.files.has(full) ? "Write" : "Create";
    this.files.set(full, structuredClone(manifest));
    if (opts.inotify !== false) this.notify(full, op);
  }

  remove(fileName: string, opts: { inotify?: boolean } = {}): void {
    const full = this.pathOf(checkName(fileName));
    if (!this.files.delete(full)) throw new Error(`manifest dir: no file ${full}`);
    if (opts.inotify !== false) this.notify(full, "Remove");
  }

  /** os.Open + ReadAll: the manifest, or undefined if the file does not exist (any more). */
  read(fullPath: string): unknown {
    return this.files.has(fullPath) ? structuredClone(this.files.get(fullPath)) : undefined;
  }

  /** filepath.Glob(path + "/[^.]*"), sorted: the files extractFromDir reads. */
  glob(): string[] {
    return [...this.files.keys()]
      .filter((p) => !baseName(p).startsWith("."))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  private notify(name: string, op: FsOp): void {
    if (!this.watching) return;
    const queued = this.events.offer({ name, op });
    this.sim.emit("config", "Inotify", { file: name, op, queued });
  }
}

export function baseName(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? p : p.slice(i + 1);
}

function checkName(fileName: string): string {
  if (fileName.length === 0 || fileName.includes("/")) throw new RangeError(`manifest dir: bad file name ${JSON.stringify(fileName)}`);
  return fileName;
}
