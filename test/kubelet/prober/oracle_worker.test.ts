// Every prober_worker.yaml vector (worker_test.go TestDoProbe and friends) through the REAL worker
// process: ProberManager.AddPod spawns it, the status it reads comes from a status provider, the
// probe answer from a scripted runner, each further step is one manual trigger, and results are
// read from the results manager the worker writes. The vectors' prose is read by the conformance
// module's scene parser, so the same words mean the same status here and in the pure-core runner.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Pod, PodStatus } from "../../../src/k8s/pod.ts";
import { sleep, type Proc, type Sim } from "../../../src/sim/index.ts";
import { loadVectorFile } from "../../../src/conformance/load.ts";
import { outcomeOf, proberVectorSchema, type ProberVector } from "../../../src/conformance/prober_vectors.ts";
import { applyStatusText, defaultScene, SCENE_NOW_MS, TEST_CONTAINER_ID, TEST_CONTAINER_NAME, type Scene } from "../../../src/conformance/status_scene.ts";
import { ProberManager } from "../../../src/kubelet/prober/prober_manager.ts";
import { ResultsManager, type Result } from "../../../src/kubelet/prober/results/results_manager.ts";
import type { ProbeType } from "../../../src/kubelet/prober/worker_core.ts";
import { formatRFC3339 } from "../../../src/kubelet/status/metatime.ts";
import { drainUpdates, FakeStatusProvider, newSim, records, ScriptedRunner } from "./fakes.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const CANDIDATES = [join(ROOT, "test/fixtures/oracle/prober_worker.yaml"), join(ROOT, "../shared/oracle/prober_worker.yaml")];
const FILE = CANDIDATES.find((p) => existsSync(p));
/** The vectors reflect the newest worker.go (a startup worker holds after Success too). */
const MINOR = 33;
/** After the kubelet's first period, so no first-probe jitter; steps 1 ms apart stay before the first tick. */
const T0_MS = 20_000;

/** A results manager that remembers the cache before each change, to read a result the exiting worker then removes. */
class RecordingResultsManager extends ResultsManager {
  readonly shadow = new Map<string, Result>();
  history: Map<string, Result>[] = [];
  override *Set(containerID: string, result: Result, podUID: string): Proc<void> {
    this.history.push(new Map(this.shadow));
    this.shadow.set(containerID, result);
    yield* super.Set(containerID, result, podUID);
  }
  override Remove(containerID: string): void {
    this.history.push(new Map(this.shadow));
    this.shadow.delete(containerID);
    super.Remove(containerID);
  }
}

/** The fixture pod: testPod/pOd_UiD with one container probed by this worker. */
function testPod(v: ProberVector, probeType: ProbeType): Pod {
  const spec = {
    exec: { command: ["/bin/true"] },
    initialDelaySeconds: v.probe?.initialDelaySeconds ?? 0,
    // setTestProbe: thresholds the Go test leaves 0 default to 1.
    successThreshold: v.probe?.successThreshold || 1,
    failureThreshold: v.probe?.failureThreshold || 1,
    timeoutSeconds: 1,
    periodSeconds: 10,
  };
  const key = probeType === "liveness" ? "livenessProbe" : probeType === "readiness" ? "readinessProbe" : "startupProbe";
  return { metadata: { name: "testPod", namespace: "default", uid: "pOd_UiD" }, spec: { restartPolicy: v.podRestartPolicy || "Never", containers: [{ name: TEST_CONTAINER_NAME, [key]: spec }] } };
}

/** The scene as the status manager's v1.PodStatus at virtual time nowMs (times as RFC 3339 text). */
function apiStatus(s: Scene, nowMs: number): PodStatus | undefined {
  if (!s.hasStatus) return undefined;
  const startedAt = formatRFC3339(nowMs - (SCENE_NOW_MS - s.startedAtMs));
  const state = s.state === "running" ? { running: { startedAt } } : s.state === "terminated" ? { terminated: { exitCode: s.exitCode } } : { waiting: {} };
  const c = { name: s.statusContainerName, containerID: s.containerID, state, ...(s.started === null ? {} : { started: s.started }) };
  return { phase: s.phase, containerStatuses: [c] };
}

interface World {
  sim: Sim;
  pm: ProberManager;
  rm: RecordingResultsManager;
  status: FakeStatusProvider;
  runner: ScriptedRunner;
  pod: Pod;
  probeType: ProbeType;
  scene: Scene;
  started: boolean;
  stops: () => number;
}

