// One pod's whole life through every component, end to end through simulate(): create → sandbox →
// pull → start → Running and Ready → graceful delete → preStop → stop → terminal state → the API
// object deleted by the status manager. Under both pod-worker eras: 1.30 and 1.21.
import { describe, expect, it } from "vitest";
import { all, first, inOrder, num, runScenario, type Step } from "../fixtures/node/trace.ts";

const POD = "default/web";

/** Latencies the scenario sets or the runtime's defaults (docs/scenario-reference.md). */
const SANDBOX_MS = 500;
const PULL_MS = 2000;
const PRESTOP_MS = 3000;
const SIGTERM_EXIT_MS = 2000;
const DELETE_AT_MS = 15_000;

function scenario(version: string): string {
  return `
name: lifecycle-${version.replace(".", "-")}
until: 2m
kubelet: { version: "${version}" }
runtime:
  images:
    "nginx:1.25": { pullTime: 2s }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web }
      spec:
        terminationGracePeriodSeconds: 30
        containers:
          - name: app
            image: nginx:1.25
            readinessProbe:
              httpGet: { path: /ready, port: 80 }
              periodSeconds: 2
            lifecycle:
              preStop:
                exec: { command: [sh, -c, "sleep 3"] }
    behaviour:
      app:
        preStop: { duration: 3s }
        onSigterm: { exitAfter: 2s, exitCode: 0 }
timeline:
  - { at: 0s, create: web }
  - { at: 15s, delete: web }
expect:
  - eventually: { pod: web, phase: Running, conditions: { Ready: "True" }, container: { name: app, ready: true } }
    by: 10s
  - eventually: { pod: web, gone: true }
    by: 1m
  - never: start-after-termination-requested
`;
}

/** From creation to Running and Ready: the same key steps in both eras. */
const startup: Step[] = [
  { component: "scenario", kind: "Step", fields: { step: "create", pod: POD } },
  { component: "apiserver", kind: "Create", fields: { actor: "user", pod: POD, result: "ok" } },
  { component: "config", kind: "ADD", fields: { pod: POD, source: "api" } },
  { component: "kubelet", kind: "SyncLoopADD" },
  { component: "podworker", kind: "UpdatePod", fields: { pod: POD, updateType: "create" } },
  { component: "kubelet", kind: "SyncPod", fields: { pod: POD, updateType: "create" } },
  { component: "status", kind: "SetPodStatus", fields: { pod: POD, phase: "Pending" } },
  { component: "kuberuntime", kind: "computePodActions", where: (r) => String(r.actions).includes("CreateSandbox: true") },
  { component: "runtime", kind: "RunPodSandbox", fields: { pod: POD, result: "ok" } },
  { component: "kuberuntime", kind: "CreatePodSandbox", fields: { pod: POD } },
  { component: "runtime", kind: "PullImage", fields: { pod: POD, image: "nginx:1.25", result: "ok" } },
  { component: "runtime", kind: "CreateContainer", fields: { pod: POD, container: "app", result: "ok" } },
  { component: "runtime", kind: "StartContainer", fields: { pod: POD, container: "app", result: "ok" } },
  { component: "kuberuntime", kind: "StartContainer", fields: { pod: POD, container: "app" } },
  { component: "cache", kind: "Set", fields: { pod: POD } },
  { component: "pleg", kind: "ContainerStarted", where: (r) => String(r.containerID).startsWith("c-") },
  { component: "kubelet", kind: "SyncLoopPLEG", fields: { event: "ContainerStarted" } },
  { component: "prober", kind: "ResultSet", fields: { probeType: "readiness", result: "Success" } },
  { component: "status", kind: "SetContainerReadiness", fields: { pod: POD } },
  { component: "apiserver", kind: "PodView", fields: { pod: POD, phase: "Running", status: "Running", ready: "1/1" } },
];

