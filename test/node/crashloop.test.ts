// CrashLoopBackOff end to end through simulate(): a container that exits 1 one second after every
// start is restarted at once after its first exit, then after 10, 20, 40, 80, 160, 300, 300 s,
// each measured from the previous exit. Checked three ways: the restart delays against explicit
// latency bounds, every back-off decision against a reference of upstream doBackOff built from
// oracle/backoff.yaml's notes, and the back-off reset after a long healthy run.
import { describe, expect, it } from "vitest";
import { all, num, runScenario } from "../fixtures/node/trace.ts";
import type { TraceRecord } from "../../src/sim/index.ts";

const POD = "default/crasher";
const S = 1000;

/** kubelet.go: backOff = flowcontrol.NewBackOff(backOffPeriod=10s, MaxContainerBackOff=300s), no jitter. */
const INITIAL_MS = 10 * S;
const MAX_MS = 300 * S;
/** Upstream delays between an exit and the next start: the first restart is immediate. */
const NOMINAL_DELAYS_MS = [0, 10, 20, 40, 80, 160, 300, 300].map((s) => s * S);

/**
 * The latency bound on a restart, on top of the nominal delay, and why.
 *
 * - The first restart comes from the PLEG: its relist (every 1 s) sees the exit and the pod worker
 *   syncs at once, so it waits at most one relist period plus the runtime's calls.
 * - A later restart waits for the first pod sync at or after FinishedAt + backoff. While the
 *   container is in back-off, every sync ends with the CrashLoopBackOff error: upstream kubelet.go
 *   SyncPod's "Do not return error if the only failures were pods in backoff" loop never fires,
 *   because SyncPod always records a successful ConfigPodSandbox result next to the failed
 *   StartContainer one. The pod worker therefore requeues the pod with
 *   wait.Jitter(backOffPeriod = 10 s, workerBackOffPeriodJitterFactor = 0.5), i.e. in [10 s, 15 s),
 *   and the syncLoop's 1 s sync ticker picks it up; the worker then waits in GetNewerThan for a
 *   pod cache newer than its last sync, up to one more relist period (1 s). (Upstream PR #133066,
 *   after the modelled releases, makes the worker requeue at the back-off's expiry instead.)
 * - Starting takes ImageStatus (1 ms), CreateContainer (100 ms) and StartContainer (100 ms), plus the
 *   PLEG's and the status manager's few-millisecond calls.
 */
const RELIST_MS = 1 * S;
const SYNC_TICKER_MS = 1 * S;
const WORKER_BACKOFF_REQUEUE_MAX_MS = 15 * S;
const START_LATENCY_MS = 200;
const SLACK_MS = 300;
const FIRST_RESTART_BOUND_MS = RELIST_MS + START_LATENCY_MS + SLACK_MS;
const LATER_RESTART_BOUND_MS = WORKER_BACKOFF_REQUEUE_MAX_MS + SYNC_TICKER_MS + RELIST_MS + START_LATENCY_MS + SLACK_MS;
/** Two consecutive back-off decisions for one exit are at most one requeue, one tick, one relist apart. */
const MAX_SYNC_GAP_MS = WORKER_BACKOFF_REQUEUE_MAX_MS + SYNC_TICKER_MS + RELIST_MS;

function scenario(version: string, runs: string, until: string): string {
  return `
name: crash-loop-${version.replace(".", "-")}
until: ${until}
kubelet: { version: "${version}" }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: crasher }
      spec:
        containers:
          - { name: app, image: "busybox:1.36", command: [sh, -c, "sleep 1; exit 1"] }
    behaviour:
      app:
        exitAfter: 1s
        exitCode: 1
${runs}
timeline:
  - { at: 0s, create: crasher }
`;
}

interface Decision {
  /** When doBackOff ran: the start() entry time the kuberuntime StartContainer record carries. */
  atMs: number;
  refused: boolean;
  message: string;
}