function world(v: ProberVector, probeType: ProbeType): World {
  const { sim, sink } = newSim(1, 60_000);
  const rm = new RecordingResultsManager(sim, probeType);
  const others = { liveness: new ResultsManager(sim, "liveness"), readiness: new ResultsManager(sim, "readiness"), startup: new ResultsManager(sim, "startup") };
  others[probeType] = rm;
  const status = new FakeStatusProvider();
  const runner = new ScriptedRunner(sim);
  const pm = new ProberManager(sim, { statusManager: status, runner, version: MINOR, livenessManager: others.liveness, readinessManager: others.readiness, startupManager: others.startup });
  drainUpdates(sim, Object.values(others));
  const scene = applyStatusText(defaultScene(probeType), v.status ?? "");
  return { sim, pm, rm, status, runner, pod: testPod(v, probeType), probeType, scene, started: false, stops: () => records(sink, "WorkerStop").length };
}

/** Publishes the scene (status provider, the worker's own pod object) and the probe's scripted answer. */
function stage(w: World, exec: string | undefined): string | undefined {
  const st = apiStatus(w.scene, w.sim.nowMs);
  if (st === undefined) w.status.statuses.delete("pOd_UiD");
  else w.status.statuses.set("pOd_UiD", st);
  // The Go tests set the deletion timestamp on w.pod, the object the worker holds.
  if (w.scene.podDeleted) w.pod.metadata.deletionTimestamp = "2025-01-01T00:00:00Z";
  const outcome = outcomeOf(exec);
  if (outcome !== "Success" && outcome !== "Failure" && outcome !== "error") return outcome;
  w.runner.answers[w.probeType] = outcome === "Success" ? "success" : outcome === "Failure" ? "failure" : "error";
  return undefined;
}

/** One doProbe of the real worker: the first starts it (AddPod), the rest are manual triggers. */
function* probeOnce(w: World): Proc<{ keepGoing: boolean; cached: Result | undefined }> {
  const stopsBefore = w.stops();
  const historyBefore = w.rm.history.length;
  if (!w.started) {
    w.pm.AddPod(w.pod);
    w.started = true;
  } else {
    const worker = w.pm.getWorker("pOd_UiD", TEST_CONTAINER_NAME, w.probeType);
    if (worker === undefined) throw new Error("the worker has exited; the vector probes again");
    worker.manualTriggerCh!.trySend(null);
  }
  yield* sleep(1);
  const keepGoing = w.stops() === stopsBefore;
  // An exiting worker's cleanup removes its result; doProbe's own result is the cache before that.
  const cache = !keepGoing && w.rm.history.length > historyBefore ? w.rm.history[w.rm.history.length - 1]! : w.rm.shadow;
  return { keepGoing, cached: cache.get(workerContainerID(w)) };
}

function workerContainerID(w: World): string {
  return w.pm.getWorker("pOd_UiD", TEST_CONTAINER_NAME, w.probeType)?.workerState.containerID || TEST_CONTAINER_ID;
}

type Step = NonNullable<ProberVector["steps"]>[number];

