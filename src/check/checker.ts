// The online checker of a run: a trace sink that keeps the world's view (API pod objects from
// the apiserver's writes, events from Event records, invariant monitors over every record) and
// evaluates the scenario's expectations at every change.
import type { Sim, TraceRecord, TraceSink } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { Scenario } from "../scenario/resolve.ts";
import type { Expectation } from "../scenario/types/expect.ts";
import type { StoredEvent } from "../apiserver/index.ts";
import type { SimNode } from "../node/node.ts";
import { formatDuration } from "../sim/duration.ts";
import { describeCondition, holds, observe, type ObservedValue, type RecordedEvent, type WorldView } from "./conditions.ts";
import { makeMonitors, type InvariantMonitor, type Violation } from "./invariants.ts";
import { PodProgress, PROGRESS_READS, type PodNeverRan } from "./pod_progress.ts";
import { MonitorDispatch, type UndeclaredRead } from "./dispatch.ts";
import type { RecordReads } from "./invariants/common.ts";

/** What the checker itself reads of Event records: the expectations' `events` of a pod. */
const EVENT_READS: RecordReads = { Event: ["pod", "type", "reason", "message"] };

export interface ExpectationResult {
  index: number;
  /** The expectation with durations in ms, as trace records and repro files name it. */
  description: string;
  /** The expectation as people read it: durations as the scenario writes them ("by 10s"). */
  text: string;
  ok: boolean;
  /** When it was decided: the instant it held (eventually), failed (never) or was checked (at). */
  atMs: number | null;
  /** What the checks saw when it failed: at the deadline (eventually), when it held (never), at `at`. */
  observed: ObservedAt | null;
  /** The pod it checks, as the scenario names it (null for an invariant). */
  pod: string | null;
  /** Whether that pod existed in the apiserver at some point of the run (false for an invariant). */
  podSeen: boolean;
}

export interface ObservedAt {
  atMs: number;
  text: string;
  value: ObservedValue;
}

export interface CheckReport {
  expectations: ExpectationResult[];
  failed: ExpectationResult[];
  violations: Violation[];
  /** Pods the scenario created that never ran a container, and why (pod_progress.ts). */
  neverRan: PodNeverRan[];
}

interface Pending {
  index: number;
  e: Expectation;
  decided: ExpectationResult | null;
  /** For an `eventually` with a deadline: the world at the deadline, taken when time passes it. */
  atDeadline: ObservedAt | null;
}

export interface CheckerOptions {
  /**
   * Deliver each record only to the monitors that read its kind (and the time to those that watch
   * it), as exploration does. Off, every monitor is shown every record: the reference that
   * test/check/lazy_records.test.ts holds dispatched runs to.
   */
  byKind?: boolean;
  /** Strict reads (tests): called for each read of a record field that the reader did not declare. */
  onUndeclaredRead?: (r: UndeclaredRead) => void;
}

export class Checker implements TraceSink, WorldView {
  readonly wantsLines = false;
  /** The record kinds the checks read (Events, pod progress, the monitors'); absent when a monitor reads every kind. */
  readonly kinds?: ReadonlySet<string>;
  private readonly dispatch: MonitorDispatch;
  private readonly pods = new Map<string, Pod>();
  /** Every API key a pod object had during the run. */
  private readonly seenPods = new Set<string>();
  private readonly eventsByPod = new Map<string, RecordedEvent[]>();
  private readonly violations: Violation[] = [];
  private readonly violatedIds = new Set<string>();
  private readonly pending: Pending[];
  /**
   * The pending expectations time passing can decide (`at`, `eventually` with a deadline), and those
   * a world change can decide (all but the invariants', which only a violation can), in the order
   * of `pending`: an exploration adds an invariant expectation per monitor, thirty-odd that every
   * Event and apiserver write would otherwise look at.
   */
  private readonly timed: Pending[];
  private readonly watched: Pending[];
  private sim: Sim | null = null;
  private lastMs = 0;
  /** Scenario pod key → the name the kubelet and the apiserver use (static pods are node-suffixed). */
  private readonly apiKeys: Map<string, string>;
  private readonly progress: PodProgress;
  private neverRan: PodNeverRan[] = [];
  private readonly onViolation = (v: Violation): void => this.violation(v);

