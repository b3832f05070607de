// The scenario side of shrinking: edits of a raw scenario that make it smaller (a pod, a
// container, a timeline step, a fault, an expectation fewer; an earlier end; default or halved
// latencies), each keeping every reference consistent. Each edit is only a candidate: the
// shrinker validates it and keeps it only if the run still fails the same way.
import { formatDuration, parseDuration } from "../sim/duration.ts";
import { cloneRaw, isRecord, rawList, type RawScenario } from "./raw.ts";

export interface RawCandidate {
  raw: RawScenario;
  what: string;
}

export interface PodName {
  name: string;
  namespace: string;
}

function podNameOf(entry: unknown): PodName | null {
  const meta = isRecord(entry) && isRecord(entry["manifest"]) ? entry["manifest"]["metadata"] : undefined;
  if (!isRecord(meta) || typeof meta["name"] !== "string") return null;
  return { name: meta["name"], namespace: typeof meta["namespace"] === "string" ? meta["namespace"] : "default" };
}

export function refersTo(ref: unknown, p: PodName): boolean {
  return typeof ref === "string" && (ref === p.name || ref === `${p.namespace}/${p.name}`);
}

/** The action value of a raw timeline step (`{ at, delete: web }` → "web"). */
function stepAction(step: unknown): unknown {
  if (!isRecord(step)) return undefined;
  const key = Object.keys(step).find((k) => k !== "at");
  return key === undefined ? undefined : step[key];
}

export function stepPod(step: unknown): unknown {
  const a = stepAction(step);
  return isRecord(a) ? a["pod"] : a;
}

function stepContainer(step: unknown): unknown {
  const a = stepAction(step);
  return isRecord(a) ? a["container"] : undefined;
}

/** The condition of a raw expectation (`{ never: ... }`, `{ eventually: ... }`, `{ at, that: ... }`). */
function expectCondition(e: unknown): unknown {
  if (!isRecord(e)) return undefined;
  return e["never"] ?? e["eventually"] ?? e["that"];
}

function runtimeOf(raw: RawScenario): Record<string, unknown> {
  return isRecord(raw["runtime"]) ? raw["runtime"] : {};
}

/** The raw scenario with one list replaced (`runtime.faults` is addressed as "runtime.faults"). */
export function withList(raw: RawScenario, key: "timeline" | "expect" | "runtime.faults", items: unknown[]): RawScenario {
  const out = cloneRaw(raw);
  if (key === "runtime.faults") out["runtime"] = { ...runtimeOf(out), faults: items };
  else out[key] = items;
  return out;
}

export function listOf(raw: RawScenario, key: "timeline" | "expect" | "runtime.faults"): unknown[] {
  return key === "runtime.faults" ? rawList(runtimeOf(raw), "faults") : rawList(raw, key);
}

/** Each pod removed, with the steps, expectations and faults that name it. */
export function dropPodCandidates(raw: RawScenario): RawCandidate[] {
  const pods = rawList(raw, "pods");
  if (pods.length <= 1) return [];
  return pods.flatMap((entry, i) => {
    const p = podNameOf(entry);
    if (p === null) return [];
    const out = cloneRaw(raw);
    out["pods"] = pods.filter((_, j) => j !== i);
    out["timeline"] = rawList(raw, "timeline").filter((s) => !refersTo(stepPod(s), p));
    out["expect"] = rawList(raw, "expect").filter((e) => !refersTo((expectCondition(e) as Record<string, unknown> | undefined)?.["pod"], p));
    out["runtime"] = { ...runtimeOf(raw), faults: listOf(raw, "runtime.faults").filter((f) => !(isRecord(f) && refersTo(f["pod"], p))) };
    return [{ raw: out, what: `dropped pod ${p.name}` }];
  });
}

/** Each container removed (a regular one only when another remains), with what names it. */
export function dropContainerCandidates(raw: RawScenario): RawCandidate[] {
  const out: RawCandidate[] = [];
  rawList(raw, "pods").forEach((entry, i) => {
    const p = podNameOf(entry);
    const spec = isRecord(entry) && isRecord(entry["manifest"]) && isRecord(entry["manifest"]["spec"]) ? entry["manifest"]["spec"] : null;
    if (p === null || spec === null) return;
    for (const list of ["initContainers", "containers"] as const) {
      const containers = rawList(spec, list);
      if (list === "containers" && containers.length <= 1) continue;
      containers.forEach((c, j) => {
        const name = isRecord(c) ? c["name"] : undefined;
        if (typeof name !== "string") return;
        out.push({ raw: withoutContainer(raw, i, p, list, j, name), what: `dropped container ${p.name}/${name}` });
      });
    }
  });
  return out;
}

