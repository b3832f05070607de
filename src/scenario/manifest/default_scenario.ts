// The scenario kubelet-sim builds around a plain manifest file: every pod created at 0s (a mirror
// pod's static pod written to the manifest directory at 0s), containers that run until stopped (a
// Job's exit 0 after a while), an `until` long enough for the pods to start and settle, and one
// expectation per pod (Ready, or Succeeded for a Job's). What it assumed is said in a few lines.
import { formatDuration, parseDuration } from "../../sim/duration.ts";
import { isObj, list, str, type Raw } from "../podindex.ts";
import { DEFAULT_KUBELET_VERSION } from "../schema/kubelet.ts";
import { DEFAULT_LATENCY } from "../schema/runtime.ts";
import type { ManifestObject } from "./documents.ts";
import { expandObject, type Expanded } from "./expand.ts";
import { kubeletMinor } from "./entries.ts";
import { Locator } from "./locator.ts";

export interface BuiltScenario {
  raw: Raw;
  locator: Locator;
  /** The assumptions, a few short lines for people. */
  assumptions: string[];
}

const MIN_UNTIL_MS = 60_000;
const SANDBOX_MS = parseDuration(DEFAULT_LATENCY.RunPodSandbox);
const PULL_MS = parseDuration(DEFAULT_LATENCY.PullImage);
/** A default init container runs 1s (schema/behaviour.ts defaultBehaviour). */
const INIT_MS = 1000;

export function scenarioFromManifests(objects: readonly ManifestObject[], skipped: readonly ManifestObject[], file: string): BuiltScenario {
  const locator = new Locator(null, file);
  const minor = kubeletMinor({});
  const pods: Raw[] = [];
  const timeline: Raw[] = [];
  const expect: Raw[] = [];
  const lines: string[] = [];
  let untilMs = MIN_UNTIL_MS;
  objects.forEach((o, i) => {
    locator.origins.set(i, { ref: o.ref, prefix: o.prefix, display: o.prefix, mapPath: (p) => [...p] });
    const e = expandObject(o.value, { minor, source: undefined, fromManifestFile: true });
    pods.push(entryOf(o, e));
    if (e.pod === null || e.errors.length > 0) return;
    const meta = e.pod.metadata as Raw;
    const key = `${str(meta.namespace) || "default"}/${str(meta.name) ?? ""}`;
    timeline.push({ at: "0s", [e.source === "file" ? "staticAdd" : "create"]: key });
    expect.push(e.exitAfter !== null ? { eventually: { pod: key, phase: "Succeeded" } } : { eventually: { pod: key, conditions: { Ready: "True" } } });
    untilMs = Math.max(untilMs, untilFor(e));
    const made = e.assumptions.map((a) => a.replace(/^from [A-Za-z]+ \S+: /, "")).join("; ");
    const static_ = e.source === "file" ? ", run as the static pod it mirrors" : "";
    lines.push(`${key}: ${o.kind} ${o.name} (line ${o.line})${static_}${made === "" ? "" : `; ${made}`}`);
  });
  const name = scenarioName(file);
  const raw: Raw = {
    name,
    description: `Built by kubelet-sim from ${baseName(file)}: each pod is created at 0s and its containers run until stopped (a Job's exit 0 after a while); each is expected to become Ready (a Job's to succeed).`,
    seed: 1,
    until: formatDuration(untilMs),
    kubelet: { version: DEFAULT_KUBELET_VERSION },
    pods,
    timeline,
    expect,
  };
  const assumptions = [
    ...lines,
    `every pod created at 0s; containers run until stopped${pods.some((p) => isObj(p.behaviour)) ? ", a Job's exit 0 after 5s" : ""}; init containers exit 0 after 1s; images pull in 1s`,
    `until ${formatDuration(untilMs)}; expected: each pod Ready${expect.some((x) => JSON.stringify(x).includes("Succeeded")) ? " (a Job's pod Succeeded)" : ""}`,
    ...skipped.map((s) => `skipped ${s.kind} ${s.name} (line ${s.line}): no pod template`),
  ];
  return { raw, locator, assumptions };
}

function entryOf(o: ManifestObject, e: Expanded): Raw {
  const entry: Raw = { manifest: o.value };
  if (e.source === "file") entry.source = "file";
  if (e.exitAfter !== null && e.pod !== null && isObj(e.pod.spec)) {
    const names = list(e.pod.spec.containers).flatMap((c) => (isObj(c) && str(c.name) !== undefined ? [str(c.name)!] : []));
    entry.behaviour = Object.fromEntries(names.map((n) => [n, { exitAfter: e.exitAfter }]));
  }
  return entry;
}

/** Long enough to start, pass the probes and (a Job) finish, twice over, plus half a minute; in whole 10s. */
function untilFor(e: Expanded): number {
  const spec = isObj(e.pod!.spec) ? e.pod!.spec : {};
  const inits = list(spec.initContainers).filter(isObj);
  const containers = list(spec.containers).filter(isObj);
  const images = new Set([...inits, ...containers].map((c) => str(c.image) ?? ""));
  let readyMs = SANDBOX_MS + images.size * PULL_MS + inits.filter((c) => c.restartPolicy !== "Always").length * INIT_MS;
  let probesMs = 0;
  for (const c of [...inits, ...containers]) {
    for (const p of [c.startupProbe, c.readinessProbe]) {
      if (!isObj(p)) continue;
      const seconds = num(p.initialDelaySeconds, 0) + num(p.periodSeconds, 10) * num(p.successThreshold, 1);
      probesMs = Math.max(probesMs, seconds * 1000);
    }
  }
  readyMs += probesMs + (e.exitAfter === null ? 0 : parseDuration(e.exitAfter));
  return Math.max(MIN_UNTIL_MS, Math.ceil((2 * readyMs + 30_000) / 10_000) * 10_000);
}

const num = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : fallback);

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

/** A kebab-case scenario name from the file's name. */
export function scenarioName(file: string): string {
  const stem = baseName(file).replace(/\.(ya?ml|json)$/i, "").toLowerCase();
  const kebab = stem.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 100).replace(/-+$/, "");
  return kebab === "" ? "manifest" : kebab;
}