/** From the user's delete to the last container's stop: the same key steps in both eras. */
const termination: Step[] = [
  { component: "scenario", kind: "Step", fields: { step: "delete", pod: POD } },
  { component: "apiserver", kind: "Delete", fields: { actor: "user", pod: POD, deleted: false, deletionGracePeriodSeconds: 30 } },
  { component: "config", kind: "DELETE", fields: { pod: POD } },
  { component: "kubelet", kind: "SyncLoopDELETE" },
  { component: "kubelet", kind: "Event", fields: { pod: POD, reason: "Killing", message: "Stopping container app" } },
  { component: "runtime", kind: "ExecSync", fields: { pod: POD, hook: "preStop", result: "ok" } },
  { component: "kuberuntime", kind: "executePreStopHook", fields: { pod: POD, completed: true } },
  { component: "runtime", kind: "Signal", fields: { pod: POD, signal: "SIGTERM" } },
  { component: "runtime", kind: "ContainerExited", fields: { pod: POD, container: "app", exitCode: 0 } },
  { component: "runtime", kind: "StopContainer", fields: { pod: POD, result: "ok" } },
  { component: "kuberuntime", kind: "KillContainer", fields: { pod: POD, container: "app" } },
  { component: "runtime", kind: "StopPodSandbox", fields: { pod: POD, result: "ok" } },
  { component: "kuberuntime", kind: "KillPod", fields: { pod: POD }, where: (r) => (r.containers as string[]).includes("app") },
];

/** The status manager's final delete, with grace 0 and the UID precondition, and what follows it. */
const finalDelete: Step[] = [
  { component: "apiserver", kind: "Delete", fields: { actor: "kubelet", pod: POD, gracePeriodSeconds: 0, deleted: true, result: "ok" } },
  { component: "status", kind: "DeletePod", fields: { pod: POD, gracePeriodSeconds: 0, result: "deleted" } },
  // The watch's DELETED event is recorded once delivered, after the config's REMOVE it caused.
  { component: "config", kind: "REMOVE", fields: { pod: POD } },
  { component: "kubelet", kind: "SyncLoopREMOVE" },
];

/**
 * Era-specific steps between the delete and the end. From 1.22 the pod worker owns termination
 * (TerminationRequested → SyncTerminatingPod → SyncTerminatedPod) and, from 1.27, the status
 * manager writes a terminal phase (Succeeded: every container exited 0) before it may delete the
 * object. In 1.21 the pod worker runs syncPod with the update, the killing happens inside it, and
 * the phase of a restartPolicy Always pod stays Running (getPhase: "All containers are in the
 * process of restarting"); the status manager deletes once PodResourcesAreReclaimed.
 */
const eraSteps: Record<string, { terminating: Step[]; terminal: Step[]; terminalPhase: string }> = {
  "1.30": {
    terminating: [
      { component: "podworker", kind: "TerminationRequested", fields: { pod: POD, why: "deleted" } },
      { component: "kubelet", kind: "SyncTerminatingPod", fields: { pod: POD, gracePeriod: 30 } },
    ],
    terminal: [
      { component: "status", kind: "SetPodStatus", fields: { pod: POD, phase: "Succeeded" } },
      { component: "podworker", kind: "Terminated", fields: { pod: POD } },
      { component: "apiserver", kind: "PatchStatus", fields: { actor: "kubelet", pod: POD, phase: "Succeeded", result: "ok" } },
      { component: "kubelet", kind: "SyncTerminatedPod", fields: { pod: POD } },
      { component: "status", kind: "TerminatePod", fields: { pod: POD, phase: "Succeeded" } },
      { component: "podworker", kind: "Finished", fields: { pod: POD } },
    ],
    terminalPhase: "Succeeded",
  },
  "1.21": {
    terminating: [
      { component: "podworker", kind: "UpdatePod", fields: { pod: POD, updateType: "update" } },
      { component: "kubelet", kind: "SyncPod", fields: { pod: POD, updateType: "update" } },
    ],
    terminal: [
      { component: "pleg", kind: "ContainerDied", fields: { pod: POD } },
      { component: "status", kind: "TerminatePod", fields: { pod: POD, phase: "Running" } },
      { component: "apiserver", kind: "PatchStatus", fields: { actor: "kubelet", pod: POD, result: "ok" } },
      { component: "kubelet", kind: "PodCgroupRemoved" },
    ],
    terminalPhase: "Running",
  },
};

