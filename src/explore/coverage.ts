// Coverage: what a run reached, as a set of short feature strings, for the guided strategy's
// feedback and for `explore`'s coverage count. Two families:
//
// - reads-from pairs on the kubelet's shared state (as RFF, Wolff et al., ASPLOS 2024, uses them):
//   which write each read saw, and which write each write followed, for an API object (the
//   apiserver's writes by resourceVersion; a GET or a watch event reads one, latest or stale), a
//   pod worker slot (UpdatePod writes it, SyncBegin reads it, and how many updates it coalesced),
//   a PLEG cache entry (a relist's Set and the events it found; GetNewerThan reads one, or misses)
//   and a status cache entry (SetPodStatus and TerminatePod write a version; the status manager's
//   PATCH and DELETE read one). Writers and readers are named by role (actor and request, worker
//   mode, phase), not by time, so a feature says what was ordered, not when.
// - abstract pod states: per pod, the API object (live, deleting, gone), kubectl's STATUS and
//   READY columns, the pod worker's mode, and each container's runtime state; each state reached
//   and each transition between two; and the state in which each of the world's actions (a
//   timeline step, a reboot) and each lifecycle call of the runtime (a pull, a sandbox, a start)
//   landed, which is what the timing knobs move.
//
// The observer is a trace sink that reads a fixed set of record kinds, so a run without it builds
// none of them (lazy records) and pays nothing; no kernel or model code knows it exists.
import type { TraceRecord, TraceSink } from "../sim/index.ts";

/** The record kinds coverage reads (every other record is never built for it). */
export const COVERAGE_KINDS: ReadonlySet<string> = new Set([
  // apiserver requests and views
  "Create", "Update", "PatchStatus", "Delete", "Get", "WatchEvent", "PodView",
  // pod workers
  "UpdatePod", "UpdateDropped", "TerminationRequested", "SyncBegin", "Terminated", "Finished",
  // the PLEG's cache and events
  "Set", "GetNewerThan", "ContainerStarted", "ContainerDied", "ContainerRemoved", "ContainerChanged",
  // the status manager's cache
  "SetPodStatus", "TerminatePod", "DeletePod",
  // the runtime's containers, and the calls that change a pod's sandbox or containers
  "CreateContainer", "ContainerExited", "ContainerRemovedExternally", "OOMKill", "ExitNow",
  "RunPodSandbox", "StopPodSandbox", "RemovePodSandbox", "PullImage", "StartContainer", "StopContainer", "RemoveContainer",
  "SandboxDied", "NodeReboot", "RuntimeRestart",
  // what the world does (timeline steps)
  "Step",
]);

/** The runtime calls whose completion, in the pod's state of the moment, is a feature ("call ... while ..."). */
const LIFECYCLE_CALLS = new Set(["RunPodSandbox", "StopPodSandbox", "RemovePodSandbox", "PullImage", "CreateContainer", "StartContainer", "StopContainer", "RemoveContainer"]);

const PLEG_EVENTS = new Set(["ContainerStarted", "ContainerDied", "ContainerRemoved", "ContainerChanged"]);

interface ApiObject {
  writers: Map<number, string>;
  latest: number;
  last: string;
}

interface Slot {
  last: string;
  pending: number;
}

interface CacheEntry {
  /** Each Set's time and the events its relist found for the pod. */
  sets: Map<number, string[]>;
  latest: number;
}

interface StatusEntry {
  versions: Map<number, string>;
  latest: number;
}

interface PodState {
  api: string;
  view: string;
  worker: string;
  containers: Map<string, string>;
  last: string;
}

const str = (v: unknown): string => (typeof v === "string" ? v : v === null || v === undefined ? "-" : String(v));
const num = (v: unknown): number => (typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN);
const bucket = (n: number): string => (n <= 1 ? String(n) : n <= 3 ? "2-3" : "4+");

export class CoverageSink implements TraceSink {
  readonly wantsLines = false;
  readonly kinds = COVERAGE_KINDS;
  /** The features this run reached. */
  readonly features = new Set<string>();
  private readonly api = new Map<string, ApiObject>();
  private readonly slots = new Map<string, Slot>();
  private readonly cache = new Map<string, CacheEntry>();
  private readonly status = new Map<string, StatusEntry>();
  private readonly pods = new Map<string, PodState>();
  private lastSetUid: string | null = null;

