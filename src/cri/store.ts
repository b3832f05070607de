// The simulated runtime's state: sandboxes, containers and images, with deterministic IDs (no
// upstream file; it plays the part of containerd's sandbox, container and image stores).
//
// Maps keep insertion order, so every list the runtime returns is in creation order: a total,
// reproducible order where containerd would iterate a Go map.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { Chan } from "../sim/index.ts";
import type { TimedEntry } from "../sim/heap.ts";
import { parseImageName } from "../k8s/image.ts";
import { perKey } from "../k8s/memo.ts";
import type { Container, ContainerConfig, ContainerState, PodSandbox, PodSandboxConfig, PodSandboxState } from "./api.ts";
import type { ContainerProgram } from "./program.ts";
import { LabelIndex } from "./label_index.ts";
import { ListingCache } from "./listing_cache.ts";

export interface SandboxRecord {
  readonly id: string;
  readonly config: PodSandboxConfig;
  readonly runtimeHandler: string;
  /** "namespace/name", how traces and fault rules name the pod. */
  readonly podKey: string;
  readonly hostNetwork: boolean;
  readonly createdAtMs: number;
  state: PodSandboxState;
  /** "" for host-network sandboxes and once the network is torn down. */
  ip: string;
}

export interface ContainerRecord {
  readonly id: string;
  readonly sandboxId: string;
  readonly config: ContainerConfig;
  readonly podKey: string;
  readonly name: string;
  readonly imageRef: string;
  /** The image's first repo tag: what ContainerStatus reports as the image, as containerd does. */
  readonly imageName: string;
  readonly program: ContainerProgram;
  readonly createdAtMs: number;
  state: ContainerState;
  startedAtMs: number;
  finishedAtMs: number;
  exitCode: number;
  reason: string;
  message: string;
  /** Closed when the process ends; null until the container starts. */
  exited: Chan<void> | null;
  /** Pending kernel actions of the process (an exit, a SIGKILL deadline), cancelled when it exits. */
  timers: TimedEntry[];
  /** When the process got its first SIGTERM, or null. */
  sigtermAtMs: number | null;
}

export interface ImageRecord {
  /** The image ID (imageRef): a digest of the name, stable across runs. */
  readonly id: string;
  readonly repoTags: string[];
  readonly size: number;
}

/**
 * The runtime's state. `generation` counts its changes: every sandbox, container or image added
 * or removed (the maps count their own), and every change of what a record reports (the code that
 * changes one calls touch(); its timers and exit channel are the runtime's own business). Host-side caches of what the runtime reports (the kubelet's relist)
 * compare it to tell an unchanged runtime without looking at every record; it is not part of the
 * CRI and no model decides anything on it. test/cri/generation.test.ts holds it to every change.
 */
export class RuntimeStore {
  private changes = 0;
  readonly sandboxes = new CountedMap<string, SandboxRecord>(() => this.touch());
  readonly containers = new CountedMap<string, ContainerRecord>(() => this.touch());
  /** By normalized image name. */
  readonly images = new CountedMap<string, ImageRecord>(() => this.touch());
  /** The listings' indexes by label (a host-side cache, label_index.ts: the same records, in order). */
  readonly sandboxesByLabel = new LabelIndex(this.sandboxes);
  readonly containersByLabel = new LabelIndex(this.containers);
  /** The whole-node listings' last answers (a host-side cache, listing_cache.ts: the same views, in order). */
  readonly sandboxListings = new ListingCache<PodSandbox>();
  readonly containerListings = new ListingCache<Container>();
  /** containerd's name reservations: sandbox and container names to the ID holding them. */
  readonly reservedNames = new Map<string, string>();
  /** Pull attempts per image, for failures scripted to hit only the first N pulls. */
  readonly pullAttempts = new Map<string, number>();
  private nextSandbox = 1;
  private nextContainer = 1;
  private nextIp = 2;

  constructor(private readonly idPrefix = "") {}

  /** How many changes the runtime's records have had: equal numbers, the same state. */
  get generation(): number {
    return this.changes;
  }

  /** A record's fields changed. */
  touch(): void {
    this.changes++;
  }

  newSandboxId(): string {
    return `${this.idPrefix}s-${this.nextSandbox++}`;
  }

  newContainerId(): string {
    return `${this.idPrefix}c-${this.nextContainer++}`;
  }

  /** host-local IPAM hands out addresses in order; 250 per /24, then the next /24. */
  allocateIp(prefix: string): string {
    const n = this.nextIp++;
    const [a, b, c] = prefix.split(".").map(Number) as [number, number, number];
    const third = c + Math.floor((n - 2) / 250);
    return `${a}.${b}.${third}.${((n - 2) % 250) + 2}`;
  }

  addImage(name: string): ImageRecord {
    const key = normalizeImage(name);
    const existing = this.images.get(key);
    if (existing !== undefined) return existing;
    const rec: ImageRecord = { id: imageRefOf(key), repoTags: [key], size: 1 << 20 };
    this.images.set(key, rec);
    return rec;
  }

  findImage(name: string): ImageRecord | undefined {
    const key = normalizeImage(name);
    const byName = this.images.get(key);
    if (byName !== undefined) return byName;
    // An image may also be named by its ID, as the kubelet does once it has the imageRef.
    for (const img of this.images.values()) if (img.id === name) return img;
    return undefined;
  }

  sandboxContainers(sandboxId: string): ContainerRecord[] {
    return [...this.containers.values()].filter((c) => c.sandboxId === sandboxId);
  }
}

/** A Map that reports every change of its entries, and counts them in `version` (label_index.ts). */
class CountedMap<K, V> extends Map<K, V> {
  version = 0;
  constructor(private readonly onChange: () => void) {
    super();
  }
  override set(key: K, value: V): this {
    this.version++;
    this.onChange();
    return super.set(key, value);
  }
  override delete(key: K): boolean {
    const had = super.delete(key);
    if (had) {
      this.version++;
      this.onChange();
    }
    return had;
  }
  override clear(): void {
    if (this.size > 0) {
      this.version++;
      this.onChange();
    }
    super.clear();
  }
}

/**
 * Adds the default tag to an untagged, undigested name ("busybox" -> "busybox:latest").
 * Simplified: registry host normalisation ("docker.io/library/") is not applied.
 */
export const normalizeImage: (name: string) => string = perKey((name: string): string => {
  const parsed = parseImageName(name);
  if (parsed.valid && !name.includes("@") && !/:[^/]*$/.test(name)) return `${name}:latest`;
  return name;
}, 1024);

/** A deterministic image ID: "sha256:" and the hex SHA-256 of the normalized name (pure JS: browsers too). */
export const imageRefOf: (normalizedName: string) => string = perKey(
  (name: string) => `sha256:${bytesToHex(sha256(utf8ToBytes(name)))}`,
  // Every run of a scenario preloads the same images: a SHA-256 each, in pure JavaScript.
  1024,
);

/** containerd's makeSandboxName: name_namespace_uid_attempt. */
export function sandboxName(config: PodSandboxConfig): string {
  const m = config.metadata;
  return [m.name, m.namespace, m.uid, String(m.attempt)].join("_");
}

/** containerd's makeContainerName: container_sandbox_namespace_uid_attempt. */
export function containerName(config: ContainerConfig, sandbox: PodSandboxConfig): string {
  const s = sandbox.metadata;
  return [config.metadata.name, s.name, s.namespace, s.uid, String(config.metadata.attempt)].join("_");
}
