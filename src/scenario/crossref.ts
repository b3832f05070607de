// Checks that span fields: names that must refer to pods and containers of this scenario, behaviour
// for probes and hooks the manifest declares, steps within `until`, and sources that fit the verbs.
// They read the raw YAML value, so they report alongside the schema's own errors.
import { formatDuration, parseDuration } from "../sim/duration.ts";
import { suggestion } from "./found.ts";
import type { PathIssue } from "./errors.ts";
import { findPod, indexPods, isObj, list, str, type IndexedPod, type Raw } from "./podindex.ts";
import { DEFAULT_KUBELET_VERSION } from "./schema/kubelet.ts";
import { featureGateDefault } from "./types/kubelet.ts";
import { ACTION_NAMES } from "./schema/timeline.ts";
import { checkCluster, checkControlPlane } from "./crossref_nodes.ts";

export interface CrossResult {
  issues: PathIssue[];
  warnings: PathIssue[];
}

const API_VERBS = new Set(["create", "delete", "forceDelete", "setImage", "setLabels"]);
const NODE_STEPS = new Set(["cordon", "uncordon", "deleteNode"]);
const FILE_VERBS = new Set(["staticAdd", "staticUpdate", "staticRemove"]);

function durationOr(v: unknown, fallback: number): number {
  try {
    return typeof v === "string" ? parseDuration(v) : fallback;
  } catch {
    return fallback;
  }
}

function sidecarsEnabled(kubelet: Raw): boolean {
  const gates = isObj(kubelet.featureGates) ? kubelet.featureGates : {};
  if (typeof gates.SidecarContainers === "boolean") return gates.SidecarContainers;
  const m = /^v?1\.(\d+)/.exec(str(kubelet.version) ?? DEFAULT_KUBELET_VERSION);
  return featureGateDefault("SidecarContainers", m ? Number(m[1]) : 30);
}

export function crossCheck(raw: Raw): CrossResult {
  const out: CrossResult = { issues: [], warnings: [] };
  const kubelet = isObj(raw.kubelet) ? raw.kubelet : {};
  const pods = indexPods(raw.pods, sidecarsEnabled(kubelet));
  checkPods(raw, pods, kubelet, out);
  checkNode(raw, kubelet, out);
  checkCluster(raw, kubelet, out.issues);
  checkControlPlane(raw, kubelet, out.issues, out.warnings);
  checkTimeline(raw, pods, out);
  list(raw.expect).forEach((e, i) => {
    if (!isObj(e)) return;
    for (const k of ["eventually", "never", "that"]) if (isObj(e[k])) checkCondition(e[k], ["expect", i, k], pods, out);
  });
  list(raw.scheduler).forEach((b, i) => checkBinding(b, ["scheduler", i], pods, out));
  const runtime = isObj(raw.runtime) ? raw.runtime : {};
  list(runtime.faults).forEach((f, i) => checkTarget(f, ["runtime", "faults", i], pods, out));
  const swarm = isObj(raw.swarm) ? raw.swarm : {};
  list(swarm.faults).forEach((f, i) => isObj(f) && checkTarget(f.fault, ["swarm", "faults", i, "fault"], pods, out));
  return out;
}

/** node.name and kubelet.nodeName name one node; kubelet.allocatable is node.capacity's older spelling. */
function checkNode(raw: Raw, kubelet: Raw, out: CrossResult): void {
  const node = isObj(raw.node) ? raw.node : {};
  if (typeof node.name === "string" && typeof kubelet.nodeName === "string" && node.name !== kubelet.nodeName) {
    out.issues.push({ path: ["node", "name"], message: `expected the same name as kubelet.nodeName ("${kubelet.nodeName}"), found "${node.name}": both name the one node; give one of them` });
  }
  const capacity = isObj(node.capacity) ? node.capacity : {};
  const allocatable = isObj(kubelet.allocatable) ? kubelet.allocatable : {};
  for (const r of ["cpu", "memory"]) {
    if (allocatable[r] !== undefined && capacity[r] !== undefined) {
      out.issues.push({ path: ["kubelet", "allocatable", r], message: `node.capacity.${r} says it too: kubelet.allocatable is the older place for the node's cpu and memory; give one of them` });
    }
  }
}

function checkPods(raw: Raw, pods: IndexedPod[], kubelet: Raw, out: CrossResult): void {
  const seen = new Map<string, number>();
  for (const pod of pods) {
    const base = ["pods", pod.index];
    const first = seen.get(pod.key);
    if (first !== undefined) {
      out.issues.push({ path: [...base, "manifest", "metadata", "name"], message: `duplicate pod "${pod.key}": pods[${first}] has the same namespace and name` });
    } else seen.set(pod.key, pod.index);
    if (kubelet.runOnce === true && pod.source !== "file") {
      out.issues.push({ path: [...base, "source"], message: "expected source: file with kubelet.runOnce, which runs static pods only" });
    }
    const entry = list(raw.pods)[pod.index] as Raw;
    checkBehaviour(entry.behaviour, pod, [...base, "behaviour"], out);
    checkSidecars(entry.manifest as Raw, pod, base, out);
  }
}

