// Models staging/src/k8s.io/client-go/tools/cache/undelta_store.go (over store.go's keyed cache).
//
// Every change (Add, Update, Delete, Replace) sends the complete state by calling PushFunc. Here
// PushFunc is a generator, because upstream's `send` blocks on the config source channel; so each
// method is a generator too and is called with `yield*`.
import type { Proc } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import { getPodFullName, podKey } from "../../k8s/podutil.ts";
import { compareStrings } from "./merge.ts";
import type { SetListing } from "./pod_update.ts";

/** PushFunc, given beside the list what the store knows of it (pod_update.ts SetListing). */
export type PushFunc = (pods: Pod[], listing: SetListing) => Proc<void>;

export class UndeltaStore {
  /** The keyed cache (cache.NewStore(MetaNamespaceKeyFunc)): "namespace/name" → object. */
  private readonly items = new Map<string, Pod>();
  /**
   * items' keys sorted, until the key set changes: every change pushes the whole list, and most
   * are an Update of a pod already held (a status write), which leaves the keys as they were.
   */
  private sortedKeys: readonly string[] | null = null;
  /**
   * How many items have each full name, kept as items change (a step per change), so that a push
   * can say whether the full names are distinct (as many names as items) without visiting every
   * pod of the list at every push, as the config merge's filterInvalidPods does otherwise.
   */
  private readonly fullNames = new Map<string, number>();
  /** The pushes so far: each push's number, so that the merge can tell a push follows the one it merged last. */
  private pushes = 0;
  /**
   * What changed since the last push: nothing yet (null), one key and its object then, or "many"
   * (a Replace, or nothing pushed yet). Each Add, Update and Delete pushes at once, so this is one
   * key but after a Replace: the merge then works on that key alone (merge.ts mergeSetDelta).
   */
  private pending: { readonly key: string; readonly before: Pod | undefined } | "many" | null = "many";

  constructor(
    private readonly pushFunc: PushFunc,
    /** The order of a Go map iteration over sorted keys (ThreadSafeStore.List ranges over a map). */
    private readonly mapOrder: (sortedKeys: readonly string[]) => string[],
  ) {}

  /** Store.List: every object, in Go map order. */
  List(): Pod[] {
    return this.listing().pods;
  }

  GetByKey(key: string): Pod | undefined {
    return this.items.get(key);
  }

  *Add(obj: Pod): Proc<void> {
    const key = podKey(obj);
    this.note(key);
    this.set(key, obj);
    yield* this.push();
  }

  *Update(obj: Pod): Proc<void> {
    const key = podKey(obj);
    this.note(key);
    this.set(key, obj);
    yield* this.push();
  }

  *Delete(obj: Pod): Proc<void> {
    const key = podKey(obj);
    this.note(key);
    const old = this.items.get(key);
    if (old !== undefined) {
      this.items.delete(key);
      this.countName(old, -1);
      this.sortedKeys = null;
    }
    yield* this.push();
  }

  /** Replace: the given list becomes the whole content, then the complete state is pushed. */
  *Replace(list: readonly Pod[], _resourceVersion: string): Proc<void> {
    this.items.clear();
    this.fullNames.clear();
    this.sortedKeys = null;
    for (const obj of list) this.set(podKey(obj), obj);
    this.pending = "many";
    yield* this.push();
  }

  /** The list in Go map order, with its keys in the same order. */
  private listing(): { pods: Pod[]; keys: string[] } {
    this.sortedKeys ??= [...this.items.keys()].sort(compareStrings);
    const keys = this.mapOrder(this.sortedKeys);
    return { pods: keys.map((k) => this.items.get(k)!), keys };
  }

  private *push(): Proc<void> {
    const { pods, keys } = this.listing();
    const p = this.pending;
    this.pending = null;
    const delta = p === "many" || p === null ? undefined : { key: p.key, before: p.before, after: this.items.get(p.key) };
    const n = ++this.pushes;
    yield* this.pushFunc(pods, { keys, fullNamesDistinct: this.fullNames.size === this.items.size, from: this, n, delta });
  }

  /** A change of key about to be made: the first since the last push keeps the key's object then. */
  private note(key: string): void {
    const p = this.pending;
    if (p === null) this.pending = { key, before: this.items.get(key) };
    else if (p !== "many" && p.key !== key) this.pending = "many";
  }

  private set(key: string, obj: Pod): void {
    const old = this.items.get(key);
    if (old === undefined) this.sortedKeys = null;
    else this.countName(old, -1);
    this.countName(obj, 1);
    this.items.set(key, obj);
  }

  private countName(obj: Pod, delta: 1 | -1): void {
    const name = getPodFullName(obj);
    const n = (this.fullNames.get(name) ?? 0) + delta;
    if (n === 0) this.fullNames.delete(name);
    else this.fullNames.set(name, n);
  }
}
