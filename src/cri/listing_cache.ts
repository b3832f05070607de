// The last answers of the whole-node listings (ListContainers and ListPodSandbox with no filter or
// a state filter alone), kept while the runtime's state is unchanged (no upstream file: containerd
// builds each answer afresh; issue 21 item 3). The kubelet's relist lists every sandbox and
// container of its node every second, and a node's state mostly stands still between two relists
// (probes change no record): the answer is then the last one, element for element, since a
// record's view is kept until the record changes (views.ts) and any change moves the store's
// generation. Each caller gets its own copy of the array.
import type { ContainerFilter, PodSandboxFilter } from "./api.ts";

export class ListingCache<T> {
  private generation = -1;
  private readonly byKey = new Map<string, readonly T[]>();

  /** The listing for `filter` at `generation`: the kept one, or `build()`'s, kept when the filter is a whole-node one. */
  list(generation: number, filter: ContainerFilter | PodSandboxFilter | null, build: () => T[]): T[] {
    const key = wholeNodeKey(filter);
    if (key === null) return build();
    if (this.generation !== generation) {
      this.byKey.clear();
      this.generation = generation;
    }
    const kept = this.byKey.get(key);
    if (kept !== undefined) return kept.slice();
    const out = build();
    this.byKey.set(key, out.slice());
    return out;
  }
}

/** "" for no filter, the state for a state filter alone; null for a filter naming records (not kept: those vary by call). */
function wholeNodeKey(filter: ContainerFilter | PodSandboxFilter | null): string | null {
  if (filter === null) return "";
  for (const k in filter) {
    if (k !== "state" && (filter as Record<string, unknown>)[k] !== undefined) return null;
  }
  return filter.state === undefined ? "" : filter.state;
}