  constructor(scenario: Scenario, invariantIds?: readonly string[], opts: CheckerOptions = {}) {
    this.apiKeys = new Map(
      scenario.pods.map((p) => [p.key, p.source === "file" ? `${p.namespace}/${p.name}-${scenario.kubelet.nodeName.toLowerCase()}` : p.key]),
    );
    // A loop that pushes, not `expect.map`: TurboFan's inlined `map` builds a HOLEY array where the
    // builtin builds a PACKED one (and `filter` keeps the kind), so the optimized constructor gave
    // settleAt and evaluate a second array map and deoptimized them (dispatch.ts, the slots).
    this.pending = [];
    for (let index = 0; index < scenario.expect.length; index++) this.pending.push({ index, e: scenario.expect[index]!, decided: null, atDeadline: null });
    this.timed = this.pending.filter((p) => p.e.kind === "at" || (p.e.kind === "eventually" && p.e.byMs !== null));
    this.watched = this.pending.filter((p) => p.e.condition.invariant === undefined);
    const monitors = makeMonitors(monitorIds(scenario.expect, invariantIds), scenario);
    this.progress = new PodProgress(scenario, this.apiKeys);
    // The checker's own readers go first, as they did before any monitor: pod progress, then Events.
    const own: InvariantMonitor[] = [
      { id: "pod-progress", reads: PROGRESS_READS, observe: (rec) => (this.progress.observe(rec), null) },
      { id: "expectations", reads: EVENT_READS, observe: (rec) => (this.onEvent(rec), null) },
    ];
    this.dispatch = new MonitorDispatch([...own, ...monitors], {
      everything: opts.byKind !== true,
      ...(opts.onUndeclaredRead === undefined ? {} : { onUndeclaredRead: opts.onUndeclaredRead }),
    });
    if (this.dispatch.kinds !== undefined) this.kinds = this.dispatch.kinds;
  }

  attach(sim: Sim, node: SimNode): void {
    this.sim = sim;
    node.apiObservers.push((e) => this.onApiWrite(e));
  }

  // ---- WorldView ---------------------------------------------------------------------------

  /** A static pod is seen in the apiserver through its mirror pod. */
  pod(key: string): Pod | undefined {
    return this.pods.get(this.apiKeys.get(key) ?? key);
  }
  events(podKey: string): readonly RecordedEvent[] {
    return this.eventsByPod.get(this.apiKeys.get(podKey) ?? podKey) ?? [];
  }
  violated(invariant: string): boolean {
    return this.violatedIds.has(invariant);
  }

  // ---- inputs ------------------------------------------------------------------------------

  write(rec: TraceRecord): void {
    if (rec.t > this.lastMs) this.settleAt(rec.t);
    this.dispatch.deliver(rec, this.onViolation);
  }

  private onEvent(rec: TraceRecord): void {
    if (rec.kind !== "Event" || typeof rec.pod !== "string") return;
    const list = this.eventsByPod.get(rec.pod) ?? [];
    list.push({ pod: rec.pod, type: String(rec.type), reason: String(rec.reason), message: String(rec.message ?? "") });
    this.eventsByPod.set(rec.pod, list);
    this.evaluate(rec.t);
  }

  /** A record nobody reads was dropped at a new instant: what its write would have done. */
  advance(t: number): void {
    if (t > this.lastMs) this.settleAt(t);
    this.dispatch.advance(t, this.onViolation);
  }

  private onApiWrite(e: StoredEvent): void {
    const key = `${e.object.metadata.namespace ?? "default"}/${e.object.metadata.name}`;
    if (e.type === "DELETED") this.pods.delete(key);
    else this.pods.set(key, e.object);
    this.seenPods.add(key);
    this.dispatch.observeApi(e, this.sim!.nowMs, this.onViolation);
    this.evaluate(this.sim!.nowMs);
  }

  private violation(v: Violation): void {
    this.violations.push(v);
    if (!this.violatedIds.has(v.invariant)) {
      this.violatedIds.add(v.invariant);
      this.sim?.emit("check", "InvariantViolated", { invariant: v.invariant, pod: v.pod, message: v.message });
    }
    this.evaluate(v.t, this.pending);
  }

  // ---- evaluation --------------------------------------------------------------------------

  /** Time moved past `t`: every `at` check due before it sees the state at the end of its instant. */
  private settleAt(t: number): void {
    for (const p of this.timed) {
      if (p.decided !== null) continue;
      if (p.e.kind === "at" && p.e.atMs < t) this.decide(p, holds(p.e.condition, this), p.e.atMs);
      else if (p.e.kind === "eventually" && p.e.byMs !== null && p.e.byMs < t && p.atDeadline === null) {
        p.atDeadline = this.observeAt(p.e, p.e.byMs);
      }
    }
    this.lastMs = t;
  }

