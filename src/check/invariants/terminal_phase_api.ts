// Two rules about what the apiserver shows once a pod's phase is terminal (Succeeded or Failed).
//
// terminal-phase-before-containers-stopped: the API shows a terminal phase only after every
// container of the pod stopped. Consumers take a terminal phase as "the pod's resources are free":
// the scheduler binds another pod, a Job counts it done, the object may be deleted. Source:
// pkg/kubelet/status/status_manager.go, PR #108366 "Delay writing a terminal phase until the pod is
// terminated" (1.24; cherry-picks #108723, #108749): "the Kubelet now waits to report the phase of
// a pod as terminal in the API until all running containers are guaranteed to have stopped";
// issues #88613, #106884; race R11. From the runtime's records (ContainerStarted/ContainerExited),
// attributed to the API UID the pod key had when each container started.
//
// ready-with-terminal-phase: a pod whose phase is terminal is not Ready. Source:
// pkg/kubelet/status/generate.go and kubelet_pods.go, PR #110256 "Mark ready condition as false
// explicitly for terminal pods" (1.25; cherry-picks #110479, #110480, #110481); issue #108594 (pods
// left Ready=True while evicted); race R12. Read from the API object alone.
import type { StoredEvent } from "../../apiserver/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { TraceRecord } from "../../sim/index.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";
import { CALL_CONTAINER_READS, RuntimeContainers } from "./containers.ts";

const TERMINAL_BEFORE_STOPPED = "terminal-phase-before-containers-stopped";
const READY_TERMINAL = "ready-with-terminal-phase";

/** ready-with-terminal-phase reads API objects only. */
const NO_RECORDS: RecordReads = {};

const isTerminal = (pod: Pod) => pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
const keyOf = (pod: Pod) => `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`;

class TerminalBeforeStopped implements InvariantMonitor {
  readonly id = TERMINAL_BEFORE_STOPPED;
  readonly reads: RecordReads = CALL_CONTAINER_READS;
  private readonly containers = new RuntimeContainers("call");
  private readonly reported = new Set<string>();

  observe(rec: TraceRecord): Violation | null {
    this.containers.observe(rec);
    return null;
  }

  observeApi(e: StoredEvent, nowMs: number): Violation | null {
    const pod = e.object;
    if (e.type === "DELETED" || !isTerminal(pod)) return null;
    const key = keyOf(pod);
    const uid = pod.metadata.uid ?? "";
    if (this.reported.has(uid)) return null;
    const running = this.containers.runningOf(key, uid);
    if (running.length === 0) return null;
    this.reported.add(uid);
    return {
      invariant: TERMINAL_BEFORE_STOPPED,
      t: nowMs,
      pod: key,
      message: `the apiserver shows phase ${pod.status!.phase} while container(s) ${running.map((c) => `${c.container} (${c.id})`).join(", ")} still run`,
    };
  }
}

class ReadyTerminal implements InvariantMonitor {
  readonly id = READY_TERMINAL;
  readonly reads: RecordReads = NO_RECORDS;
  private readonly reported = new Set<string>();

  observe(): Violation | null {
    return null;
  }

  observeApi(e: StoredEvent, nowMs: number): Violation | null {
    const pod = e.object;
    if (e.type === "DELETED" || !isTerminal(pod)) return null;
    if (pod.status?.conditions?.find((c) => c.type === "Ready")?.status !== "True") return null;
    const uid = pod.metadata.uid ?? "";
    if (this.reported.has(uid)) return null;
    this.reported.add(uid);
    return {
      invariant: READY_TERMINAL,
      t: nowMs,
      pod: keyOf(pod),
      message: `the apiserver shows phase ${pod.status!.phase}${pod.status?.reason === undefined ? "" : ` (${pod.status.reason})`} with Ready=True (the PodView at ${nowMs}ms)`,
    };
  }
}

export const terminalPhaseBeforeContainersStopped: InvariantInfo = {
  id: TERMINAL_BEFORE_STOPPED,
  statement: "The apiserver shows a terminal phase (Succeeded, Failed) only after every container of the pod stopped.",
  source: "pkg/kubelet/status/status_manager.go (PR #108366; issues #88613, #106884); race R11",
  make: () => new TerminalBeforeStopped(),
};

export const readyWithTerminalPhase: InvariantInfo = {
  id: READY_TERMINAL,
  statement: "A pod whose phase is terminal (Succeeded, Failed) is not Ready.",
  source: "pkg/kubelet/status/generate.go, kubelet_pods.go (PR #110256; issue #108594); race R12",
  make: () => new ReadyTerminal(),
};