interface Loop {
  starts: TraceRecord[];
  exits: TraceRecord[];
  decisions: Decision[];
}

function readLoop(records: readonly TraceRecord[]): Loop {
  const starts = all(records, { component: "runtime", kind: "StartContainer", fields: { pod: POD, container: "app", result: "ok" } });
  const exits = all(records, { component: "runtime", kind: "ContainerExited", fields: { pod: POD, container: "app" } });
  const decisions = all(records, { component: "kuberuntime", kind: "StartContainer", fields: { pod: POD, container: "app" } }).map((r) => ({
    atMs: num(r, "sinceMs"),
    refused: r.error === "CrashLoopBackOff",
    message: String(r.message ?? ""),
  }));
  return { starts, exits, decisions };
}

/** Go's time.Duration.String for whole seconds: 10s, 1m20s, 5m0s. */
function goDuration(ms: number): string {
  const s = ms / 1000;
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`;
}

/**
 * A reference of the kubelet's restart back-off, written from oracle/backoff.yaml's meta (not from
 * src/): per key {backoff, lastUpdate}; IsInBackOffSince(eventTime) = entry exists, not expired
 * (eventTime - lastUpdate > 2*max), and now - eventTime < backoff; Next(eventTime) = initial when
 * there is no entry or it expired, else min(2*backoff, max), and lastUpdate = now (not eventTime).
 * doBackOff: with no exited status, start without touching the back-off; eventTime = FinishedAt.
 */
class ReferenceBackoff {
  private entry: { backoffMs: number; lastUpdateMs: number } | null = null;

  decide(nowMs: number, finishedAtMs: number | null): { refused: boolean; backoffMs: number } {
    if (finishedAtMs === null) return { refused: false, backoffMs: 0 };
    const e = this.entry;
    const expired = e !== null && finishedAtMs - e.lastUpdateMs > 2 * MAX_MS;
    if (e !== null && !expired && nowMs - finishedAtMs < e.backoffMs) return { refused: true, backoffMs: e.backoffMs };
    this.entry = { backoffMs: e === null || expired ? INITIAL_MS : Math.min(2 * e.backoffMs, MAX_MS), lastUpdateMs: nowMs };
    return { refused: false, backoffMs: this.entry.backoffMs };
  }
}

/** Replays the run's decisions through the reference; the exits give each decision's FinishedAt. */
function checkAgainstReference(loop: Loop): void {
  const ref = new ReferenceBackoff();
  for (const d of loop.decisions) {
    const before = loop.exits.filter((x) => x.t <= d.atMs);
    const finishedAtMs = before.length === 0 ? null : before.at(-1)!.t;
    const want = ref.decide(d.atMs, finishedAtMs);
    expect(d.refused, `decision at ${d.atMs} ms, last exit at ${finishedAtMs} ms`).toBe(want.refused);
    if (want.refused) expect(d.message).toContain(`back-off ${goDuration(want.backoffMs)} restarting failed container=app pod=crasher_default(`);
  }
}

describe.each(["1.30", "1.21"])("crash loop back-off, kubelet %s", (version) => {
  const run = runScenario(scenario(version, "", "20m"), `crash-loop-${version}.yaml`);
  const loop = readLoop(run.records);

  it("runs to the end with the container started nine times and exiting 1 one second after each start", () => {
    expect(run.result.run.verdict).toBe("until");
    expect(loop.starts.length).toBeGreaterThanOrEqual(NOMINAL_DELAYS_MS.length + 1);
    for (let k = 0; k < NOMINAL_DELAYS_MS.length; k++) {
      expect(loop.exits[k]!.exitCode).toBe(1);
      expect(loop.exits[k]!.t - loop.starts[k]!.t).toBe(1000);
    }
  });

  it("restarts at once, then after 10, 20, 40, 80, 160, 300, 300 s from each exit, within the stated bounds", () => {
    const delays = NOMINAL_DELAYS_MS.map((_, k) => loop.starts[k + 1]!.t - loop.exits[k]!.t);
    NOMINAL_DELAYS_MS.forEach((nominal, k) => {
      const bound = k === 0 ? FIRST_RESTART_BOUND_MS : LATER_RESTART_BOUND_MS;
      expect(delays[k], `restart ${k + 1}: delay ${delays[k]} ms, nominal ${nominal} ms`).toBeGreaterThanOrEqual(nominal + START_LATENCY_MS);
      expect(delays[k], `restart ${k + 1}: delay ${delays[k]} ms, nominal ${nominal} ms`).toBeLessThanOrEqual(nominal + bound);
    });
  });

  it("makes every back-off decision exactly as upstream doBackOff would at that instant", () => {
    // Refusals are what stretch the delays: at least one per exit after the first.
    expect(loop.decisions.filter((d) => d.refused).length).toBeGreaterThanOrEqual(NOMINAL_DELAYS_MS.length - 1);
    checkAgainstReference(loop);
  });

  it("re-syncs a pod in back-off at the pod worker's error requeue period (what the upper bound rests on)", () => {
    for (let k = 1; k < NOMINAL_DELAYS_MS.length; k++) {
      const exitMs = loop.exits[k]!.t;
      const nextExitMs = loop.exits[k + 1]?.t ?? Infinity;
      const times = loop.decisions.filter((d) => d.atMs > exitMs && d.atMs < nextExitMs).map((d) => d.atMs);
      // The first decision after an exit comes from the PLEG's ContainerDied, within a relist.
      expect(times[0]! - exitMs).toBeLessThanOrEqual(RELIST_MS + SLACK_MS);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(MAX_SYNC_GAP_MS);
    }
  });

  it("shows the back-off to users: Warning BackOff events and the CrashLoopBackOff status", () => {
    const backOffs = all(run.records, { component: "kubelet", kind: "Event", fields: { pod: POD, reason: "BackOff", type: "Warning" } });
    expect(backOffs.length).toBe(loop.decisions.filter((d) => d.refused).length);
    expect(String(backOffs[0]!.message)).toContain("Back-off restarting failed container app in pod crasher_default(");
    const views = all(run.records, { component: "apiserver", kind: "PodView", fields: { pod: POD } });
    expect(views.some((v) => v.status === "CrashLoopBackOff")).toBe(true);
    expect(views.every((v) => v.phase !== "Succeeded" && v.phase !== "Failed")).toBe(true);
  });
});

describe.each(["1.30", "1.21"])("crash loop back-off reset, kubelet %s", (version) => {
  // Four quick crashes (back-off reaches 40 s), then a run of 11 minutes: its exit comes more than
  // 2*max = 10 min after the last allowed restart, so the entry has expired: the kubelet restarts
  // at once and the next back-off is 10 s again.
  const runs = `        runs:
          - { exitAfter: 1s, exitCode: 1 }
          - { exitAfter: 1s, exitCode: 1 }
          - { exitAfter: 1s, exitCode: 1 }
          - { exitAfter: 1s, exitCode: 1 }
          - { exitAfter: 11m, exitCode: 1 }`;
  const run = runScenario(scenario(version, runs, "16m"), `crash-loop-reset-${version}.yaml`);
  const loop = readLoop(run.records);

  it("restarts at once after the long run and starts over at 10 s", () => {
    expect(run.result.run.verdict).toBe("until");
    expect(loop.exits[4]!.t - loop.starts[4]!.t).toBe(11 * 60 * S);
    const afterLong = loop.starts[5]!.t - loop.exits[4]!.t;
    expect(afterLong).toBeLessThanOrEqual(FIRST_RESTART_BOUND_MS);
    const next = loop.starts[6]!.t - loop.exits[5]!.t;
    expect(next).toBeGreaterThanOrEqual(INITIAL_MS + START_LATENCY_MS);
    expect(next).toBeLessThanOrEqual(INITIAL_MS + LATER_RESTART_BOUND_MS);
    checkAgainstReference(loop);
  });
});
