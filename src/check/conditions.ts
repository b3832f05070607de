// Pure evaluation of a scenario condition against what the world shows at one instant: the pod
// object in the apiserver, the events recorded so far, and the invariants violated so far.
import type { Pod, ContainerStatus } from "../k8s/pod.ts";
import type { Condition } from "../scenario/types/expect.ts";

export interface RecordedEvent {
  pod: string;
  type: string;
  reason: string;
  message: string;
}

export interface WorldView {
  /** The pod object by "namespace/name", absent when it does not exist. */
  pod(key: string): Pod | undefined;
  events(podKey: string): readonly RecordedEvent[];
  violated(invariant: string): boolean;
}

export function holds(c: Condition, w: WorldView): boolean {
  if (c.invariant !== undefined) return w.violated(c.invariant);
  const key = c.pod!;
  const pod = w.pod(key);
  if (c.gone !== undefined && (pod === undefined) !== c.gone) return false;
  if (c.event !== undefined && !eventHolds(c.event, w.events(key))) return false;
  const needsPod = c.phase !== undefined || c.conditions !== undefined || c.container !== undefined;
  if (!needsPod) return true;
  if (pod === undefined) return false;
  if (c.phase !== undefined && (pod.status?.phase ?? "Pending") !== c.phase) return false;
  if (c.conditions !== undefined) {
    for (const [type, want] of Object.entries(c.conditions)) {
      const got = pod.status?.conditions?.find((x) => x.type === type)?.status;
      if (got !== want) return false;
    }
  }
  return c.container === undefined || containerHolds(c.container, pod);
}

type ContainerCheck = NonNullable<Condition["container"]>;
type EventCheck = NonNullable<Condition["event"]>;

function containerHolds(check: ContainerCheck, pod: Pod): boolean {
  const s = pod.status;
  const all: ContainerStatus[] = [...(s?.initContainerStatuses ?? []), ...(s?.containerStatuses ?? []), ...(s?.ephemeralContainerStatuses ?? [])];
  const cs = all.find((x) => x.name === check.name);
  if (cs === undefined) return false;
  const state = cs.state?.running !== undefined ? "running" : cs.state?.terminated !== undefined ? "terminated" : cs.state?.waiting !== undefined ? "waiting" : undefined;
  if (check.state !== undefined && state !== check.state) return false;
  if (check.reason !== undefined) {
    const reason = cs.state?.waiting?.reason ?? cs.state?.terminated?.reason;
    if (reason !== check.reason) return false;
  }
  if (check.exitCode !== undefined && cs.state?.terminated?.exitCode !== check.exitCode) return false;
  if (check.restartCount !== undefined && !inRange(cs.restartCount ?? 0, check.restartCount)) return false;
  if (check.ready !== undefined && (cs.ready ?? false) !== check.ready) return false;
  if (check.started !== undefined && (cs.started ?? false) !== check.started) return false;
  return true;
}

function eventHolds(check: EventCheck, events: readonly RecordedEvent[]): boolean {
  const n = events.filter(
    (e) => e.reason === check.reason && (check.type === undefined || e.type === check.type) && (check.message === undefined || e.message.includes(check.message)),
  ).length;
  return check.count === undefined ? n >= 1 : inRange(n, check.count);
}

function inRange(n: number, r: { min?: number | null; max?: number | null }): boolean {
  return (r.min === undefined || r.min === null || n >= r.min) && (r.max === undefined || r.max === null || n <= r.max);
}

/** A one-line description of a condition, for reports. */
export function describeCondition(c: Condition): string {
  if (c.invariant !== undefined) return `invariant ${c.invariant} violated`;
  const parts: string[] = [];
  if (c.gone !== undefined) parts.push(c.gone ? "gone" : "exists");
  if (c.phase !== undefined) parts.push(`phase=${c.phase}`);
  if (c.conditions !== undefined) for (const [k, v] of Object.entries(c.conditions)) parts.push(`${k}=${v}`);
  if (c.container !== undefined) {
    const { name, ...rest } = c.container;
    parts.push(`container ${name} ${JSON.stringify(rest)}`);
  }
  if (c.event !== undefined) parts.push(`event ${JSON.stringify(c.event)}`);
  return `${c.pod}: ${parts.join(", ")}`;
}

