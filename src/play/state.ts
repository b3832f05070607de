// The shared state a kubelet race is about, read from the models where a play-mode run pauses: the
// pod as the API holds it, each pod worker's slots, the PLEG's pod records and the pod status
// cache's timestamps; and where the level's race turns on them, the probe workers' results (a
// scenario with probes) and the runtime's fault windows (a scenario with scripted CRI faults). A
// small view, not a dump: rows of text, so that "the same state" is a comparison of strings (an
// undo must show exactly what was shown before).
import type { SimulationHandle } from "../simulate.ts";
import type { Pod } from "../k8s/pod.ts";
import type { RuntimePod } from "../kubelet/kuberuntime/running_pod.ts";
import type { PodWorkers } from "../kubelet/pod_workers.ts";
import type { LegacyPodWorkers } from "../kubelet/pod_workers_legacy.ts";
import type { UpdatePodOptions } from "../kubelet/pod_sync_status.ts";
import { ProberManager } from "../kubelet/prober/prober_manager.ts";
import type { CriFault } from "../cri/config.ts";
import type { PlayLevel } from "./level.ts";

export interface StateSection {
  title: string;
  /** [what, its value], in a stable order. */
  rows: [string, string][];
}

export function readSharedState(handle: SimulationHandle, level: PlayLevel): StateSection[] {
  const { node } = handle;
  const pods = Object.keys(node.api.store.pods).sort().map((k) => node.api.store.pods[k]!);
  const names = new Map(pods.map((p) => [p.metadata.uid ?? "", `${p.metadata.namespace ?? "default"}/${p.metadata.name}`]));
  const name = (uid: string) => names.get(uid) ?? `uid ${uid.slice(0, 8)}`;
  const kubelet = node.kubelet;
  const sections: StateSection[] = [{ title: "API object", rows: pods.map((p) => [names.get(p.metadata.uid ?? "")!, apiPod(p)]) }];
  const faults = level.scenario.runtime.faults;
  if (faults.length > 0) sections.push({ title: "runtime faults", rows: faults.map((f) => faultRow(f, handle.sim.nowMs)) });
  if (kubelet === null) return [...sections, { title: "kubelet", rows: [["process", "not running"]] }];
  const prober = kubelet.core.deps.probeManager;
  if (prober instanceof ProberManager && hasProbes(level)) sections.push({ title: "probe workers", rows: probeRows(prober) });
  sections.push({ title: "pod workers", rows: workerRows(kubelet.podWorkers, name) });
  const pleg = kubelet.pleg.recordsView();
  sections.push({
    title: "PLEG records",
    rows: [["last relist", pleg.relistTimeMs === null ? "never" : `${pleg.relistTimeMs}ms`], ...pleg.records.map((r): [string, string] => [name(r.uid), `old ${runtimePod(r.old)} · current ${runtimePod(r.current)}`])],
  });
  const cache = kubelet.podCache;
  sections.push({
    title: "pod status cache",
    rows: [["global timestamp", cache.globalTimestampMs === null ? "unset" : `${cache.globalTimestampMs}ms`], ...cache.modifiedTimes().map((c): [string, string] => [name(c.uid), c.modifiedMs === null ? "no data" : `modified ${c.modifiedMs}ms`])],
  });
  return sections;
}

function apiPod(p: Pod): string {
  const parts = [`uid ${(p.metadata.uid ?? "").slice(0, 8)}`, `phase ${p.status?.phase ?? "Pending"}`];
  if (p.metadata.deletionTimestamp !== undefined) parts.push(`deleting (grace ${p.metadata.deletionGracePeriodSeconds ?? "?"}s)`);
  for (const c of p.status?.containerStatuses ?? []) {
    const state = c.state?.running !== undefined ? "running" : c.state?.terminated !== undefined ? `exited ${c.state.terminated.exitCode}` : "waiting";
    parts.push(`${c.name} ${state}`);
  }
  return parts.join(" · ");
}

function workerRows(workers: PodWorkers | LegacyPodWorkers | null, name: (uid: string) => string): [string, string][] {
  if (workers === null) return [["workers", "none (runOnce)"]];
  if ("slots" in workers) {
    return workers.slots().map((w) => [name(w.uid), `${w.working ? "working" : "idle"} · channel ${w.queued}/1 · lastUndeliveredWorkUpdate ${w.parked === null ? "empty" : w.parked.UpdateType}`]);
  }
  return [...workers.podSyncStatuses.keys()].sort().map((uid) => {
    const s = workers.podSyncStatuses.get(uid)!;
    const state = s.IsTerminated() ? "terminated" : s.IsTerminationRequested() ? "terminating" : "sync";
    return [name(uid), `${state} · ${s.working ? "working" : "idle"} · pending ${update(s.pendingUpdate)} · active ${update(s.activeUpdate)}`];
  });
}

function update(u: UpdatePodOptions | null): string {
  return u === null ? "none" : u.UpdateType;
}

function runtimePod(p: RuntimePod | null): string {
  if (p === null) return "none";
  const cs = p.containers.map((c) => `${c.name} ${c.state}`);
  return cs.length === 0 ? "no containers" : cs.join(", ");
}

/** A scripted CRI fault: which calls fail, in which window, and whether the run stands inside it now. */
function faultRow(f: CriFault, nowMs: number): [string, string] {
  const who = [f.method, f.pod ?? "any pod", f.container].filter((x) => x !== null).join(" ");
  const until = f.toMs === null ? "on" : `${f.toMs}ms`;
  const inside = nowMs >= f.fromMs && (f.toMs === null || nowMs < f.toMs);
  const calls = f.times === null ? (f.call === 1 ? "every call" : `from call ${f.call} on`) : `${f.times} call${f.times === 1 ? "" : "s"} from call ${f.call}`;
  return [who, `${f.kind === "timeout" ? "hangs" : "fails"} ${calls}, ${f.fromMs}ms to ${until} · now ${inside ? "INSIDE" : "outside"} the window`];
}

function hasProbes(level: PlayLevel): boolean {
  return level.scenario.pods.some((p) => [...(p.manifest.spec.containers ?? []), ...(p.manifest.spec.initContainers ?? [])].some((c) => c.livenessProbe !== undefined || c.readinessProbe !== undefined || c.startupProbe !== undefined));
}

function probeRows(prober: ProberManager): [string, string][] {
  const workers = prober.workersView();
  if (workers.length === 0) return [["workers", "none running"]];
  return workers.map((w) => [w.name.replace(/^prober\//, ""), `last ${w.lastResult} ×${w.resultRun}${w.onHold ? " · on hold" : ""}${w.containerID === "" ? " · no container yet" : ` · ${w.containerID.replace(/^\w+:\/\//, "").slice(0, 12)}`}`]);
}