  private observeAt(e: Expectation, atMs: number): ObservedAt {
    return { atMs, ...observe(e.condition, this) };
  }

  /**
   * The expectations a change at t decides. An invariant's condition changes only at a violation,
   * whose own evaluation looks at every expectation (`all`); the others look at `watched` only.
   */
  private evaluate(t: number, all?: readonly Pending[]): void {
    for (const p of all ?? this.watched) {
      if (p.decided !== null) continue;
      if (p.e.kind === "eventually" && (p.e.byMs === null || t <= p.e.byMs) && holds(p.e.condition, this)) this.decide(p, true, t);
      if (p.e.kind === "never" && holds(p.e.condition, this)) this.decide(p, false, t);
    }
  }

  private decide(p: Pending, ok: boolean, atMs: number | null): void {
    const now = this.sim?.nowMs ?? this.lastMs;
    const observed = ok ? null : p.e.kind === "eventually" ? (p.atDeadline ?? this.observeAt(p.e, now)) : this.observeAt(p.e, atMs ?? now);
    const pod = p.e.condition.pod ?? null;
    const podSeen = pod !== null && this.seenPods.has(this.apiKeys.get(pod) ?? pod);
    p.decided = { index: p.index, description: describe(p.e), text: describeText(p.e), ok, atMs, observed, pod, podSeen };
    this.sim?.emit("check", "Expectation", { index: p.index, ok, expectation: p.decided.description });
  }

  /** The run ended: undecided `eventually` failed, undecided `never` held, due `at` checks run now. */
  finish(sim: Sim): void {
    for (const p of this.pending) {
      if (p.decided !== null) continue;
      if (p.e.kind === "at") {
        // Due at or before the end: judged on the final state. Due later: the run never got there.
        if (p.e.atMs <= sim.nowMs) this.decide(p, holds(p.e.condition, this), p.e.atMs);
        else this.decide(p, false, null);
      } else this.decide(p, p.e.kind === "never", null);
    }
    this.lastMs = sim.nowMs;
    this.neverRan = this.progress.report(this, sim.nowMs);
    for (const n of this.neverRan) sim.emit("check", "PodNeverRan", { pod: n.pod, reason: n.reason, why: n.why });
  }

  /** The invariant violations seen so far, while the run is still going (play mode asks at its pauses). */
  violationsSoFar(): readonly Violation[] {
    return this.violations;
  }

  report(): CheckReport {
    const expectations = this.pending.map((p) => p.decided!);
    return { expectations, failed: expectations.filter((r) => !r.ok), violations: [...this.violations], neverRan: [...this.neverRan] };
  }
}

/**
 * The invariants to monitor, sorted: those the expectations name and those asked for. Without the
 * latter (every run of an exploration) kept per list of expectations, which the runs share: the
 * list's flatMap, Set and sort were half the Checker's own construction time.
 */
function monitorIds(expect: readonly Expectation[], invariantIds: readonly string[] | undefined): readonly string[] {
  if (invariantIds !== undefined) return namedIds(expect, invariantIds);
  const kept = idsByExpectations.get(expect);
  if (kept !== undefined && kept.length === expect.length) return kept.ids;
  const ids = namedIds(expect, []);
  idsByExpectations.set(expect, { length: expect.length, ids });
  return ids;
}

const idsByExpectations = new WeakMap<readonly Expectation[], { length: number; ids: readonly string[] }>();

function namedIds(expect: readonly Expectation[], invariantIds: readonly string[]): string[] {
  const named = expect.flatMap((e) => (e.condition.invariant === undefined ? [] : [e.condition.invariant]));
  return [...new Set([...named, ...invariantIds])].sort();
}

/** As people read it: durations formatted as the scenario writes them. */
export function describeText(e: Expectation): string {
  const c = describeCondition(e.condition);
  if (e.kind === "eventually") return `eventually ${c}${e.byMs === null ? "" : ` by ${formatDuration(e.byMs)}`}`;
  if (e.kind === "never") return `never ${c}`;
  return `at ${formatDuration(e.atMs)} ${c}`;
}

function describe(e: Expectation): string {
  const c = describeCondition(e.condition);
  if (e.kind === "eventually") return `eventually ${c}${e.byMs === null ? "" : ` by ${e.byMs}ms`}`;
  if (e.kind === "never") return `never ${c}`;
  return `at ${e.atMs}ms ${c}`;
}