const COMPONENTS = ["apiserver", "config", "kubelet", "podworker", "pleg", "cache", "prober", "status", "kuberuntime", "runtime"];

describe.each(["1.30", "1.21"])("a pod's whole life, kubelet %s", (version) => {
  const era = eraSteps[version]!;
  // One run per era, shared by the assertions below (a run is deterministic).
  const run = runScenario(scenario(version), `lifecycle-${version}.yaml`);
  const { records } = run;

  it("ends normally, with the scenario's expectations met and no invariant violated", () => {
    expect(run.result.run.verdict).toBe("until");
    expect(run.result.checks.failed).toEqual([]);
    expect(run.result.checks.violations).toEqual([]);
    expect(run.result.ok).toBe(true);
  });

  it("passes through every component", () => {
    const seen = new Set(records.map((r) => r.component));
    for (const c of COMPONENTS) expect(seen, `component ${c}`).toContain(c);
    // The syncLoop is the kubelet component's SyncLoop* records.
    expect(records.some((r) => r.component === "kubelet" && r.kind.startsWith("SyncLoop"))).toBe(true);
  });

  it("takes the key steps in order, from create to the API object's deletion", () => {
    const steps = [...startup, ...termination.slice(0, 4), ...era.terminating, ...termination.slice(4), ...era.terminal, ...finalDelete];
    const found = inOrder(records, steps);
    expect(found).toHaveLength(steps.length);
    const remove = found[found.length - 2]!;
    const deleted = first(records, { component: "apiserver", kind: "WatchEvent", fields: { type: "DELETED", pod: POD } }).rec;
    expect(deleted.t).toBe(remove.t);
    // The records' virtual times never go backwards along the trace.
    for (let i = 1; i < records.length; i++) expect(records[i]!.t).toBeGreaterThanOrEqual(records[i - 1]!.t);
  });

  it("starts in plausible times: sandbox, pull and start as configured, Ready within one probe period and a relist", () => {
    const sandbox = first(records, { component: "runtime", kind: "RunPodSandbox", fields: { pod: POD } }).rec;
    const pull = first(records, { component: "runtime", kind: "PullImage", fields: { pod: POD } }).rec;
    const started = first(records, { component: "runtime", kind: "StartContainer", fields: { pod: POD } }).rec;
    const created = first(records, { component: "apiserver", kind: "Create", fields: { pod: POD } }).rec;
    const ready = first(records, { component: "apiserver", kind: "PodView", fields: { pod: POD, ready: "1/1" } }).rec;
    expect(num(sandbox, "tookMs")).toBe(SANDBOX_MS);
    expect(num(pull, "tookMs")).toBe(PULL_MS);
    // Pull starts after the sandbox is up; the container starts after the pull (create + start 200 ms).
    expect(pull.t - PULL_MS).toBeGreaterThanOrEqual(sandbox.t);
    expect(started.t - pull.t).toBe(200);
    // Kubelet-side latencies before the sandbox call (list/watch, status, cgroup, volumes) stay small.
    expect(started.t - created.t).toBeLessThan(SANDBOX_MS + PULL_MS + 200 + 500);
    // The first readiness probe runs within one period (2 s) of the start; the PLEG relist (1 s)
    // and the status manager's patch (a few ms) come on top.
    expect(ready.t).toBeGreaterThan(started.t);
    expect(ready.t - started.t).toBeLessThanOrEqual(2000 + 1000 + 100);
  });

  it("runs preStop before StopContainer, stops in the grace period, and deletes the object only after the stop", () => {
    const del = first(records, { component: "apiserver", kind: "Delete", fields: { actor: "user", pod: POD } }).rec;
    const killing = first(records, { component: "kubelet", kind: "Event", fields: { pod: POD, reason: "Killing" } }).rec;
    const hook = first(records, { component: "runtime", kind: "ExecSync", fields: { pod: POD, hook: "preStop" } }).rec;
    const sigterm = first(records, { component: "runtime", kind: "Signal", fields: { pod: POD, signal: "SIGTERM" } }).rec;
    const exited = first(records, { component: "runtime", kind: "ContainerExited", fields: { pod: POD } }).rec;
    const stop = first(records, { component: "runtime", kind: "StopContainer", fields: { pod: POD } }).rec;
    const stopSandbox = first(records, { component: "runtime", kind: "StopPodSandbox", fields: { pod: POD } }).rec;
    const finalDel = first(records, { component: "apiserver", kind: "Delete", fields: { actor: "kubelet", pod: POD } }).rec;

    expect(del.t - DELETE_AT_MS).toBeLessThan(50); // one apiserver round trip
    // The kubelet hears of the delete through its watch and starts killing within a second.
    expect(killing.t).toBeGreaterThanOrEqual(del.t);
    expect(killing.t - del.t).toBeLessThan(1000);
    // ExecSync is recorded when it returns: it began right after Killing and took the hook's 3 s.
    const hookBeganMs = hook.t - num(hook, "tookMs");
    expect(hookBeganMs).toBeGreaterThanOrEqual(killing.t);
    expect(num(hook, "tookMs")).toBeGreaterThanOrEqual(PRESTOP_MS);
    // StopContainer (recorded on return) was called only after the preStop hook finished.
    const stopBeganMs = stop.t - num(stop, "tookMs");
    expect(stopBeganMs).toBeGreaterThanOrEqual(hook.t);
    expect(sigterm.t).toBeGreaterThanOrEqual(hook.t);
    // The app exits 2 s after SIGTERM, well inside the grace period that counts from the delete;
    // StopContainer's timeout is what remains of the 30 s after the hook.
    expect(exited.t - sigterm.t).toBe(SIGTERM_EXIT_MS);
    expect(exited.t - del.t).toBeLessThan(30_000);
    // killContainer: gracePeriod -= executePreStopHook's elapsed time in whole seconds (truncated).
    expect(num(stop, "timeoutSeconds")).toBe(30 - Math.floor(num(hook, "tookMs") / 1000));
    // The status manager deletes with grace 0 only after the container stopped and the sandbox is
    // down; at the latest one status batch period (10 s) plus a housekeeping pass after that.
    expect(finalDel.t).toBeGreaterThan(exited.t);
    expect(finalDel.t).toBeGreaterThan(stopSandbox.t);
    expect(finalDel.t - stopSandbox.t).toBeLessThan(10_000 + 2_000 + 500);
  });

  it(`leaves the API object in phase ${era.terminalPhase} with the container terminated until it is deleted`, () => {
    const views = all(records, { component: "apiserver", kind: "PodView", fields: { pod: POD } });
    const last = views.at(-1)!;
    expect(last.deleted).toBe(true);
    expect(last.phase).toBe(era.terminalPhase);
    expect(last.ready).toBe("0/1");
    // Nothing writes the pod after its deletion, and the container never ran again.
    expect(views.filter((v) => v.deleted === true)).toHaveLength(1);
    expect(all(records, { component: "runtime", kind: "StartContainer", fields: { pod: POD } })).toHaveLength(1);
    expect(all(records, { component: "runtime", kind: "RunPodSandbox", fields: { pod: POD } })).toHaveLength(1);
  });

  it("gives the same trace for the same seed", () => {
    const again = runScenario(scenario(version), `lifecycle-${version}.yaml`);
    expect(again.result.run.traceHash).toBe(run.result.run.traceHash);
  });
});

