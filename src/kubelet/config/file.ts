// Models pkg/kubelet/config/file.go and file_linux.go (sourceFile: run, listConfig, startWatch, consumeWatchEvent).
//
// Two paths feed the same UndeltaStore, and so the same SET updates from source "file": a full
// listConfig on start and then every fileCheckFrequency (20 s), and an immediate per-file update
// for each inotify event. Between two lists an event is the only way a change is seen at once.
// Simplification: the manifest path always exists and is a directory (no "path does not exist"
// retries, no single-file path), and the inotify watch never fails (no watch backoff).
import { recv, recvCase, select, send, type Chan, type Proc, type Sim } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import { podKey } from "../../k8s/podutil.ts";
import { tryDecodeSinglePod, type DecodeResult } from "./common.ts";
import { baseName, type FsEvent, type ManifestDir } from "./manifest_dir.ts";
import { FileSource, type PodUpdate, type SetListing } from "./pod_update.ts";
import { UndeltaStore } from "./undelta_store.ts";

/** KubeletConfiguration.FileCheckFrequency default. */
export const DEFAULT_FILE_CHECK_FREQUENCY_MS = 20_000;
/** eventBufferLen: the capacity of watchEvents. */
export const EVENT_BUFFER_LEN = 10;

type PodEventType = "podAdd" | "podModify" | "podDelete";

interface WatchEvent {
  readonly fileName: string;
  readonly eventType: PodEventType;
}

/** NewSourceFile: watches the directory and starts the list loop and the watch loop. */
export function NewSourceFile(sim: Sim, dir: ManifestDir, nodeName: string, periodMs: number, updates: Chan<PodUpdate>,
  skipValidation: ReadonlySet<string> = new Set()): SourceFile {
  const s = new SourceFile(sim, dir, nodeName, periodMs, updates, skipValidation);
  s.run();
  return s;
}

export class SourceFile {
  private readonly store: UndeltaStore;
  /** File name → the key of the pod it produced, so a removed file can remove its pod. */
  private readonly fileKeyMapping = new Map<string, string>();
  private readonly watchEvents: Chan<WatchEvent>;

  constructor(
    private readonly sim: Sim,
    private readonly dir: ManifestDir,
    private readonly nodeName: string,
    private readonly periodMs: number,
    private readonly updates: Chan<PodUpdate>,
    /** Static pods ("namespace/name" as written) the scenario lets past validation (skipApiValidation). */
    private readonly skipValidation: ReadonlySet<string> = new Set(),
  ) {
    const updatesCh = updates;
    function* push(pods: Pod[], listing: SetListing) {
      yield* send(updatesCh, { Pods: pods, Op: "SET", Source: FileSource, listing } satisfies PodUpdate);
    }
    this.store = new UndeltaStore(push, (keys) => sim.mapOrder(keys));
    this.watchEvents = sim.chan<WatchEvent>("config/file.watchEvents", EVENT_BUFFER_LEN);
  }

  run(): void {
    const listTicker = this.sim.newTicker("config/file.listTicker", this.periodMs);
    this.sim.go("config/file", () => this.loop(listTicker.C), { group: "kubelet", daemon: true });
    this.sim.go("config/file/watch", () => this.doWatch(), { group: "kubelet", daemon: true });
  }

  private *loop(listTick: Chan<number>): Proc<void> {
    // Read path immediately to speed up startup.
    yield* this.listConfig();
    for (;;) {
      const c = yield* select([recvCase(listTick), recvCase(this.watchEvents)]);
      if (c.index === 0) yield* this.listConfig();
      else yield* this.consumeWatchEvent(c.value as WatchEvent);
    }
  }