  write(rec: TraceRecord): void {
    // A run that builds every record (hashed: a determinism sample, a failing run again) hands
    // them all to every sink: read the same ones as a lazy run, or the features would differ.
    if (!COVERAGE_KINDS.has(rec.kind)) return;
    switch (rec.component) {
      case "apiserver":
        return this.apiserver(rec);
      case "podworker":
        return this.podworker(rec);
      case "cache":
        return this.pleg(rec);
      case "pleg":
        if (PLEG_EVENTS.has(rec.kind)) this.plegEvent(rec);
        return;
      case "status":
        return this.statusCache(rec);
      case "runtime":
        return this.runtime(rec);
      case "scenario":
        if (rec.kind === "Step") this.step(rec);
        return;
    }
  }

  /**
   * What the world did, in the state it found: a step names its pod, or (a reboot, a kubelet
   * restart, a partition, watch trouble) acts on every pod. These tie the timing knobs to what
   * they reach: a delete that lands during the pull, a reboot after the app was created.
   */
  private step(rec: TraceRecord): void {
    const action = str(rec["step"]);
    const pod = rec["pod"];
    const pods = typeof pod === "string" ? [pod] : [...this.pods.keys()];
    if (pods.length === 0) return this.add(`world ${action} before any pod`);
    for (const p of pods) this.add(`world ${action} while ${this.pods.get(p)?.last.slice(p.length + 1) ?? "none"}${pods.length > 1 ? ` (${p})` : ""}`);
  }

  private add(feature: string): void {
    this.features.add(feature);
  }

  // ---- API objects -------------------------------------------------------------------------

  private apiserver(rec: TraceRecord): void {
    const pod = str(rec["pod"]);
    if (rec.kind === "PodView") return this.view(pod, rec);
    const obj = this.api.get(pod) ?? { writers: new Map<number, string>(), latest: -1, last: "none" };
    this.api.set(pod, obj);
    const ok = rec["result"] === "ok";
    const who = `${str(rec["actor"])}.${rec.kind}`;
    if (rec.kind === "Get" || rec.kind === "WatchEvent") {
      const reader = rec.kind === "WatchEvent" ? `watch.${str(rec["type"])}` : who;
      if (rec.kind === "Get" && !ok) return this.add(`api ${reader}=${str(rec["result"])} after ${obj.last}`);
      const rv = num(rec["resourceVersion"]);
      this.add(`api ${reader} saw ${obj.writers.get(rv) ?? "unknown"} ${rv >= obj.latest ? "latest" : "stale"}`);
      return;
    }
    const site = rec.kind === "PatchStatus" ? `${who}(${str(rec["phase"])})` : rec.kind === "Delete" ? `${who}(${rec["deleted"] === true ? "gone" : "graceful"})` : who;
    if (!ok) return this.add(`api ${site}=${str(rec["result"])} after ${obj.last}`);
    this.add(`api ${site} after ${obj.last}`);
    const rv = num(rec["resourceVersion"]);
    if (Number.isFinite(rv)) {
      obj.writers.set(rv, site);
      obj.latest = Math.max(obj.latest, rv);
    }
    obj.last = site;
    this.podState(pod, (s) => (s.api = rec.kind === "Delete" ? (rec["deleted"] === true ? "gone" : "deleting") : rec.kind === "Create" ? "live" : s.api));
  }

  private view(pod: string, rec: TraceRecord): void {
    this.podState(pod, (s) => (s.view = `${str(rec["status"])} ${str(rec["ready"])}`));
  }

  // ---- pod worker slots ----------------------------------------------------------------------

  private podworker(rec: TraceRecord): void {
    const uid = str(rec["uid"]);
    const slot = this.slots.get(uid) ?? { last: "none", pending: 0 };
    this.slots.set(uid, slot);
    const pod = str(rec["pod"]);
    switch (rec.kind) {
      case "UpdatePod":
        slot.last = `${str(rec["updateType"])}/${str(rec["workType"])}`;
        slot.pending++;
        return;
      case "UpdateDropped":
        return this.add(`slot UpdateDropped(${str(rec["updateType"])}) pinned by ${str(rec["pinnedBy"])}`);
      case "TerminationRequested":
        return this.add(`slot TerminationRequested(${str(rec["why"])}) while ${this.pods.get(pod)?.worker ?? "none"}`);
      case "SyncBegin":
        this.add(`slot SyncBegin(${str(rec["mode"])}) saw UpdatePod(${slot.last}) coalescing ${bucket(slot.pending)}`);
        slot.pending = 0;
        return this.podState(pod, (s) => (s.worker = str(rec["mode"])));
      case "Terminated":
      case "Finished":
        return this.podState(pod, (s) => (s.worker = rec.kind.toLowerCase()));
    }
  }

  // ---- the PLEG's cache ----------------------------------------------------------------------

