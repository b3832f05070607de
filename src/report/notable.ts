// Records that are noise as a rule but news in context, so `normal` shows them after all:
//
// - a relist that found no events although the runtime changed a container or sandbox since the
//   previous relist: the PLEG missed something (race R08 is exactly this line);
// - a liveness or startup probe run once the kubelet knows the pod is being deleted: those probes
//   must stop (race R16), so each run is worth a line;
// - a pod worker that waited 10 s or more for a fresh pod status (GetNewerThan): the cache's global
//   timestamp stood still, a stalled relist (race R10);
// - a liveness or readiness probe run of a container whose startup probe has not succeeded yet:
//   the startup probe holds those off (race R17).
//
// Pure: the records in, the positions to show out.
import { num, type TraceRecord } from "./records.ts";

/** Runtime records that change what a relist would see. */
const RUNTIME_CHANGES = new Set([
  "ContainerStarted", "ContainerExited", "ContainerStartFailed", "ContainerRemovedExternally", "SandboxDied",
  "OOMKill", "ExitNow", "RemoveContainer", "RunPodSandbox", "StopPodSandbox", "RemovePodSandbox", "NodeReboot",
  "RuntimeRestart",
]);

const GATED_PROBES = new Set(["liveness", "startup"]);
/** A wait for a fresh status this long is news: ten relist periods. */
const LONG_WAIT_MS = 10_000;

export function findNotable(records: readonly TraceRecord[]): Set<number> {
  const out = new Set<number>();
  let changed = false;
  const deleting = new Set<string>();
  /** "pod\0container" of the containers with a startup probe worker, and the container IDs it let start. */
  const startupGated = new Set<string>();
  const started = new Set<string>();
  records.forEach((r, i) => {
    const pod = typeof r["pod"] === "string" ? r["pod"] : undefined;
    if (r.component === "cache" && r.kind === "GetNewerThan" && (num(r, "waitedMs") ?? 0) >= LONG_WAIT_MS) out.add(i);
    else if (r.component === "runtime" && RUNTIME_CHANGES.has(r.kind)) changed = true;
    else if (r.component === "pleg" && r.kind === "relist") {
      if (changed && r["events"] === 0) out.add(i);
      changed = false;
    } else if (r.component === "kubelet" && (r.kind === "SyncLoopDELETE" || r.kind === "SyncLoopREMOVE") && Array.isArray(r["pods"])) {
      for (const p of r["pods"]) if (typeof p === "string") deleting.add(p);
    } else if (pod !== undefined && r.component === "podworker" && r.kind === "TerminationRequested") {
      deleting.add(pod);
    } else if (pod !== undefined && r.component === "apiserver" && r.kind === "Create") {
      deleting.delete(pod);
    } else if (pod !== undefined && r.component === "prober" && r.kind === "ProbeRun") {
      if (deleting.has(pod) && GATED_PROBES.has(String(r["probeType"]))) out.add(i);
      if (startupGated.has(`${pod}\u0000${String(r["container"])}`) && !started.has(String(r["containerID"])) && r["probeType"] !== "startup") out.add(i);
    }
    if (r.component === "prober" && r.kind === "WorkerStart" && r["probeType"] === "startup") startupGated.add(`${String(r["pod"])}\u0000${String(r["container"])}`);
    if (r.component === "prober" && (r.kind === "ResultSet" || r.kind === "ProbeResult") && r["probeType"] === "startup" && r["result"] === "Success") {
      started.add(String(r["containerID"]));
    }
  });
  return out;
}
