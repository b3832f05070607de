// Runs prober_worker.yaml vectors (worker_test.go TestDoProbe and friends) through the doProbe core.
//
// The vectors describe pod statuses in prose ("container running, started=false; pod has
// deletionTimestamp"). statusScene.ts turns that prose into a status; this file drives the worker.
import { z } from "zod";
import {
  doProbe,
  newWorkerState,
  workerExitOps,
  type ProbeOutcome,
  type ProbeType,
  type Result,
  type ResultOp,
  type WorkerSpec,
  type WorkerState,
} from "../kubelet/prober/worker_core.ts";
import { show } from "./diff.ts";
import { VectorError } from "./outcome.ts";
import { applyStatusText, defaultScene, sceneToInputs, TEST_CONTAINER_ID, type Scene } from "./status_scene.ts";

const execResult = z.string();

const stepSchema = z.looseObject({
  status: z.string().optional(),
  exec: execResult.optional(),
  action: z.string().optional(),
  check: z.string().optional(),
  label: z.string().optional(),
  expectKeepGoing: z.boolean().optional(),
  expectResult: z.string().nullable().optional(),
  expectResultRun: z.number().int().optional(),
  expectOnHoldBefore: z.boolean().optional(),
  expectOnHold: z.boolean().optional(),
  expectResultPresent: z.boolean().optional(),
  expectResultSet: z.boolean().optional(),
  expectWorkerRegistered: z.boolean().optional(),
});

export const proberVectorSchema = z.looseObject({
  name: z.string().optional(),
  probeType: z.enum(["liveness", "readiness", "startup", "any"]),
  probe: z
    .looseObject({
      initialDelaySeconds: z.number().int().optional(),
      successThreshold: z.number().int().optional(),
      failureThreshold: z.number().int().optional(),
    })
    .optional(),
  podRestartPolicy: z.enum(["Always", "OnFailure", "Never", ""]).optional(),
  status: z.string().optional(),
  execResult: execResult.optional(),
  expect: z
    .looseObject({ keepGoing: z.boolean().optional(), resultSet: z.boolean().optional(), result: z.string().nullable().optional() })
    .optional(),
  steps: z.array(stepSchema).optional(),
});

export type ProberVector = z.infer<typeof proberVectorSchema>;
type Step = z.infer<typeof stepSchema>;

/** The fake exec prober's result as prober.probe turns it into results.Result (Warning is Success, Unknown is Failure). */
export function outcomeOf(exec: string | undefined): ProbeOutcome | string {
  switch ((exec ?? "Success").toLowerCase()) {
    case "success":
    case "warning":
      return "Success";
    case "failure":
    case "unknown":
      return "Failure";
    case "error":
      return "error";
    default:
      return `unknown exec result ${JSON.stringify(exec)}`;
  }
}

/** One worker plus the results manager it writes to, as the Go test's manager holds them. */
class Harness {
  state: WorkerState = newWorkerState();
  readonly results = new Map<string, Result>();
  registered = true;
  running = true;
  constructor(
    readonly spec: WorkerSpec,
    public scene: Scene,
  ) {}

  probeOnce(exec: string | undefined): { keepGoing: boolean } {
    const outcome = outcomeOf(exec);
    if (outcome !== "Success" && outcome !== "Failure" && outcome !== "error") throw new VectorError(outcome);
    const out = doProbe(this.spec, this.state, sceneToInputs(this.scene), outcome);
    this.state = out.newState;
    this.apply(out.resultOps);
    return { keepGoing: out.keepGoing };
  }

  /** worker.run's deferred cleanup: drop the result and unregister from the probe manager. */
  exit(): void {
    if (!this.running) return;
    this.apply(workerExitOps(this.state));
    this.running = false;
    this.registered = false;
  }

  /** resultsManager.Get for the worker's container (the test's fixed ID before the first probe). */
  cached(): Result | undefined {
    return this.results.get(this.state.containerID || TEST_CONTAINER_ID);
  }

  private apply(ops: ResultOp[]): void {
    for (const op of ops) {
      if (op.op === "set") this.results.set(op.containerID, op.result);
      else this.results.delete(op.containerID);
    }
  }
}

/** Runs one vector (for probeType "any", once per probe type); returns the diff lines. */
export function runProberVector(v: ProberVector): string[] {
  const types: ProbeType[] = v.probeType === "any" ? ["liveness", "readiness", "startup"] : [v.probeType];
  return types.flatMap((t) => {
    const prefix = v.probeType === "any" ? `[${t}] ` : "";
    return (v.steps ? runSteps(v, t) : runSingle(v, t)).map((d) => prefix + d);
  });
}

