// Models pkg/printers/internalversion/printers.go (printPod: the NAME, READY, STATUS, RESTARTS, AGE
// columns of `kubectl get pods`) and k8s.io/apimachinery/pkg/util/duration (HumanDuration).
//
// Pure: "now" is passed in (virtual ms), and timestamps are parsed by a pure RFC 3339 parser, never
// the host's Date. Upstream's time.Since(t) becomes nowMs - parseTimeMs(t).
import type { ContainerStatus, Pod, PodCondition, PodStatus } from "./pod.ts";
import { perKey } from "./memo.ts";

/** Virtual time 0 as a wall-clock instant; must equal the apiserver's EPOCH_RFC3339 (a test checks). */
export const SIM_EPOCH_RFC3339 = "2025-01-01T00:00:00Z";

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** Milliseconds since the Unix epoch of an RFC 3339 timestamp (fractions truncated to ms). */
export function rfc3339ToUnixMs(text: string): number {
  const m = RFC3339.exec(text);
  if (m === null) throw new RangeError(`not an RFC 3339 timestamp: ${JSON.stringify(text)}`);
  const [y, mo, d, hh, mi, ss] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || hh > 23 || mi > 59 || ss > 60) {
    throw new RangeError(`RFC 3339 field out of range: ${JSON.stringify(text)}`);
  }
  const fracMs = m[7] === undefined ? 0 : Number(m[7].slice(1, 4).padEnd(3, "0"));
  const zone = m[8]!;
  const offsetMin = zone === "Z" || zone === "z" ? 0 : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const local = daysFromCivil(y, mo, d) * MS_PER_DAY + ((hh * 60 + mi) * 60 + ss) * 1000 + fracMs;
  return local - offsetMin * 60_000;
}

const SIM_EPOCH_UNIX_MS = rfc3339ToUnixMs(SIM_EPOCH_RFC3339);

/**
 * Virtual ms (the simulation's clock) of an RFC 3339 timestamp. Remembered per text: a pod's
 * timestamps are parsed again at every view of it (printPod), and the parse is pure.
 */
export const simMsFromRFC3339: (text: string) => number = perKey((text: string) => rfc3339ToUnixMs(text) - SIM_EPOCH_UNIX_MS, 4096);

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Go's int(x) conversion of a float: truncation toward zero. */
const goInt = (x: number): number => Math.trunc(x);

/**
 * duration.HumanDuration: ~2-3 significant figures ("45s", "5m30s", "3h", "2d4h", "3y12d").
 * Durations down to -1s print "0s" (clock skew tolerance); below that "<invalid>".
 */