function withoutContainer(raw: RawScenario, podIndex: number, p: PodName, list: string, index: number, name: string): RawScenario {
  const out = cloneRaw(raw);
  const entry = (out["pods"] as Record<string, unknown>[])[podIndex]!;
  const spec = (entry["manifest"] as Record<string, unknown>)["spec"] as Record<string, unknown>;
  const remaining = rawList(spec, list).filter((_, j) => j !== index);
  if (remaining.length === 0) delete spec[list];
  else spec[list] = remaining;
  if (isRecord(entry["behaviour"])) delete entry["behaviour"][name];
  const names = (x: unknown) => refersTo(x, p);
  out["timeline"] = rawList(raw, "timeline").filter((s) => !(names(stepPod(s)) && stepContainer(s) === name));
  out["expect"] = rawList(raw, "expect").filter((e) => {
    const c = expectCondition(e);
    return !(isRecord(c) && names(c["pod"]) && isRecord(c["container"]) && c["container"]["name"] === name);
  });
  const faults = listOf(raw, "runtime.faults").filter((f) => !(isRecord(f) && f["container"] === name && (f["pod"] === undefined || names(f["pod"]))));
  out["runtime"] = { ...runtimeOf(raw), faults };
  return out;
}

/** The run ends one second after the failure (whole seconds), dropping the steps after it. */
export function endEarlierCandidate(raw: RawScenario, untilMs: number, failureAtMs: number): RawCandidate | null {
  const endMs = Math.ceil((failureAtMs + 1000) / 1000) * 1000;
  if (endMs >= untilMs) return null;
  const out = cloneRaw(raw);
  out["until"] = formatDuration(endMs);
  out["timeline"] = rawList(raw, "timeline").filter((s) => !(isRecord(s) && typeof s["at"] === "string" && parseDuration(s["at"]) >= endMs));
  return { raw: out, what: `ended the run at ${formatDuration(endMs)} instead of ${formatDuration(untilMs)}` };
}

/** Each explicit CRI latency and image pull time back to its default, or halved. */
export function latencyCandidates(raw: RawScenario): RawCandidate[] {
  const runtime = runtimeOf(raw);
  const out: RawCandidate[] = [];
  const latency = isRecord(runtime["latency"]) ? runtime["latency"] : {};
  for (const method of Object.keys(latency).sort()) {
    out.push(edit(raw, (r) => delete (r["latency"] as Record<string, unknown>)[method], `${method} latency back to its default`));
    const half = halved(latency[method]);
    if (half !== null) out.push(edit(raw, (r) => ((r["latency"] as Record<string, unknown>)[method] = half), `${method} latency halved`));
  }
  const images = isRecord(runtime["images"]) ? runtime["images"] : {};
  for (const image of Object.keys(images).sort()) {
    const img = images[image];
    if (!isRecord(img) || img["pullTime"] === undefined) continue;
    const half = halved(img["pullTime"]);
    if (half !== null) out.push(edit(raw, (r) => (((r["images"] as Record<string, Record<string, unknown>>)[image]!)["pullTime"] = half), `pull time of ${image} halved`));
  }
  return out;
}

function edit(raw: RawScenario, change: (runtime: Record<string, unknown>) => unknown, what: string): RawCandidate {
  const out = cloneRaw(raw);
  const runtime = structuredClone(runtimeOf(out));
  change(runtime);
  out["runtime"] = runtime;
  return { raw: out, what };
}

/** A duration or {min, max} range with every value halved (in whole ms); null when nothing is left to halve. */
function halved(value: unknown): unknown {
  const half = (v: unknown): string | null => {
    if (typeof v !== "string") return null;
    const ms = parseDuration(v);
    return ms >= 2 ? formatDuration(Math.floor(ms / 2)) : null;
  };
  if (typeof value === "string") return half(value);
  if (!isRecord(value)) return null;
  const min = half(value["min"]);
  const max = half(value["max"]);
  return min === null || max === null ? null : { min, max };
}
