// client-go's shared informer for Nodes or Leases, in small: the cache is listed when it starts
// (the reflector's List) and kept by the apiserver's watch (apiserver/node_registry.ts), whose
// events reach the handlers after the watch's delivery delay. One per kind is shared by the
// node controllers and the scheduler, as a shared informer factory's is.
import type { ApiServer } from "../apiserver/index.ts";
import type { NodeKindName, ObjectEventType } from "../apiserver/node_registry.ts";
import type { Lease, NodeObject } from "../k8s/node_api.ts";

type ObjectOf<K extends NodeKindName> = K extends "nodes" ? NodeObject : Lease;
export type InformerHandler<T> = (type: ObjectEventType, obj: T, old: T | undefined) => void;

export class ObjectInformer<K extends NodeKindName> {
  private readonly cache = new Map<string, ObjectOf<K>>();
  private readonly handlers: InformerHandler<ObjectOf<K>>[] = [];

  constructor(api: ApiServer, kind: K) {
    for (const o of api.nodes.list(kind)) this.cache.set(o.metadata.name, o);
    api.nodes.watch(kind, (type, obj) => {
      const old = this.cache.get(obj.metadata.name);
      if (type === "DELETED") this.cache.delete(obj.metadata.name);
      else this.cache.set(obj.metadata.name, obj);
      for (const h of this.handlers) h(type, obj, old);
    });
  }

  /** The lister's Get. */
  get(name: string): ObjectOf<K> | undefined {
    return this.cache.get(name);
  }

  /** The lister's List, by name. */
  list(): ObjectOf<K>[] {
    return [...this.cache.keys()].sort().map((k) => this.cache.get(k)!);
  }

  /** AddEventHandler. */
  onEvent(h: InformerHandler<ObjectOf<K>>): void {
    this.handlers.push(h);
  }
}
