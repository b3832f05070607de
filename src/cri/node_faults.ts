// Node-level faults a scenario can inflict on the runtime (no upstream file): a sandbox losing its
// network namespace, a runtime restart, a container removed behind the kubelet's back, a reboot.
// Each is a plain method the scenario's timeline calls at a virtual instant; each writes a trace.
import { EXIT_CODE_SIGKILL } from "./program.ts";
import { EXIT_CODE_UNKNOWN, REASON_OOM_KILLED, REASON_UNKNOWN, deliverSignal, exitProcess } from "./container_process.ts";
import type { RuntimeCore } from "./core.ts";
import { removeContainerRecord } from "./sandbox_ops.ts";

/**
 * The sandbox's network namespace is lost (the pause process died): the sandbox is NOTREADY with
 * no IP, and its running containers die (137). The kubelet's next computePodActions sees a
 * sandbox that is not ready and recreates the pod. False when no such sandbox.
 */
export function sandboxDies(rt: RuntimeCore, sandboxId: string): boolean {
  const rec = rt.store.sandboxes.get(sandboxId);
  if (rec === undefined) return false;
  rt.emit("SandboxDied", { pod: rec.podKey, id: sandboxId });
  for (const c of rt.store.sandboxContainers(sandboxId)) exitProcess(rt, c, EXIT_CODE_SIGKILL, "", "");
  rec.ip = "";
  rec.state = "SANDBOX_NOTREADY";
  rt.store.touch();
  return true;
}

export interface RuntimeRestart {
  /** How long the runtime's socket refuses calls. */
  downMs: number;
  /**
   * containerd keeps containers running across its own restart (their shims survive); set false
   * to model a runtime whose restart takes them down: they end EXITED with 255/Unknown, as
   * containerd reports a container whose task it cannot find, and their sandboxes NOTREADY.
   */
  containersSurvive: boolean;
}

export function restartRuntime(rt: RuntimeCore, r: RuntimeRestart): void {
  if (!Number.isInteger(r.downMs) || r.downMs < 0) throw new RangeError(`runtime restart: bad downMs ${r.downMs}`);
  rt.emit("RuntimeRestart", { downMs: r.downMs, containersSurvive: r.containersSurvive });
  rt.unavailableUntilMs = Math.max(rt.unavailableUntilMs, rt.nowMs + r.downMs);
  if (!r.containersSurvive) loseAllTasks(rt);
}

/**
 * A container removed by someone else (crictl rm, another GC): the record is gone, killed first if
 * it ran. The kubelet's next GetPodStatus no longer lists it. False when no such container.
 */
export function removeContainerBehindKubelet(rt: RuntimeCore, containerId: string): boolean {
  const c = rt.store.containers.get(containerId);
  if (c === undefined) return false;
  rt.emit("ContainerRemovedExternally", { pod: c.podKey, container: c.name, id: containerId });
  deliverSignal(rt, c, "SIGKILL");
  removeContainerRecord(rt, containerId);
  return true;
}

export interface NodeReboot {
  /** How long the runtime is unreachable while the node boots. */
  downMs: number;
  /** containerd's records live on disk and survive; false models a wiped state directory. */
  keepRecords: boolean;
}

/** Everything running dies (255/Unknown), every sandbox is NOTREADY; exited records may remain. */
export function nodeReboot(rt: RuntimeCore, r: NodeReboot): void {
  rt.emit("NodeReboot", { downMs: r.downMs, keepRecords: r.keepRecords });
  rt.unavailableUntilMs = Math.max(rt.unavailableUntilMs, rt.nowMs + r.downMs);
  loseAllTasks(rt);
  if (r.keepRecords) return;
  rt.store.containers.clear();
  rt.store.sandboxes.clear();
  rt.store.reservedNames.clear();
}

function loseAllTasks(rt: RuntimeCore): void {
  for (const c of rt.store.containers.values()) exitProcess(rt, c, EXIT_CODE_UNKNOWN, REASON_UNKNOWN, "");
  for (const s of rt.store.sandboxes.values()) {
    s.ip = "";
    s.state = "SANDBOX_NOTREADY";
  }
  rt.store.touch();
}

/**
 * The running container's process ends now, whatever its program says (a scenario's exitContainer,
 * or the OOM killer with exit 137 and reason OOMKilled). False when it is not running.
 */
export function endContainerNow(rt: RuntimeCore, containerId: string, code: number, reason: string): boolean {
  const c = rt.store.containers.get(containerId);
  if (c === undefined || c.state !== "CONTAINER_RUNNING") return false;
  rt.emit(reason === REASON_OOM_KILLED ? "OOMKill" : "ExitNow", { pod: c.podKey, container: c.name, id: c.id, exitCode: code });
  exitProcess(rt, c, code, reason, "");
  return true;
}
