// The runtime's records by the value of one label, for the listings that select by a label
// (no upstream file: containerd scans its stores). The kubelet lists a pod's containers and
// sandboxes by its UID label (getPodContainerStatuses, getSandboxIDByPodUID) each time it reads
// the pod's status: a scan of every record of the node for each of its pods. The index answers
// with the records that carry the label's value, in the store's order, and the listing filters
// those as it filtered all of them: the same records in the same order. A record's labels never
// change after creation (views.ts), so the index holds until a record is added or removed.
import type { Labels } from "./api.ts";

/** The store's map of records (store.ts CountedMap): its `version` moves with every add or remove. */
export interface VersionedRecords<R> {
  readonly version: number;
  values(): IterableIterator<R>;
}

export class LabelIndex<R extends { readonly config: { readonly labels?: Labels } }> {
  private key: string | null = null;
  private byValue = new Map<string, R[]>();
  private builtAt = -1;
  /** The version at which a selector was last answered by a scan (an index is built at the second). */
  private scannedAt = -1;

  constructor(private readonly records: VersionedRecords<R>) {}

  /**
   * The records a selector can match, in the store's order: those carrying the selector's first
   * label's value, a superset of the matches (the caller still applies the whole filter).
   */
  candidates(selector: Labels | undefined): Iterable<R> {
    const key = selector === undefined ? undefined : firstKey(selector);
    // (A selector's label without a value matches the records without the label: scan for those.)
    if (key === undefined || selector![key] === undefined) return this.records.values();
    const version = this.records.version;
    if (this.builtAt !== version || this.key !== key) {
      // While the records change between every two selections (a node starting its pods) an
      // index would be built for one answer: scan, and build it once a version is asked twice.
      if (this.scannedAt !== version) {
        this.scannedAt = version;
        return this.records.values();
      }
      this.build(key, version);
    }
    return this.byValue.get(selector![key]!) ?? [];
  }

  private build(key: string, version: number): void {
    const byValue = new Map<string, R[]>();
    for (const r of this.records.values()) {
      const v = r.config.labels?.[key];
      if (v === undefined) continue;
      const list = byValue.get(v);
      if (list === undefined) byValue.set(v, [r]);
      else list.push(r);
    }
    this.byValue = byValue;
    this.key = key;
    this.builtAt = version;
  }
}

function firstKey(selector: Labels): string | undefined {
  for (const k in selector) return k;
  return undefined;
}