  private pleg(rec: TraceRecord): void {
    const uid = str(rec["uid"]);
    const entry = this.cache.get(uid) ?? { sets: new Map<number, string[]>(), latest: -Infinity };
    this.cache.set(uid, entry);
    if (rec.kind === "Set") {
      const t = num(rec["timeMs"]);
      entry.sets.set(t, []);
      entry.latest = Math.max(entry.latest, t);
      this.lastSetUid = uid;
      return;
    }
    if (rec.kind !== "GetNewerThan") return;
    const t = rec["statusTimeMs"];
    const waited = num(rec["waitedMs"]) > 0 ? "after waiting" : "at once";
    if (t === null || t === undefined) return this.add(`pleg GetNewerThan missed ${waited}`);
    const events = entry.sets.get(num(t));
    const what = events === undefined ? "unknown" : events.length === 0 ? "no event" : events.join("+");
    this.add(`pleg GetNewerThan saw Set(${what}) ${num(t) >= entry.latest ? "latest" : "older"} ${waited}`);
  }

  private plegEvent(rec: TraceRecord): void {
    const uid = str(rec["uid"]);
    const entry = this.cache.get(uid);
    if (entry === undefined || this.lastSetUid !== uid) return this.add(`pleg ${rec.kind} without a Set`);
    const events = entry.sets.get(entry.latest);
    if (events !== undefined && !events.includes(rec.kind)) events.push(rec.kind);
    this.podState(str(rec["pod"]), () => undefined);
  }

  // ---- the status manager's cache -------------------------------------------------------------

  private statusCache(rec: TraceRecord): void {
    const uid = str(rec["uid"]);
    const entry = this.status.get(uid) ?? { versions: new Map<number, string>(), latest: 0 };
    this.status.set(uid, entry);
    const version = num(rec["version"]);
    const phase = str(rec["phase"]);
    if (rec.kind === "SetPodStatus" || rec.kind === "TerminatePod") {
      const site = `${rec.kind}(${phase})`;
      this.add(`status ${site} after ${entry.versions.get(entry.latest) ?? "none"}`);
      entry.versions.set(version, site);
      entry.latest = Math.max(entry.latest, version);
      return;
    }
    // PatchStatus and DeletePod read the cached version they write out.
    const saw = entry.versions.get(version) ?? "unknown";
    this.add(`status ${rec.kind}=${str(rec["result"])} saw ${saw} ${version >= entry.latest ? "latest" : "older"}`);
  }

  // ---- containers in the runtime ---------------------------------------------------------------

  private runtime(rec: TraceRecord): void {
    const pod = str(rec["pod"]);
    if (LIFECYCLE_CALLS.has(rec.kind)) {
      const result = rec["result"] === "ok" || rec["result"] === undefined ? "ok" : "err";
      this.add(`call ${rec.kind}=${result} while ${this.pods.get(pod)?.last.slice(pod.length + 1) ?? "none"}`);
      if (rec.kind !== "CreateContainer") return;
    }
    if (rec.kind === "SandboxDied" || rec.kind === "NodeReboot" || rec.kind === "RuntimeRestart") {
      for (const [p, s] of this.pods) this.add(`world ${rec.kind} while ${s.last.slice(p.length + 1)}`);
      return;
    }
    const container = str(rec["container"]);
    let state: string | null = null;
    if (rec.kind === "CreateContainer") state = rec["result"] === "ok" ? "created" : null;
    else if (rec.kind === "ContainerStarted") state = "running";
    else if (rec.kind === "ContainerExited") state = num(rec["exitCode"]) === 0 ? "exited0" : "failed";
    else if (rec.kind === "OOMKill" || rec.kind === "ExitNow") state = "killed";
    else if (rec.kind === "ContainerRemovedExternally") state = "removed";
    if (state === null || container === "-") return;
    const s = state;
    this.podState(pod, (p) => void p.containers.set(container, s));
  }

  // ---- abstract pod states -------------------------------------------------------------------

  private podState(pod: string, change: (s: PodState) => void): void {
    if (pod === "-") return;
    let s = this.pods.get(pod);
    if (s === undefined) {
      s = { api: "none", view: "none", worker: "none", containers: new Map(), last: "" };
      this.pods.set(pod, s);
    }
    change(s);
    const containers = [...s.containers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([n, st]) => `${n}=${st}`).join(",");
    const state = `${pod} ${s.api}|${s.view}|${s.worker}|${containers}`;
    if (state === s.last) return;
    this.add(`state ${state}`);
    if (s.last !== "") this.add(`edge ${s.last} -> ${state.slice(pod.length + 1)}`);
    s.last = state;
  }
}