function checkBehaviour(behaviour: unknown, pod: IndexedPod, base: PropertyKey[], out: CrossResult): void {
  if (!isObj(behaviour)) return;
  for (const [name, b] of Object.entries(behaviour)) {
    const c = pod.containers.get(name);
    if (!c) {
      const names = [...pod.containers.keys()];
      out.issues.push({ path: [...base, name], atKey: true, message: `no container "${name}" in pod "${pod.key}"${suggestion(name, names)} (containers: ${names.join(", ")})` });
      continue;
    }
    if (!isObj(b)) continue;
    const probes = isObj(b.probes) ? b.probes : {};
    for (const kind of ["liveness", "readiness", "startup"]) {
      if (list(probes[kind]).length > 0 && !c.probes.has(kind)) {
        out.issues.push({ path: [...base, name, "probes", kind], message: `container "${name}" has no ${kind}Probe in the manifest, so nothing would ask for these answers` });
      }
    }
    for (const hook of ["postStart", "preStop"]) {
      if (b[hook] !== undefined && !c.hooks.has(hook)) {
        out.issues.push({ path: [...base, name, hook], message: `container "${name}" has no lifecycle.${hook} in the manifest, so this handler would never run` });
      }
    }
  }
}

function checkSidecars(manifest: Raw, pod: IndexedPod, base: PropertyKey[], out: CrossResult): void {
  const spec = isObj(manifest.spec) ? manifest.spec : {};
  list(spec.initContainers).forEach((c, i) => {
    if (!isObj(c) || c.restartPolicy !== "Always") return;
    if (pod.containers.get(str(c.name) ?? "")?.kind === "sidecar") return;
    out.warnings.push({
      path: [...base, "manifest", "spec", "initContainers", i, "restartPolicy"],
      message: "ignored: the SidecarContainers feature gate is off for this kubelet, so the apiserver drops restartPolicy and this runs as a plain init container",
    });
  });
}

function checkTimeline(raw: Raw, pods: IndexedPod[], out: CrossResult): void {
  const untilMs = durationOr(raw.until, 5 * 60_000);
  list(raw.timeline).forEach((step, i) => {
    if (!isObj(step)) return;
    const at = durationOr(step.at, -1);
    if (at > untilMs) {
      out.issues.push({ path: ["timeline", i, "at"], message: `expected a time within until (${formatDuration(untilMs)}), found ${formatDuration(at)}; the step would never run` });
    }
    for (const action of ACTION_NAMES) {
      // A node step's plain string names a node (crossref_nodes.ts checks it), not a pod.
      if (step[action] === undefined || NODE_STEPS.has(action)) continue;
      const base = ["timeline", i, action];
      const pod = checkTarget(step[action], base, pods, out);
      if (pod && API_VERBS.has(action) && pod.source === "file") {
        out.issues.push({ path: base, message: `pod "${pod.key}" is a static pod (source: file); use staticAdd, staticUpdate or staticRemove` });
      }
      if (pod && FILE_VERBS.has(action) && pod.source !== "file") {
        out.issues.push({ path: base, message: `pod "${pod.key}" comes from the apiserver (source: api); ${action} is for static pods (source: file)` });
      }
    }
  });
}

/** A scheduler binding names two pods of the apiserver (source: api). */
function checkBinding(b: unknown, base: PropertyKey[], pods: IndexedPod[], out: CrossResult): void {
  if (!isObj(b)) return;
  for (const field of ["bind", "whenTerminal"]) {
    if (b[field] === undefined) continue;
    const pod = checkTarget(b[field], [...base, field], pods, out);
    if (pod && pod.source === "file") {
      out.issues.push({ path: [...base, field], message: `pod "${pod.key}" is a static pod (source: file); the scheduler binds and watches pods of the apiserver (source: api)` });
    }
  }
}

/** Checks `pod` (and `container`) in a target that is a pod name or an object holding them. */
function checkTarget(value: unknown, base: PropertyKey[], pods: IndexedPod[], out: CrossResult): IndexedPod | undefined {
  const target = typeof value === "string" ? { pod: value } : isObj(value) ? value : undefined;
  if (!target) return undefined;
  const ref = str(target.pod);
  const refPath = typeof value === "string" ? base : [...base, "pod"];
  if (ref === undefined) return undefined;
  const found = findPod(pods, ref);
  if ("error" in found) {
    const msg =
      found.error === "ambiguous"
        ? `pod "${ref}" is ambiguous: ${found.candidates.join(", ")}; write namespace/name`
        : `no pod "${ref}" in this scenario's pods${suggestion(ref, found.candidates)}`;
    out.issues.push({ path: refPath, message: msg });
    return undefined;
  }
  const name = str(target.container);
  if (name !== undefined && !found.pod.containers.has(name)) {
    const names = [...found.pod.containers.keys()];
    out.issues.push({ path: [...base, "container"], message: `no container "${name}" in pod "${found.pod.key}"${suggestion(name, names)} (containers: ${names.join(", ")})` });
  }
  return found.pod;
}

function checkCondition(cond: Raw, base: PropertyKey[], pods: IndexedPod[], out: CrossResult): void {
  const pod = checkTarget(cond, base, pods, out);
  const container = isObj(cond.container) ? str(cond.container.name) : undefined;
  if (pod && container !== undefined && !pod.containers.has(container)) {
    const names = [...pod.containers.keys()];
    out.issues.push({ path: [...base, "container", "name"], message: `no container "${container}" in pod "${pod.key}"${suggestion(container, names)} (containers: ${names.join(", ")})` });
  }
}