  /** listConfig: read every manifest and replace the store (an empty dir sends an empty SET). */
  *listConfig(): Proc<void> {
    const pods = this.extractFromDir();
    this.sim.emit("config", "FileList", { path: this.dir.path, pods: pods.map((p) => podKey(p)) });
    if (pods.length === 0) {
      // Emit an update with an empty PodList to allow FileSource to be marked as seen.
      yield* send(this.updates, { Pods: [], Op: "SET", Source: FileSource } satisfies PodUpdate);
      return;
    }
    yield* this.store.Replace(pods, "");
  }

  /** extractFromDir: as many pods as can be read; a bad file is logged and skipped. */
  private extractFromDir(): Pod[] {
    const pods: Pod[] = [];
    for (const path of this.dir.glob()) {
      const r = this.extractFromFile(path);
      if (r.err !== null) this.sim.emit("config", "FileError", { file: path, error: r.err.message });
      else pods.push(r.pod);
    }
    return pods;
  }

  /** extractFromFile: read and decode one manifest; on success remember which pod key it holds. */
  private extractFromFile(fileName: string): DecodeResult {
    const data = this.dir.read(fileName);
    if (data === undefined) return { pod: null, err: new Error(`open ${fileName}: no such file or directory`) };
    const r = tryDecodeSinglePod(data, fileName, this.nodeName, this.skipValidation.has(manifestKey(data)));
    if (r.err === null) this.fileKeyMapping.set(fileName, podKey(r.pod));
    if (r.err === null && r.validationSkipped !== undefined) {
      this.sim.emit("config", "ValidationSkipped", { file: fileName, pod: podKey(r.pod), why: "skipApiValidation", error: r.validationSkipped });
    }
    return r;
  }

  /** The fsnotify loop of doWatch: each event becomes a watchEvent (produceWatchEvent). */
  private *doWatch(): Proc<void> {
    // As upstream, the inotify watch is added inside the watch goroutine: a change made before it
    // runs is seen only by a list (the first one, or the next periodic one).
    const events = this.dir.addWatch();
    for (;;) {
      const { value, ok } = yield* recv(events);
      if (!ok) return;
      const e = produceWatchEvent(value!);
      if (e !== null) yield* send(this.watchEvents, e);
    }
  }

  /** consumeWatchEvent: add or replace the file's pod, or remove the pod a deleted file had. */
  private *consumeWatchEvent(e: WatchEvent): Proc<void> {
    if (e.eventType === "podAdd" || e.eventType === "podModify") {
      const r = this.extractFromFile(e.fileName);
      if (r.err !== null) {
        this.sim.emit("config", "FileError", { file: e.fileName, error: `can't process config file "${e.fileName}": ${r.err.message}` });
        return;
      }
      yield* this.store.Add(r.pod);
      return;
    }
    const objKey = this.fileKeyMapping.get(e.fileName);
    if (objKey === undefined) return;
    const pod = this.store.GetByKey(objKey);
    if (pod === undefined) {
      this.sim.emit("config", "FileError", { file: e.fileName, error: `the pod with key ${objKey} doesn't exist in cache` });
      return;
    }
    yield* this.store.Delete(pod);
    this.fileKeyMapping.delete(e.fileName);
  }
}

/** The pod a manifest names, as written: "namespace/name" before the node suffix. */
function manifestKey(data: unknown): string {
  const meta = (data as { metadata?: { name?: unknown; namespace?: unknown } } | null)?.metadata;
  const ns = typeof meta?.namespace === "string" && meta.namespace !== "" ? meta.namespace : "default";
  return `${ns}/${typeof meta?.name === "string" ? meta.name : ""}`;
}

/** produceWatchEvent: dot files are ignored; Create → add, Write/Chmod → modify, Remove/Rename → delete. */
export function produceWatchEvent(e: FsEvent): WatchEvent | null {
  if (baseName(e.name).startsWith(".")) return null;
  switch (e.op) {
    case "Create":
      return { fileName: e.name, eventType: "podAdd" };
    case "Write":
    case "Chmod":
      return { fileName: e.name, eventType: "podModify" };
    case "Remove":
    case "Rename":
      return { fileName: e.name, eventType: "podDelete" };
  }
}
