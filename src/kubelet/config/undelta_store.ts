// Models staging/src/k8s.io/client-go/tools/cache/undelta_store.go (over store.go's keyed cache).
//
// Every change (Add, Update, Delete, Replace) sends the complete state by calling PushFunc. Here
// PushFunc is a generator, because upstream's `send` blocks on the config source channel; so each
// method is a generator too and is called with `yield*`.
import type { Proc } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import { podKey } from "../../k8s/podutil.ts";
import { compareStrings } from "./merge.ts";

export type PushFunc = (pods: Pod[]) => Proc<void>;

export class UndeltaStore {
  /** The keyed cache (cache.NewStore(MetaNamespaceKeyFunc)): "namespace/name" → object. */
  private readonly items = new Map<string, Pod>();
  /**
   * items' keys sorted, until the key set changes: every change pushes the whole list, and most
   * are an Update of a pod already held (a status write), which leaves the keys as they were.
   */
  private sortedKeys: readonly string[] | null = null;

  constructor(
    private readonly pushFunc: PushFunc,
    /** The order of a Go map iteration over sorted keys (ThreadSafeStore.List ranges over a map). */
    private readonly mapOrder: (sortedKeys: readonly string[]) => string[],
  ) {}

  /** Store.List: every object, in Go map order. */
  List(): Pod[] {
    this.sortedKeys ??= [...this.items.keys()].sort(compareStrings);
    const keys = this.mapOrder(this.sortedKeys);
    return keys.map((k) => this.items.get(k)!);
  }

  GetByKey(key: string): Pod | undefined {
    return this.items.get(key);
  }

  *Add(obj: Pod): Proc<void> {
    this.set(podKey(obj), obj);
    yield* this.pushFunc(this.List());
  }

  *Update(obj: Pod): Proc<void> {
    this.set(podKey(obj), obj);
    yield* this.pushFunc(this.List());
  }

  *Delete(obj: Pod): Proc<void> {
    if (this.items.delete(podKey(obj))) this.sortedKeys = null;
    yield* this.pushFunc(this.List());
  }

  /** Replace: the given list becomes the whole content, then the complete state is pushed. */
  *Replace(list: readonly Pod[], _resourceVersion: string): Proc<void> {
    this.items.clear();
    this.sortedKeys = null;
    for (const obj of list) this.items.set(podKey(obj), obj);
    yield* this.pushFunc(this.List());
  }

  private set(key: string, obj: Pod): void {
    if (!this.items.has(key)) this.sortedKeys = null;
    this.items.set(key, obj);
  }
}
