// A value sent on a channel, in a learner's words: the pod worker's update (`UpdatePod(kill) for
// default/web`), a PLEG event, a config source's pod update, a watch event, a status sync request.
// Read by shape, not by type: the channels carry plain objects, and the page only names them.
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function podName(pod: unknown): string | null {
  if (!isObj(pod) || !isObj(pod["metadata"])) return null;
  const m = pod["metadata"] as Obj;
  return typeof m["name"] === "string" ? `${typeof m["namespace"] === "string" ? m["namespace"] : "default"}/${m["name"]}` : null;
}

const SHAPES: readonly [(v: Obj) => boolean, (v: Obj) => string][] = [
  // The pod worker's UpdatePodOptions (both designs); the 1.22+ channel carries a bare wake-up.
  [(v) => typeof v["UpdateType"] === "string", (v) => `UpdatePod(${String(v["UpdateType"])})${forPod(v["Pod"])}`],
  // pleg.PodLifecycleEvent
  [(v) => typeof v["Type"] === "string" && typeof v["ID"] === "string", (v) => `the PLEG event ${String(v["Type"])} for pod ${String(v["ID"]).slice(0, 8)}`],
  // kubetypes.PodUpdate from a config source
  [(v) => typeof v["Op"] === "string" && Array.isArray(v["Pods"]), (v) => `${String(v["Op"])} of ${(v["Pods"] as unknown[]).map((p) => podName(p) ?? "?").join(", ") || "no pods"}${typeof v["Source"] === "string" ? ` from ${v["Source"]}` : ""}`],
  // a watch event
  [(v) => typeof v["type"] === "string" && "object" in v, (v) => `a watch event ${String(v["type"])}${forPod(v["object"])}`],
  // the status manager's PodStatusSyncRequest
  [(v) => typeof v["podUID"] === "string" && "status" in v, (v) => `a status update for pod ${String(v["podUID"]).slice(0, 8)}`],
  // a prober result
  [(v) => typeof v["ContainerID"] === "string" && "Result" in v, (v) => `the probe result ${String(v["Result"])} for container ${String(v["ContainerID"]).slice(0, 12)}`],
  // an image pull's result
  [(v) => "imageRef" in v && "err" in v, (v) => (v["err"] === null ? `the pulled image ${String(v["imageRef"])}` : "a failed pull")],
];

function forPod(pod: unknown): string {
  const name = podName(pod);
  return name === null ? "" : ` for ${name}`;
}

/** The value in words; "a signal" for the bare wake-ups (true, null, undefined). */
export function describeValue(v: unknown): string {
  if (v === undefined || v === null || v === true) return "a signal";
  if (typeof v === "string") return `"${v}"`;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (isObj(v)) {
    for (const [is, words] of SHAPES) if (is(v)) return words(v);
    const name = (v.constructor as { name?: string } | undefined)?.name;
    return name !== undefined && name !== "Object" ? `a ${name}` : "a value";
  }
  return "a value";
}
