// Models `kubectl get pods -w` output: the header once, then one row per change of a pod, aligned by
// kubectl's tabwriter (minwidth 6, padding 3, RememberWidths, one flush per row), so a row wider
// than the ones before widens its column from then on, as in a real terminal.
//
// The rows come from PodView records, which carry the columns printPod computed when the pod
// changed; AGE is computed here, at the instant of the change.
import { humanDuration, simMsFromRFC3339 } from "../k8s/printers.ts";
import { podMatches, podOf, str, type TraceRecord } from "./records.ts";
import { TabWriter } from "./tabwriter.ts";

export interface PodsOptions {
  /** Only this pod ("ns/name" or "name"). */
  pod?: string;
  /** Print a NAMESPACE column (kubectl get -A); default: when the pods span several namespaces. */
  allNamespaces?: boolean;
  /** Skip a row whose READY, STATUS and RESTARTS equal the pod's previous row. Default true. */
  dedup?: boolean;
}

/** printers.GetNewTabWriter's settings. */
const GET_TABS = { minwidth: 6, padding: 3, rememberWidths: true } as const;

interface View {
  t: number;
  pod: string;
  key: string;
  ready: string;
  status: string;
  restarts: string;
  deleted: boolean;
  createdMs: number | undefined;
  /** The node the pod is bound to (a cluster's PodView records say; undefined for one node). */
  node: string | undefined;
}

function viewOf(rec: TraceRecord): View | undefined {
  const pod = podOf(rec);
  const status = str(rec, "status");
  if (rec.kind !== "PodView" || pod === undefined || status === undefined) return undefined;
  const created = str(rec, "creationTimestamp");
  return {
    t: rec.t,
    pod,
    key: str(rec, "uid") ?? pod,
    ready: str(rec, "ready") ?? "",
    status,
    restarts: str(rec, "restarts") ?? "",
    deleted: rec["deleted"] === true,
    createdMs: created === undefined ? undefined : simMsFromRFC3339(created),
    node: str(rec, "node"),
  };
}

/** Renders the watch. */
export function renderPods(records: readonly TraceRecord[], opts: PodsOptions = {}): string {
  const views: View[] = [];
  for (const rec of records) {
    const v = viewOf(rec);
    if (v !== undefined && (opts.pod === undefined || podMatches(v.pod, opts.pod))) views.push(v);
  }
  if (views.length === 0) return "No resources found.\n";
  const namespaces = new Set(views.map((v) => namespaceOf(v.pod)));
  const withNamespace = opts.allNamespaces ?? namespaces.size > 1;
  // Of a cluster, the NODE column of `-o wide` (kubectl prints <none> for a pod not yet bound).
  const withNode = new Set(views.map((v) => v.node).filter((n) => n !== undefined && n !== "")).size > 1;
  const w = new TabWriter(GET_TABS);
  w.line([...(withNamespace ? ["NAMESPACE"] : []), "NAME", "READY", "STATUS", "RESTARTS", "AGE", ...(withNode ? ["NODE"] : [])]);
  const createdMs = new Map<string, number>();
  const lastCols = new Map<string, string>();
  for (const v of views) {
    // Without a creationTimestamp, the pod was created when it was first seen.
    if (!createdMs.has(v.key)) createdMs.set(v.key, v.createdMs ?? v.t);
    const cols = [v.ready, v.status, v.restarts, ...(withNode ? [v.node ?? ""] : [])].join("\u0000");
    if (opts.dedup !== false && !v.deleted && lastCols.get(v.key) === cols) continue;
    lastCols.set(v.key, cols);
    const age = humanDuration(v.t - createdMs.get(v.key)!);
    const name = withNamespace ? [namespaceOf(v.pod), nameOf(v.pod)] : [nameOf(v.pod)];
    w.line([...name, v.ready, v.status, v.restarts, age, ...(withNode ? [v.node === undefined || v.node === "" ? "<none>" : v.node] : [])]);
    w.flush();
  }
  return w.text();
}

function namespaceOf(pod: string): string {
  const slash = pod.indexOf("/");
  return slash < 0 ? "" : pod.slice(0, slash);
}

function nameOf(pod: string): string {
  return pod.slice(pod.indexOf("/") + 1);
}
