// Turns the prober vectors' prose descriptions of a pod status into a worker input.
//
// The vectors say things like "container running, started=false; pod has deletionTimestamp" or
// "same container, StartedAt 100s ago". A Scene holds the test fixture's status (getTestPod,
// getTestRunningStatusWithStarted) and each description edits it by keywords. A description that
// changes nothing is reported by the caller, so an unread vector fails instead of passing by luck.
import type { ProbeType, WorkerContainerStatus, WorkerPodStatus, DoProbeInputs } from "../kubelet/prober/worker_core.ts";

/** common_test.go fixture values. */
export const TEST_CONTAINER_NAME = "cOnTaInEr_NaMe";
export const TEST_CONTAINER_ID = "test://cOnTaInEr_Id";
/** A fixed virtual "now": the Go tests run within one instant. */
export const SCENE_NOW_MS = 1_000_000_000;

export interface Scene {
  hasStatus: boolean;
  phase: WorkerPodStatus["phase"];
  /** The container the worker probes (the pod spec's container). */
  workerContainerName: string;
  /** The name on the status entry ("otherContainer" in the no-container-status case). */
  statusContainerName: string;
  containerID: string;
  state: "running" | "waiting" | "terminated";
  exitCode: number;
  startedAtMs: number;
  started: boolean | null;
  podDeleted: boolean;
  /** The status sits in initContainerStatuses (a sidecar-era init container). */
  inInitStatuses: boolean;
  restartableInit: boolean;
}

/** getTestRunningStatusWithStarted(probeType != startup): running, started unless a startup probe. */
export function defaultScene(probeType: ProbeType): Scene {
  return {
    hasStatus: true,
    phase: "Running",
    workerContainerName: TEST_CONTAINER_NAME,
    statusContainerName: TEST_CONTAINER_NAME,
    containerID: TEST_CONTAINER_ID,
    state: "running",
    exitCode: 0,
    startedAtMs: SCENE_NOW_MS,
    started: probeType !== "startup",
    podDeleted: false,
    inInitStatuses: false,
    restartableInit: false,
  };
}

/** Applies one prose description to a scene; returns a new scene. */
export function applyStatusText(base: Scene, text: string): Scene {
  const s: Scene = { ...base };
  const t = text.toLowerCase();
  if (/^\s*none\b|no status|not known to the status manager/.test(t)) s.hasStatus = false;
  const phase = /phase (pending|running|succeeded|failed|unknown)/.exec(t);
  if (phase) s.phase = (phase[1]![0]!.toUpperCase() + phase[1]!.slice(1)) as Scene["phase"];
  if (/othercontainer/.test(t)) s.statusContainerName = "otherContainer";
  applyContainerState(s, t);
  const exit = /exit ?code[ =:]*(-?\d+)/.exec(t);
  if (exit) s.exitCode = Number(exit[1]);
  const started = /started=(true|false)/.exec(t);
  if (started) s.started = started[1] === "true";
  if (/setcontainerstartup\(true\)/.test(t)) s.started = true;
  if (/setcontainerstartup\(false\)/.test(t)) s.started = false;
  if (/deletiontimestamp|deletion requested|pod deleted/.test(t)) s.podDeleted = true;
  const ago = /(\d+)\s*s(?:econds?)? ago/.exec(t);
  if (ago) s.startedAtMs = SCENE_NOW_MS - Number(ago[1]) * 1000;
  if (/just started/.test(t)) s.startedAtMs = SCENE_NOW_MS;
  const id = /\b([a-z][\w-]*:\/\/[\w.-]+)/i.exec(text);
  if (id) s.containerID = id[1]!;
  else if (/new container ?id|new container\b/.test(t)) s.containerID = nextContainerID(s.containerID);
  if (/initcontainerstatuses/.test(t)) s.inInitStatuses = true;
  if (/(?<!not an? )restartable init|sidecar/.test(t)) {
    s.inInitStatuses = true;
    s.restartableInit = true;
  }
  return s;
}

function applyContainerState(s: Scene, t: string): void {
  if (/neither running nor terminated|waiting|running=nil\)?$|state\.running=nil\)$/.test(t) && !/terminated set/.test(t)) {
    s.state = "waiting";
  } else if (/terminated|exited/.test(t)) {
    s.state = "terminated";
  } else if (/\brunning\b/.test(t.replace(/phase running/g, ""))) {
    s.state = "running";
  }
}

function nextContainerID(current: string): string {
  return current === "test://newCont_ID" ? "test://newCont_ID2" : "test://newCont_ID";
}

/** The scene as doProbe's inputs: the status manager's pod status and the worker's pod. */
export function sceneToInputs(s: Scene): DoProbeInputs {
  if (!s.hasStatus) return { podStatus: undefined, podDeleted: s.podDeleted, nowMs: SCENE_NOW_MS };
  const c: WorkerContainerStatus = { name: s.statusContainerName, containerID: s.containerID, state: {}, started: s.started };
  if (s.state === "running") c.state.running = { startedAtMs: s.startedAtMs };
  if (s.state === "terminated") c.state.terminated = { exitCode: s.exitCode };
  if (s.state === "waiting") c.state.waiting = {};
  const podStatus: WorkerPodStatus = {
    phase: s.phase,
    containerStatuses: s.inInitStatuses ? [] : [c],
    initContainerStatuses: s.inInitStatuses ? [c] : [],
  };
  return { podStatus, podDeleted: s.podDeleted, nowMs: SCENE_NOW_MS };
}