function workerSpec(v: ProberVector, probeType: ProbeType, scene: Scene): WorkerSpec {
  // setTestProbe: thresholds left 0 by the test default to 1 (not the API's 3).
  return {
    probeType,
    containerName: scene.workerContainerName,
    isRestartableInitContainer: scene.restartableInit,
    podRestartPolicy: v.podRestartPolicy ?? "Never",
    initialDelaySeconds: v.probe?.initialDelaySeconds ?? 0,
    successThreshold: v.probe?.successThreshold || 1,
    failureThreshold: v.probe?.failureThreshold || 1,
  };
}

function runSingle(v: ProberVector, probeType: ProbeType): string[] {
  const scene = applyStatusText(defaultScene(probeType), v.status ?? "");
  const h = new Harness(workerSpec(v, probeType, scene), scene);
  const got = h.probeOnce(v.execResult);
  const expect = v.expect ?? {};
  const diffs: string[] = [];
  const cached = h.results.get(TEST_CONTAINER_ID);
  if (expect.keepGoing !== undefined && got.keepGoing !== expect.keepGoing) {
    diffs.push(`keepGoing: expected ${expect.keepGoing}, got ${got.keepGoing}`);
  }
  if (expect.resultSet !== undefined && (cached !== undefined) !== expect.resultSet) {
    diffs.push(`resultSet: expected ${expect.resultSet}, got ${cached !== undefined}`);
  }
  if (expect.result !== undefined && (cached ?? null) !== expect.result) {
    diffs.push(`result: expected ${show(expect.result)}, got ${show(cached ?? null)}`);
  }
  return diffs;
}

function runSteps(v: ProberVector, probeType: ProbeType): string[] {
  const scene = applyStatusText(defaultScene(probeType), v.status ?? "");
  const h = new Harness(workerSpec(v, probeType, scene), scene);
  return (v.steps ?? []).flatMap((s, i) => {
    const where = `steps[${i}]${s.label ? ` (${s.label})` : ""}`;
    return runStep(h, s).map((d) => `${where} ${d}`);
  });
}

function runStep(h: Harness, s: Step): string[] {
  if (s.status !== undefined) h.scene = applyStatusText(h.scene, s.status);
  const diffs: string[] = [];
  const check = <T>(field: string, expected: T | undefined, actual: T): void => {
    if (expected !== undefined && expected !== actual) diffs.push(`${field}: expected ${show(expected)}, got ${show(actual)}`);
  };
  if (s.action !== undefined) {
    const err = runAction(h, s.action);
    if (err !== undefined) return [err];
  }
  // A step probes unless it only acts or only checks; an action followed by a probe outcome does both.
  const probes = s.check === undefined && (s.action === undefined || s.exec !== undefined || s.expectKeepGoing !== undefined);
  if (probes) {
    check("onHold before probing", s.expectOnHoldBefore, h.state.onHold);
    // The Go tests call doProbe directly here, so a false keepGoing does not end the worker.
    const got = h.probeOnce(s.exec);
    check("keepGoing", s.expectKeepGoing, got.keepGoing);
  }
  const cached = h.cached();
  if (s.expectResult !== undefined) check("result", s.expectResult, cached ?? null);
  check("resultRun", s.expectResultRun, h.state.resultRun);
  check("onHold", s.expectOnHold, h.state.onHold);
  check("resultPresent", s.expectResultPresent ?? s.expectResultSet, cached !== undefined);
  check("workerRegistered", s.expectWorkerRegistered, h.registered);
  return diffs;
}

/** Steps that drive the worker instead of probing once; unknown prose is reported, not ignored. */
function runAction(h: Harness, action: string): string | undefined {
  const until = /until cached result\s*==\s*(\w+)/i.exec(action);
  if (until !== null) {
    // worker.run: probe on every tick until the condition holds (bounded, like wait.Poll's timeout).
    for (let tick = 0; tick < 1000 && h.cached() !== until[1]; tick++) {
      const got = h.probeOnce(undefined);
      if (!got.keepGoing) return `worker stopped before the cached result became ${until[1]}`;
    }
    return h.cached() === until[1] ? undefined : `cached result never became ${until[1]}`;
  }
  if (/stop\(\)/.test(action)) {
    // stop() only signals the stop channel (idempotently); the loop then exits and cleans up.
    h.exit();
    return undefined;
  }
  const set = /results?(?:Manager)?\.Set\([^)]*\b(Success|Failure|Unknown)\b/i.exec(action);
  if (set !== null) {
    h.results.set(h.state.containerID || TEST_CONTAINER_ID, set[1] as Result);
    return undefined;
  }
  const before = JSON.stringify(h.scene);
  h.scene = applyStatusText(h.scene, action);
  if (JSON.stringify(h.scene) === before) throw new VectorError(`cannot interpret action ${JSON.stringify(action)}`);
  return undefined;
}
