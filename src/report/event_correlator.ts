// Models staging/src/k8s.io/client-go/tools/record/events_cache.go (EventCorrelator: aggregation,
// de-duplication with counts, and the per-object spam filter), on virtual time.
//
// The kubelet records every event through this correlator before the apiserver sees it, so what
// `kubectl describe` lists is its output, not the raw Eventf calls. The trace holds the raw calls;
// this replays them through the correlator to get the stored events.
//
// Simplified: the LRU caches (4096 entries) never evict; the aggregator's PopAny drops the oldest
// local key instead of an arbitrary one (Go's map order), so the result is deterministic.

/** One Eventf call about a pod. */
export interface RawEvent {
  ms: number;
  pod: string;
  uid: string;
  /** The involved object's fieldPath ("spec.containers{app}") or "". */
  fieldPath: string;
  type: string;
  reason: string;
  message: string;
  /** Source.Component ("kubelet"). */
  source: string;
}

/** An Event object as the apiserver stores it after correlation. */
export interface StoredEvent {
  pod: string;
  uid: string;
  type: string;
  reason: string;
  message: string;
  source: string;
  count: number;
  firstMs: number;
  lastMs: number;
  /** Creation order, the tie-break of equal timestamps. */
  order: number;
}

export interface CorrelatorOptions {
  /** EventSourceObjectSpamFilter: burst 25 per source and object, refilled 1 per 5 minutes. Default true. */
  spamFilter?: boolean;
}

const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600_000;
const SPAM_BURST = 25;
const SPAM_QPS = 1 / 300;

interface AggregateRecord {
  localKeys: Set<string>;
  lastMs: number;
}

interface EventLog {
  count: number;
  firstMs: number;
  name: number;
}

interface Bucket {
  tokens: number;
  lastMs: number;
}

const join = (parts: readonly string[]): string => parts.join("\u0000");

/** The involved object's identity fields, in getEventKey's order (kind Pod, apiVersion v1). */
function objectKey(e: RawEvent, withFieldPath: boolean): string[] {
  const slash = e.pod.indexOf("/");
  const ns = slash < 0 ? "" : e.pod.slice(0, slash);
  const name = slash < 0 ? e.pod : e.pod.slice(slash + 1);
  return withFieldPath ? ["Pod", ns, name, e.fieldPath, e.uid, "v1"] : ["Pod", ns, name, e.uid, "v1"];
}

export class EventCorrelator {
  private readonly aggregates = new Map<string, AggregateRecord>();
  private readonly logs = new Map<string, EventLog>();
  private readonly buckets = new Map<string, Bucket>();
  private readonly stored = new Map<number, StoredEvent>();
  private nextName = 0;

  constructor(private readonly opts: CorrelatorOptions = {}) {}

  /** EventCorrelate followed by the write: creates or patches the stored event, or drops it as spam. */
  record(e: RawEvent): void {
    const [event, key] = this.aggregate(e);
    const observed = this.observe(event, key);
    if (this.opts.spamFilter !== false && this.isSpam(e)) return;
    const prev = this.stored.get(observed.name);
    if (prev !== undefined) {
      prev.count = observed.count;
      prev.lastMs = e.ms;
      prev.message = event.message;
      return;
    }
    // A patch of an event that never reached the server (it was filtered) creates it, as
    // recordToSink does on NotFound; count and firstTimestamp come from the observation.
    this.stored.set(observed.name, {
      pod: e.pod, uid: e.uid, type: e.type, reason: e.reason, message: event.message, source: e.source,
      count: observed.count, firstMs: observed.firstMs, lastMs: e.ms, order: observed.name,
    });
  }

  /** Every stored event, in creation order. */
  events(): StoredEvent[] {
    return [...this.stored.values()].sort((a, b) => a.order - b.order);
  }

  /** EventAggregate: after 10 distinct messages of one reason in 10 minutes, one combined event. */
  private aggregate(e: RawEvent): [RawEvent, string] {
    const eventKey = join([e.source, "", ...objectKey(e, true), e.type, e.reason, e.message]);
    const aggregateKey = join([e.source, "", ...objectKey(e, false), e.type, e.reason, "", ""]);
    let rec = this.aggregates.get(aggregateKey);
    if (rec === undefined || e.ms - rec.lastMs > AGGREGATE_INTERVAL_MS) rec = { localKeys: new Set(), lastMs: e.ms };
    rec.localKeys.add(e.message);
    rec.lastMs = e.ms;
    this.aggregates.set(aggregateKey, rec);
    if (rec.localKeys.size < AGGREGATE_MAX_EVENTS) return [e, eventKey];
    // Do not grow the local key set any larger than max.
    rec.localKeys.delete(rec.localKeys.values().next().value!);
    return [{ ...e, message: `(combined from similar events): ${e.message}` }, aggregateKey];
  }

  /** eventObserve: a cache hit counts up and keeps the first timestamp and the object's name. */
  private observe(e: RawEvent, key: string): EventLog {
    const last = this.logs.get(key);
    const log: EventLog = last === undefined
      ? { count: 1, firstMs: e.ms, name: this.nextName++ }
      : { count: last.count + 1, firstMs: last.firstMs, name: last.name };
    this.logs.set(key, log);
    return log;
  }

  /** EventSourceObjectSpamFilter.Filter: a token bucket (golang.org/x/time/rate) per source and object. */
  private isSpam(e: RawEvent): boolean {
    const key = join([e.source, "", ...objectKey(e, false)]);
    const b = this.buckets.get(key) ?? { tokens: SPAM_BURST, lastMs: e.ms };
    b.tokens = Math.min(SPAM_BURST, b.tokens + ((e.ms - b.lastMs) / 1000) * SPAM_QPS);
    b.lastMs = e.ms;
    this.buckets.set(key, b);
    if (b.tokens < 1) return true;
    b.tokens -= 1;
    return false;
  }
}