/** What the world showed for a condition's checks at one instant: words for people, a value for tools. */
export interface Observation {
  text: string;
  value: ObservedValue;
}

export interface ObservedValue {
  /** Whether the pod object existed in the apiserver (absent for invariant conditions). */
  exists?: boolean;
  phase?: string;
  /** The status of each condition type the expectation names; null when the pod has none of that type. */
  conditions?: Record<string, string | null>;
  /** The named container's status, null when the pod reports none for it yet. */
  container?: ObservedContainer | null;
  /** Events of the expected reason (and type): how many, and the last one. */
  event?: { count: number; last: { type: string; reason: string; message: string } | null };
  violated?: boolean;
}

export interface ObservedContainer {
  name: string;
  state: "waiting" | "running" | "terminated" | "unknown";
  reason: string | null;
  exitCode: number | null;
  restartCount: number;
  ready: boolean;
  started: boolean;
}

/** Observes what the condition checks, whether or not it holds. */
export function observe(c: Condition, w: WorldView): Observation {
  if (c.invariant !== undefined) {
    const violated = w.violated(c.invariant);
    return { text: `invariant ${c.invariant} ${violated ? "violated" : "not violated"}`, value: { violated } };
  }
  const key = c.pod!;
  const pod = w.pod(key);
  const value: ObservedValue = { exists: pod !== undefined };
  const words: string[] = [];
  if (c.event !== undefined) {
    const matching = w.events(key).filter((e) => e.reason === c.event!.reason && (c.event!.type === undefined || e.type === c.event!.type));
    const last = matching.at(-1) ?? null;
    value.event = { count: matching.length, last: last === null ? null : { type: last.type, reason: last.reason, message: last.message } };
    words.push(last === null ? `no ${c.event.reason} event` : `${matching.length} ${c.event.reason} event(s), the last ${last.type}: "${last.message}"`);
  }
  const needsPod = c.phase !== undefined || c.conditions !== undefined || c.container !== undefined || c.gone !== undefined;
  if (needsPod && pod === undefined) return { text: [`no pod ${key} in the apiserver`, ...words].join("; "), value };
  if (pod === undefined) return { text: words.join("; "), value };
  if (c.gone !== undefined) words.unshift("the pod exists");
  if (c.phase !== undefined || c.conditions !== undefined) {
    value.phase = pod.status?.phase ?? "Pending";
    words.push(`phase=${value.phase}`);
  }
  if (c.conditions !== undefined) {
    value.conditions = {};
    for (const type of Object.keys(c.conditions)) {
      const got = pod.status?.conditions?.find((x) => x.type === type)?.status ?? null;
      value.conditions[type] = got;
      words.push(`${type}=${got ?? "(none)"}`);
    }
  }
  if (c.container !== undefined) {
    value.container = observeContainer(c.container.name, pod);
    words.push(describeContainer(c.container.name, value.container));
  }
  return { text: words.join("; "), value };
}

function observeContainer(name: string, pod: Pod): ObservedContainer | null {
  const s = pod.status;
  const all: ContainerStatus[] = [...(s?.initContainerStatuses ?? []), ...(s?.containerStatuses ?? []), ...(s?.ephemeralContainerStatuses ?? [])];
  const cs = all.find((x) => x.name === name);
  if (cs === undefined) return null;
  const st = cs.state;
  const state = st?.running !== undefined ? "running" : st?.terminated !== undefined ? "terminated" : st?.waiting !== undefined ? "waiting" : "unknown";
  return {
    name,
    state,
    reason: st?.waiting?.reason ?? st?.terminated?.reason ?? null,
    exitCode: st?.terminated?.exitCode ?? null,
    restartCount: cs.restartCount ?? 0,
    ready: cs.ready ?? false,
    started: cs.started ?? false,
  };
}

function describeContainer(name: string, c: ObservedContainer | null): string {
  if (c === null) return `container ${name}: no status yet`;
  const why = c.reason === null ? "" : ` (${c.reason}${c.exitCode === null ? "" : `, exit ${c.exitCode}`})`;
  return `container ${name} ${c.state}${why}, restarts ${c.restartCount}, ready=${c.ready}, started=${c.started}`;
}
