// Models pkg/registry/core/node/storage and pkg/registry/coordination/lease/storage on the generic
// store, in small: the cluster's Node and Lease objects, each write at a new revision of the one
// counter the pods share (etcd's), and the informers that watch them (client-go's shared informer
// handlers, told of each write after the watch's delivery delay, in order).
// Simplified: no validation beyond what the callers need (names, optimistic concurrency on
// resourceVersion for updates); a node or lease watch never expires or drops (the controllers that
// hold them are never partitioned here); no field selectors.
import type { Sim } from "../sim/index.ts";
import type { Lease, NodeObject } from "../k8s/node_api.ts";
import type { ApiResult } from "./client.ts";
import { OBJECT_MODIFIED, StatusError } from "./errors.ts";
import { deepFreeze } from "./objects.ts";
import { compareStrings } from "./store.ts";

export type ObjectEventType = "ADDED" | "MODIFIED" | "DELETED";
export type NodeKindName = "nodes" | "leases";
type ObjectOf<K extends NodeKindName> = K extends "nodes" ? NodeObject : Lease;

/** An informer's handler: the object after the write (before it, for a delete) and the one it replaced. */
export type ObjectHandler<T> = (type: ObjectEventType, obj: T, prev: T | null) => void;

export interface NodeRegistryOptions {
  /** The shared revision counter: the next resourceVersion (PodRegistry.bumpRevision). */
  nextRevision: () => number;
  newUID: () => string;
  watchDelayMs: () => number;
}

function notFound(resource: string, name: string): StatusError {
  return new StatusError(404, "NotFound", `${resource} "${name}" not found`);
}

function alreadyExists(resource: string, name: string): StatusError {
  return new StatusError(409, "AlreadyExists", `${resource} "${name}" already exists`);
}

export class NodeRegistry {
  private readonly stores = { nodes: new Map<string, NodeObject>(), leases: new Map<string, Lease>() };
  private readonly handlers = { nodes: [] as ObjectHandler<NodeObject>[], leases: [] as ObjectHandler<Lease>[] };
  private lastDeliverAtMs = 0;

  constructor(private readonly sim: Sim, private readonly opts: NodeRegistryOptions) {}

  get<K extends NodeKindName>(kind: K, name: string): ApiResult<ObjectOf<K>> {
    const o = (this.stores[kind] as Map<string, ObjectOf<K>>).get(name);
    return o === undefined ? { value: null, err: notFound(kind, name) } : { value: o, err: null };
  }

  /** Every object of the kind, by name (the informer's list). */
  list<K extends NodeKindName>(kind: K): ObjectOf<K>[] {
    const m = this.stores[kind] as Map<string, ObjectOf<K>>;
    return [...m.keys()].sort(compareStrings).map((k) => m.get(k)!);
  }

  create<K extends NodeKindName>(kind: K, obj: ObjectOf<K>): ApiResult<ObjectOf<K>> {
    const name = obj.metadata.name;
    if ((this.stores[kind] as Map<string, ObjectOf<K>>).has(name)) return { value: null, err: alreadyExists(kind, name) };
    const uid = kind === "nodes" ? { uid: this.opts.newUID() } : {};
    return { value: this.write(kind, { ...obj, metadata: { ...obj.metadata, ...uid } } as ObjectOf<K>), err: null };
  }

  /** PUT (or PUT .../status): a set resourceVersion must be the stored one. */
  update<K extends NodeKindName>(kind: K, obj: ObjectOf<K>): ApiResult<ObjectOf<K>> {
    const name = obj.metadata.name;
    const cur = (this.stores[kind] as Map<string, ObjectOf<K>>).get(name);
    if (cur === undefined) return { value: null, err: notFound(kind, name) };
    const rv = obj.metadata.resourceVersion;
    if (rv !== undefined && rv !== cur.metadata.resourceVersion) {
      return { value: null, err: new StatusError(409, "Conflict", `Operation cannot be fulfilled on ${kind} "${name}": ${OBJECT_MODIFIED}`) };
    }
    const uid = kind === "nodes" ? { uid: (cur as NodeObject).metadata.uid } : {};
    return { value: this.write(kind, { ...obj, metadata: { ...obj.metadata, ...uid } } as ObjectOf<K>), err: null };
  }

  delete<K extends NodeKindName>(kind: K, name: string): ApiResult<ObjectOf<K>> {
    const m = this.stores[kind] as Map<string, ObjectOf<K>>;
    const cur = m.get(name);
    if (cur === undefined) return { value: null, err: notFound(kind, name) };
    m.delete(name);
    this.opts.nextRevision();
    this.notify(kind, "DELETED", cur, cur);
    return { value: cur, err: null };
  }

  /** An informer: its handler is told of every later write, after the watch delay. */
  watch<K extends NodeKindName>(kind: K, handler: ObjectHandler<ObjectOf<K>>): void {
    (this.handlers[kind] as ObjectHandler<ObjectOf<K>>[]).push(handler);
  }

  private write<K extends NodeKindName>(kind: K, obj: ObjectOf<K>): ObjectOf<K> {
    const m = this.stores[kind] as Map<string, ObjectOf<K>>;
    const prev = m.get(obj.metadata.name) ?? null;
    const rv = this.opts.nextRevision();
    const stored = deepFreeze({ ...obj, metadata: { ...obj.metadata, resourceVersion: String(rv) } }) as ObjectOf<K>;
    m.set(obj.metadata.name, stored);
    this.notify(kind, prev === null ? "ADDED" : "MODIFIED", stored, prev);
    return stored;
  }

  private notify<K extends NodeKindName>(kind: K, type: ObjectEventType, obj: ObjectOf<K>, prev: ObjectOf<K> | null): void {
    const hs = this.handlers[kind] as ObjectHandler<ObjectOf<K>>[];
    if (hs.length === 0) return;
    // One delivery time for all of the kind's informers, never before an earlier event's.
    const at = Math.max(this.sim.nowMs + this.opts.watchDelayMs(), this.lastDeliverAtMs);
    this.lastDeliverAtMs = at;
    this.sim.schedule(at, () => {
      for (const h of hs) h(type, obj, type === "DELETED" ? null : prev);
    });
  }
}