export function humanDuration(ms: number): string {
  const seconds = goInt(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = goInt(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = goInt(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${goInt(hours / 24)}d` : `${goInt(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${goInt(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = goInt(hours / 24) % 365;
    const years = goInt(hours / 24 / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${goInt(hours / 24 / 365)}y`;
}

export interface PrintPodOptions {
  /** The instant the row is printed, in the same clock as parseTimeMs (virtual ms by default). */
  nowMs: number;
  /** Parses a metav1.Time; defaults to simMsFromRFC3339 (virtual ms). */
  parseTimeMs?: (rfc3339: string) => number;
}

/** One row of `kubectl get pods`, plus the row condition upstream attaches to terminal pods. */
export interface PodRow {
  name: string;
  ready: string;
  status: string;
  restarts: string;
  age: string;
  /** metav1.TableRowCondition "Completed": the pod's terminal phase, or null. */
  completed: "Succeeded" | "Failed" | null;
}

/** translateTimestampSince: "<unknown>" for an unset time, else HumanDuration(now - t). */
export function translateTimestampSince(t: string | null | undefined, nowMs: number, parseTimeMs = simMsFromRFC3339): string {
  if (t === null || t === undefined || t === "") return "<unknown>";
  return humanDuration(nowMs - parseTimeMs(t));
}

/** The running totals printPod keeps while it walks the container statuses. */
interface Tally {
  restarts: number;
  readyContainers: number;
  /** Virtual ms of the latest LastTerminationState.Terminated.FinishedAt, or null for Go's zero time. */
  lastRestartMs: number | null;
  reason: string;
}

/** printPod: the columns kubectl prints for a pod at nowMs. */
export function printPod(pod: Pod, opts: PrintPodOptions): PodRow {
  const parse = opts.parseTimeMs ?? simMsFromRFC3339;
  const status: PodStatus = pod.status ?? {};
  const podPhase = status.phase ?? "";
  let reason: string = status.reason !== undefined && status.reason !== "" ? status.reason : podPhase;
  // If the Pod carries {type:PodScheduled, reason:SchedulingGated}, set reason to 'SchedulingGated'.
  for (const c of status.conditions ?? []) {
    if (c.type === "PodScheduled" && c.reason === "SchedulingGated") reason = "SchedulingGated";
  }
  const initContainers = pod.spec.initContainers ?? [];
  const restartable = new Set(initContainers.filter((c) => c.restartPolicy === "Always").map((c) => c.name));
  const totalContainers = pod.spec.containers.length + restartable.size;

  const init = walkInitContainers(status.initContainerStatuses ?? [], restartable, initContainers.length, parse, reason);
  let tally: Tally = init.tally;
  if (!init.initializing || isPodInitializedConditionTrue(status)) {
    tally = walkContainers(status, init, parse);
  }
  reason = tally.reason;

  if (pod.metadata.deletionTimestamp != null && status.reason === "NodeLost") {
    reason = "Unknown";
  } else if (pod.metadata.deletionTimestamp != null && podPhase !== "Succeeded" && podPhase !== "Failed") {
    reason = "Terminating";
  }

  let restarts = String(tally.restarts);
  if (tally.restarts !== 0 && tally.lastRestartMs !== null) {
    restarts = `${tally.restarts} (${humanDuration(opts.nowMs - tally.lastRestartMs)} ago)`;
  }
  return {
    name: pod.metadata.name,
    ready: `${tally.readyContainers}/${totalContainers}`,
    status: reason,
    restarts,
    age: translateTimestampSince(pod.metadata.creationTimestamp, opts.nowMs, parse),
    completed: podPhase === "Succeeded" || podPhase === "Failed" ? podPhase : null,
  };
}

interface InitWalk {
  tally: Tally;
  initializing: boolean;
  restartableRestarts: number;
  restartableLastRestartMs: number | null;
}

/** The init container loop: stops at the first init container that is not done (Go's `break`). */
function walkInitContainers(
  statuses: readonly ContainerStatus[],
  restartable: ReadonlySet<string>,
  initCount: number,
  parse: (t: string) => number,
  reason0: string,
): InitWalk {
  const tally: Tally = { restarts: 0, readyContainers: 0, lastRestartMs: null, reason: reason0 };
  let restartableRestarts = 0;
  let restartableLastRestartMs: number | null = null;
  let initializing = false;
  for (let i = 0; i < statuses.length; i++) {
    const container = statuses[i]!;
    const isSidecar = restartable.has(container.name);
    tally.restarts += container.restartCount ?? 0;
    const finished = finishedAtMs(container, parse);
    tally.lastRestartMs = later(tally.lastRestartMs, finished);
    if (isSidecar) {
      restartableRestarts += container.restartCount ?? 0;
      restartableLastRestartMs = later(restartableLastRestartMs, finished);
    }
    const terminated = container.state?.terminated;
    const waiting = container.state?.waiting;
    if (terminated != null && terminated.exitCode === 0) continue;
    if (isSidecar && container.started === true) {
      if (container.ready === true) tally.readyContainers++;
      continue;
    }
    if (terminated != null) {
      // initialization is failed
      if ((terminated.reason ?? "") === "") {
        tally.reason = (terminated.signal ?? 0) !== 0 ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode}`;
      } else {
        tally.reason = `Init:${terminated.reason}`;
      }
    } else if (waiting != null && (waiting.reason ?? "") !== "" && waiting.reason !== "PodInitializing") {
      tally.reason = `Init:${waiting.reason}`;
    } else {
      tally.reason = `Init:${i}/${initCount}`;
    }
    initializing = true;
    break;
  }
  return { tally, initializing, restartableRestarts, restartableLastRestartMs };
}

/** The regular container loop, last to first, so the first container's reason wins. */
function walkContainers(status: PodStatus, init: InitWalk, parse: (t: string) => number): Tally {
  const tally: Tally = {
    restarts: init.restartableRestarts,
    readyContainers: init.tally.readyContainers,
    lastRestartMs: init.restartableLastRestartMs,
    reason: init.tally.reason,
  };
  let hasRunning = false;
  const statuses = status.containerStatuses ?? [];
  for (let i = statuses.length - 1; i >= 0; i--) {
    const container = statuses[i]!;
    tally.restarts += container.restartCount ?? 0;
    tally.lastRestartMs = later(tally.lastRestartMs, finishedAtMs(container, parse));
    const waiting = container.state?.waiting;
    const terminated = container.state?.terminated;
    if (waiting != null && (waiting.reason ?? "") !== "") {
      tally.reason = waiting.reason!;
    } else if (terminated != null && (terminated.reason ?? "") !== "") {
      tally.reason = terminated.reason!;
    } else if (terminated != null) {
      tally.reason = (terminated.signal ?? 0) !== 0 ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode}`;
    } else if (container.ready === true && container.state?.running != null) {
      hasRunning = true;
      tally.readyContainers++;
    }
  }
  // change pod status back to "Running" if there is at least one container still reporting as "Running" status
  if (tally.reason === "Completed" && hasRunning) {
    tally.reason = hasPodReadyCondition(status.conditions ?? []) ? "Running" : "NotReady";
  }
  return tally;
}

/** LastTerminationState.Terminated.FinishedAt in ms, or null when unset (Go's zero time). */
function finishedAtMs(c: ContainerStatus, parse: (t: string) => number): number | null {
  const at = c.lastState?.terminated?.finishedAt;
  return at == null || at === "" ? null : parse(at);
}

/** `if last.Before(&t) { last = t }` with null as the zero time. */
function later(last: number | null, t: number | null): number | null {
  if (t === null) return last;
  return last === null || last < t ? t : last;
}

/** isPodInitializedConditionTrue: the first Initialized condition decides. */
export function isPodInitializedConditionTrue(status: PodStatus): boolean {
  const c = (status.conditions ?? []).find((x) => x.type === "Initialized");
  return c?.status === "True";
}

/** hasPodReadyCondition: any Ready=True condition. */
export function hasPodReadyCondition(conditions: readonly PodCondition[]): boolean {
  return conditions.some((c) => c.type === "Ready" && c.status === "True");
}
