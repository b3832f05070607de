// The simulated process of a container: it starts, exits on its own (run time, OOM), and answers
// SIGTERM and SIGKILL, all as kernel actions in virtual time, so PLEG's next relist finds it
// EXITED with the finishedAt of the instant it died (no upstream file; runc and the shim's part).
import type { TimedEntry } from "../sim/heap.ts";
import type { RuntimeCore } from "./core.ts";
import { EXIT_CODE_SIGKILL, naturalEnd } from "./program.ts";
import type { ContainerRecord } from "./store.ts";

export type Signal = "SIGTERM" | "SIGKILL";

/** containerd's reasons for an exited container, by how it ended. */
export const REASON_COMPLETED = "Completed";
export const REASON_ERROR = "Error";
export const REASON_OOM_KILLED = "OOMKilled";
export const REASON_START_ERROR = "StartError";
export const REASON_UNKNOWN = "Unknown";
/** containerd's exit code for a container whose start failed, and for one whose task vanished. */
export const EXIT_CODE_START_ERROR = 128;
export const EXIT_CODE_UNKNOWN = 255;

/** Runs `action` at dueMs unless the process exits first. */
export function scheduleFor(rt: RuntimeCore, c: ContainerRecord, dueMs: number, action: () => void): TimedEntry {
  const entry = rt.sim.schedule(dueMs, action);
  c.timers.push(entry);
  return entry;
}

/** The task starts: RUNNING now, and its own end (exit or OOM) is scheduled. */
export function startProcess(rt: RuntimeCore, c: ContainerRecord): void {
  if (c.state !== "CONTAINER_CREATED") throw new Error(`start of ${c.id} in state ${c.state}`);
  c.state = "CONTAINER_RUNNING";
  c.startedAtMs = rt.nowMs;
  c.exited = rt.sim.chan<void>(`exited ${c.id}`, 0);
  rt.store.touch();
  rt.emit("ContainerStarted", { pod: c.podKey, container: c.name, id: c.id, attempt: c.config.metadata.attempt });
  rt.publishContainerEvent(c, "CONTAINER_STARTED_EVENT");
  const end = naturalEnd(c.program);
  if (end === null) return;
  scheduleFor(rt, c, rt.nowMs + end.afterMs, () => exitProcess(rt, c, end.code, end.reason, ""));
}

/** A signal to the process; a second SIGTERM changes nothing, SIGKILL ends it at once. */
export function deliverSignal(rt: RuntimeCore, c: ContainerRecord, signal: Signal): void {
  if (c.state !== "CONTAINER_RUNNING") return;
  rt.emit("Signal", { pod: c.podKey, container: c.name, id: c.id, signal });
  if (signal === "SIGKILL") {
    exitProcess(rt, c, EXIT_CODE_SIGKILL, "", "");
    return;
  }
  if (c.sigtermAtMs !== null) return;
  c.sigtermAtMs = rt.nowMs;
  rt.store.touch();
  const on = c.program.onSigterm;
  if (on.kind === "ignore") return;
  scheduleFor(rt, c, rt.nowMs + on.afterMs, () => exitProcess(rt, c, on.code, "", ""));
}

/**
 * The process is gone: EXITED with its code, finishedAt now, and the reason containerd gives
 * (Completed for 0, Error otherwise, unless a specific one is given). Wakes StopContainer.
 */
export function exitProcess(rt: RuntimeCore, c: ContainerRecord, code: number, reason: string, message: string): void {
  if (c.state !== "CONTAINER_RUNNING") return;
  for (const t of c.timers) rt.sim.cancel(t);
  c.timers = [];
  c.state = "CONTAINER_EXITED";
  c.finishedAtMs = rt.nowMs;
  c.exitCode = code;
  c.reason = reason !== "" ? reason : code === 0 ? REASON_COMPLETED : REASON_ERROR;
  c.message = message;
  rt.store.touch();
  c.exited?.close();
  rt.emit("ContainerExited", { pod: c.podKey, container: c.name, id: c.id, exitCode: code, reason: c.reason });
  rt.publishContainerEvent(c, "CONTAINER_STOPPED_EVENT");
}
