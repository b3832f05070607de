// What a pleg_events.yaml relist step may state, checked: the events sent (a multiset, an exact
// list, a count, a subset of a given list), and the metrics the relist set (TestRunningPodAndContainerCount's
// GatherAndCompare of kubelet_running_containers and kubelet_running_pods).
import type { RunningPodAndContainerMetrics } from "../kubelet/pleg/metrics.ts";
import { diffValues, show } from "./diff.ts";
import { VectorError } from "./outcome.ts";

export interface Ev {
  pod: string;
  type: string;
  data: string;
}

/** The Go tests sort both sides by pod ID, then container ID (then type, for a total order). */
export function sortEvents<T extends Ev>(events: readonly T[]): T[] {
  const key = (e: T) => `${e.pod}\u0000${e.data}\u0000${e.type}`;
  return [...events].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * expectEvents: the events as a multiset, or a note that this step asserts nothing ("not asserted",
 * "drained", "ignored"): any other text is not understood and is the vector's error.
 */
export function checkEvents(want: readonly Ev[] | string, got: readonly Ev[]): string[] {
  if (typeof want === "string") {
    if (/not asserted|drained|ignored/i.test(want)) return [];
    throw new VectorError(`expectEvents ${JSON.stringify(want)}: expected a list of events or "not asserted"`);
  }
  return diffValues(sortEvents(want), sortEvents(got), "events");
}

/** assert.Subsetf(allEvents, actual): every event sent is one of the listed ones (each at most as often). */
export function checkSubset(allowed: readonly Ev[], got: readonly Ev[]): string[] {
  const left = allowed.map((e) => JSON.stringify([e.pod, e.type, e.data]));
  const extra: Ev[] = [];
  for (const e of got) {
    const i = left.indexOf(JSON.stringify([e.pod, e.type, e.data]));
    if (i < 0) extra.push(e);
    else left.splice(i, 1);
  }
  return extra.length === 0 ? [] : [`events: ${show(extra)} not among the expected ones`];
}

/** One sample of a gauge: its name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const CONTAINERS = "kubelet_running_containers";
const PODS = "kubelet_running_pods";

/** The PLEG's gauges as samples (GatherAndCompare of the named metric families). */
export function gatheredSamples(m: RunningPodAndContainerMetrics): Sample[] {
  const out: Sample[] = [...m.runningContainers].map(([state, n]) => ({ name: CONTAINERS, labels: { container_state: state }, value: n }));
  if (m.runningPods !== null) out.push({ name: PODS, labels: {}, value: m.runningPods });
  return out;
}

/**
 * The samples an expectMetric names, in any of the forms a transcription may take: the Prometheus
 * text the Go test compares (`kubelet_running_pods 2`, `# HELP`/`# TYPE` lines ignored); {name,
 * value} or {name, values: {state: n}} or {name, labels, value}; a list of those; or a map of
 * metric name to a value or to {label value: n}.
 */
export function expectedSamples(e: unknown): Sample[] {
  if (typeof e === "string") return parseExposition(e);
  if (Array.isArray(e)) return e.flatMap(expectedSamples);
  if (typeof e !== "object" || e === null) throw new VectorError(`expectMetric: cannot interpret ${show(e)}`);
  const o = e as Record<string, unknown>;
  const name = o["name"] ?? o["metric"] ?? o["metricsName"];
  if (typeof name === "string") {
    if (typeof o["wants"] === "string") return parseExposition(o["wants"]).filter((s) => s.name === name);
    if (o["labels"] !== undefined) return [{ name, labels: o["labels"] as Record<string, string>, value: numberOf(o["value"], name) }];
    if (o["value"] !== undefined) return [{ name, labels: {}, value: numberOf(o["value"], name) }];
    if (typeof o["values"] === "object" && o["values"] !== null) return byLabelValue(name, o["values"] as Record<string, unknown>);
    throw new VectorError(`expectMetric ${name}: give value, values, labels with value, or wants`);
  }
  return Object.entries(o).flatMap(([metric, v]) =>
    typeof v === "object" && v !== null ? byLabelValue(metric, v as Record<string, unknown>) : [{ name: metric, labels: {}, value: numberOf(v, metric) }],
  );
}

function byLabelValue(name: string, values: Record<string, unknown>): Sample[] {
  const label = name === CONTAINERS ? "container_state" : "label";
  return Object.entries(values).map(([k, v]) => ({ name, labels: { [label]: k }, value: numberOf(v, name) }));
}

function numberOf(v: unknown, name: string): number {
  const n = typeof v === "string" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n)) throw new VectorError(`expectMetric ${name}: ${show(v)} is not a number`);
  return n;
}

/** Prometheus text exposition: `name{k="v",...} value` per line. */
function parseExposition(text: string): Sample[] {
  return text.split("\n").flatMap((line) => {
    const t = line.trim();
    if (t === "" || t.startsWith("#")) return [];
    const m = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})?\s+(\S+)$/.exec(t);
    if (m === null) throw new VectorError(`expectMetric: cannot read the line ${JSON.stringify(t)}`);
    const labels = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!]));
    return [{ name: m[1]!, labels, value: numberOf(m[3], m[1]!) }];
  });
}

/** GatherAndCompare for the metric families the expectation names: the same samples, no more, no fewer. */
export function checkMetrics(expect: unknown, m: RunningPodAndContainerMetrics): string[] {
  const want = expectedSamples(expect);
  const names = new Set(want.map((s) => s.name));
  const unknown = [...names].filter((n) => n !== CONTAINERS && n !== PODS);
  if (unknown.length > 0) throw new VectorError(`expectMetric: the PLEG sets no metric ${unknown.join(", ")} (it sets ${CONTAINERS} and ${PODS})`);
  const key = (s: Sample) => `${s.name}{${Object.entries(s.labels).sort().map(([k, v]) => `${k}="${v}"`).join(",")}}`;
  const table = (list: Sample[]) => Object.fromEntries(list.map((s) => [key(s), s.value]));
  return diffValues(table(want), table(gatheredSamples(m).filter((s) => names.has(s.name))), "metrics");
}