/** Runs one vector step inside the test process; returns diff lines. */
function* runStep(w: World, s: Step): Proc<string[]> {
  if (s.status !== undefined) w.scene = applyStatusText(w.scene, s.status);
  const diffs: string[] = [];
  const check = <T>(field: string, expected: T | undefined, actual: T) => {
    if (expected !== undefined && expected !== actual) diffs.push(`${field}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  };
  let cached: Result | undefined = w.rm.shadow.get(workerContainerID(w));
  if (s.action !== undefined) {
    const err = yield* runAction(w, s.action);
    if (err !== undefined) return [err];
    cached = w.rm.shadow.get(workerContainerID(w));
  }
  const probes = s.check === undefined && (s.action === undefined || s.exec !== undefined || s.expectKeepGoing !== undefined);
  if (probes) {
    const worker = w.pm.getWorker("pOd_UiD", TEST_CONTAINER_NAME, w.probeType);
    check("onHold before probing", s.expectOnHoldBefore, worker?.workerState.onHold ?? false);
    const bad = stage(w, s.exec);
    if (bad !== undefined) return [bad];
    const got = yield* probeOnce(w);
    check("keepGoing", s.expectKeepGoing, got.keepGoing);
    cached = got.cached;
  }
  const state = w.pm.getWorker("pOd_UiD", TEST_CONTAINER_NAME, w.probeType)?.workerState;
  if (s.expectResult !== undefined) check("result", s.expectResult, cached ?? null);
  if (state !== undefined) {
    check("resultRun", s.expectResultRun, state.resultRun);
    check("onHold", s.expectOnHold, state.onHold);
  }
  check("resultPresent", s.expectResultPresent ?? s.expectResultSet, cached !== undefined);
  check("workerRegistered", s.expectWorkerRegistered, state !== undefined);
  return diffs;
}

function* runAction(w: World, action: string): Proc<string | undefined> {
  const until = /until cached result\s*==\s*(\w+)/i.exec(action);
  if (until !== null) {
    // worker.run on its own: keep probing until the condition holds (bounded).
    for (let i = 0; i < 100 && w.rm.shadow.get(workerContainerID(w)) !== until[1]; i++) {
      const bad = stage(w, undefined);
      if (bad !== undefined) return bad;
      const got = yield* probeOnce(w);
      if (!got.keepGoing) return `worker stopped before the cached result became ${until[1]}`;
    }
    return w.rm.shadow.get(workerContainerID(w)) === until[1] ? undefined : `cached result never became ${until[1]}`;
  }
  const times = /stop\(\) called (\d+) times/.exec(action);
  if (times !== null || /stop\(\)/.test(action)) {
    const worker = w.pm.getWorker("pOd_UiD", TEST_CONTAINER_NAME, w.probeType);
    for (let i = 0; i < Number(times?.[1] ?? 1); i++) worker?.stop();
    yield* sleep(1);
    return undefined;
  }
  const set = /results?(?:Manager)?\.Set\([^)]*\b(Success|Failure|Unknown)\b/i.exec(action);
  if (set !== null) {
    yield* w.rm.Set(workerContainerID(w), set[1] as Result, "pOd_UiD");
    return undefined;
  }
  const before = JSON.stringify(w.scene);
  w.scene = applyStatusText(w.scene, action);
  return JSON.stringify(w.scene) === before ? `cannot interpret action ${JSON.stringify(action)}` : undefined;
}

/** Runs a vector for one probe type in its own simulation; returns the diffs. */
function runVector(v: ProberVector, probeType: ProbeType): string[] {
  const texts = [v.status ?? "", ...(v.steps ?? []).flatMap((s) => [s.status ?? "", s.action ?? ""])];
  if (texts.some((t) => applyStatusText(defaultScene(probeType), t).inInitStatuses)) {
    return ["sidecar (restartable init container) vectors need init-container workers, which AddPod does not create here"];
  }
  const w = world(v, probeType);
  const steps: Step[] = v.steps ?? [
    { exec: v.execResult, expectKeepGoing: v.expect?.keepGoing, expectResult: v.expect?.result, expectResultPresent: v.expect?.resultSet },
  ];
  const diffs: string[] = [];
  w.sim.go("test/vector", function* () {
    yield* sleep(T0_MS);
    for (const [i, s] of steps.entries()) {
      const d = yield* runStep(w, s);
      diffs.push(...d.map((x) => `steps[${i}]${s.label ? ` (${s.label})` : ""} ${x}`));
    }
  });
  const r = w.sim.run();
  if (r.verdict !== "until" && r.verdict !== "quiescent") diffs.push(`run ended ${r.verdict}: ${r.diagnosis ?? ""}`);
  return diffs;
}

const vectors = FILE === undefined ? [] : loadVectorFile(FILE).vectors.map((raw) => proberVectorSchema.parse(raw));

describe(`prober_worker.yaml through the worker process (${FILE ?? "no vector file found"})`, () => {
  it("the vector file is there and not empty", () => {
    expect(FILE).toBeDefined();
    expect(vectors.length).toBeGreaterThan(0);
  });
  for (const v of vectors) {
    const types: ProbeType[] = v.probeType === "any" ? ["liveness", "readiness", "startup"] : [v.probeType];
    for (const t of types) {
      it(`${v.name ?? "(unnamed)"}${v.probeType === "any" ? ` [${t}]` : ""}`, () => {
        expect(runVector(v, t)).toEqual([]);
      });
    }
  }
});
