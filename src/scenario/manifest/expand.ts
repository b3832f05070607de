// One manifest object (a Pod, or a workload with a pod template) to the pod the kubelet would get:
// explicit nulls read as unset (nulls.ts), the apiVersion checked against what the cluster's
// release serves (api_versions.ts), the controller's additions (controllers.ts), the server-set
// fields of a pod copied from `kubectl get -o yaml` (server_fields.ts), whether the pod runs to
// completion (a Job's, a Job-owned pod's, a run-once pod's), the fields nothing here models, and a
// map from the pod's field paths back to the object's, so an error is reported where it was written.
import { JOB_CONTAINER_RUN } from "./batch.ts";
import { unservedApiVersion } from "./api_versions.ts";
import { commandRunTime, regularContainers } from "./commands.ts";
import { controllerOf, CONTROLLERS, noPodReason } from "./controllers.ts";
import { generateName } from "./names.ts";
import { decodePodNulls, decodeWorkloadNulls } from "./nulls.ts";
import { asStaticPod, CONFIG_MIRROR, handleServerFields } from "./server_fields.ts";
import type { ControllerContext, ObjectIssue } from "./template.ts";
import { isObj, list, str, type Raw } from "../podindex.ts";

export type { ObjectIssue } from "./template.ts";

/** The kinds a manifest may hold, for messages: "Pod, Deployment, ...". */
export const ACCEPTED_KINDS = ["Pod", ...CONTROLLERS.map((c) => c.kind)];

export interface Expanded {
  /** The pod, for the schema and the models; null when the object cannot give one. */
  pod: Raw | null;
  kind: string;
  source: "api" | "file";
  /** What the controller (or the tool) gave the pod, in words. */
  assumptions: string[];
  /** Server-set fields and what became of them, for the note line. */
  handled: string[];
  /** A run-to-completion pod's containers: the program each runs when the scenario gives it none (exit 0 after this long). */
  exitAfter: Record<string, string> | null;
  /** Whether the pod is expected to complete (phase Succeeded), not to stay Ready: every regular container exits. */
  completes: boolean;
  /** The node a pod copied from a cluster is bound to (spec.nodeName, or a mirror pod's node). */
  node: string | null;
  errors: ObjectIssue[];
  warnings: ObjectIssue[];
  /** Paths in the object of workload fields the simulator does not model (a pod's are found by the pod schema). */
  unmodelled: PropertyKey[][];
  /** The object's path of a field of the pod: spec.x of a Deployment's pod is spec.template.spec.x. */
  mapPath(podPath: readonly PropertyKey[]): PropertyKey[];
}

export interface ExpandOptions extends ControllerContext {
  /** The entry's `source` as written; a mirror pod from a manifest file becomes a static pod. */
  source: "api" | "file" | undefined;
  /** True when the object comes from a plain manifest file (no scenario around it). */
  fromManifestFile: boolean;
}

const base = (kind: string) => ({
  kind, source: "api" as const, assumptions: [], handled: [], exitAfter: null, completes: false, node: null, warnings: [], unmodelled: [],
});

export function expandObject(obj: Raw, opts: ExpandOptions): Expanded {
  const kind = str(obj.kind) ?? "Pod";
  const unserved = typeof obj.apiVersion === "string" ? unservedApiVersion(kind, obj.apiVersion, opts.minor) : null;
  if (unserved !== null) return { ...base(kind), pod: null, errors: [{ path: ["apiVersion"], message: unserved }], mapPath: () => [] };
  if (kind === "Pod") return expandPod(decodePodNulls(obj), opts);
  const controller = controllerOf(kind);
  if (controller === undefined) return { ...base(kind), pod: null, errors: [{ path: ["kind"], message: noTemplate(kind) }], mapPath: () => [] };
  const tp = controller.templatePath;
  const mapPath = (p: readonly PropertyKey[]): PropertyKey[] => {
    const [head, ...rest] = p;
    if (head === "spec") return [...tp, "spec", ...rest];
    if (head === "metadata" && (rest[0] === "labels" || rest[0] === "annotations")) return [...tp, "metadata", ...rest];
    if (head === "metadata") return ["metadata", ...rest];
    return [];
  };
  const decoded = decodeWorkloadNulls(obj, tp);
  const errors: ObjectIssue[] = [];
  const meta = isObj(decoded.metadata) ? decoded.metadata : {};
  if (str(meta.name) === undefined || meta.name === "") errors.push({ path: ["metadata", "name"], message: `missing required field; a ${kind} needs a name, which its pods' names derive from` });
  const template = tp.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), decoded);
  if (!isObj(template) || !isObj(template.spec)) {
    errors.push({ path: [...tp], message: `missing required field; a ${kind}'s pods come from its ${tp.join(".")} (metadata and spec)` });
  }
  if (errors.length > 0) return { ...base(kind), pod: null, errors, mapPath };
  errors.push(...controller.validate(decoded).map((x) => ({ ...x, message: `the apiserver would reject this ${kind} with 422 Invalid: ${x.path.join(".")}: ${x.message}` })));
  const made = controller.podFor(decoded, opts);
  const handled = decoded.status !== undefined || meta.managedFields !== undefined || meta.resourceVersion !== undefined
    ? [`${kind} ${String(meta.name)}: status and server-set metadata not read (its controller reads only spec)`]
    : [];
  const r: Expanded = {
    ...base(kind), pod: made.pod, assumptions: [`from ${kind} ${String(meta.name)}: ${made.added.join("; ")}`], handled, errors, mapPath,
    // In a cluster, a Deployment's and a ReplicaSet's replicas are the ReplicaSet controller's (controllers/replicaset.ts).
    unmodelled: controller.unmodelled(decoded).filter((p) => !(opts.cluster === true && readByClusterController(kind, p.join(".")))),
  };
  if (made.runsToCompletion) {
    jobRestartPolicy(r, made.pod, tp);
    runToCompletion(r, made.pod);
  }
  return r;
}

export function noTemplate(kind: string, reason = "no pod template"): string {
  return `${kind} has ${reason === "no pod template" ? "no pod template" : `no pod here: ${reason}`}; kubelet-sim runs pods: expected a ${ACCEPTED_KINDS.slice(0, -1).join(", ")} or ${ACCEPTED_KINDS.at(-1)} (or a List of them), or a kubelet-sim scenario`;
}

/** Why an object is skipped (for the assumptions' "skipped ..." line), as noPodReason says. */
export function skipReason(obj: Raw): string {
  return noPodReason(obj) ?? "no pod template";
}

/** A Job's pods never restart Always: the template's policy, Never when it names none. */
function jobRestartPolicy(r: Expanded, pod: Raw, tp: readonly string[]): void {
  const spec = pod.spec as Raw;
  if (spec.restartPolicy === "Always") {
    r.errors.push({ path: [...tp, "spec", "restartPolicy"], message: 'Unsupported value: "Always": supported values: "OnFailure", "Never" (a Job\'s pods may not restart Always)' });
  } else if (spec.restartPolicy === undefined) {
    spec.restartPolicy = "Never";
    r.assumptions.push("restartPolicy Never (the template names none; the apiserver would refuse the Job for that)");
  }
}

/**
 * A pod that runs to completion: each regular container's default program exits 0, after the
 * `sleep N` its command ends with, else after JOB_CONTAINER_RUN; a command that plainly never
 * ends (`sleep infinity`, `tail -f`) runs until stopped. The pod completes when every one exits.
 */
function runToCompletion(r: Expanded, pod: Raw): void {
  const programs: Record<string, string> = {};
  for (const c of regularContainers(pod)) {
    const name = str(c.name);
    if (name === undefined) continue;
    const t = commandRunTime(c);
    if (t.kind === "exits") programs[name] = `${t.afterSeconds}s`;
    else if (t.kind === "unknown") programs[name] = JOB_CONTAINER_RUN;
  }
  r.exitAfter = programs;
  const containers = regularContainers(pod).length;
  r.completes = containers > 0 && Object.keys(programs).length === containers;
}

/** The Job that owns a pod copied from a cluster (its controller reference), if any. */
function jobOwner(meta: Raw): string | undefined {
  const owners = list(meta.ownerReferences).filter(isObj);
  const job = owners.find((o) => o.kind === "Job" && o.controller === true) ?? owners.find((o) => o.kind === "Job");
  return job === undefined ? undefined : (str(job.name) ?? "?");
}

function expandPod(obj: Raw, opts: ExpandOptions): Expanded {
  const fields = handleServerFields(obj, opts.source);
  let pod = fields.pod;
  const r: Expanded = {
    ...base("Pod"), pod, source: opts.source ?? "api", handled: [...fields.handled],
    node: isObj(obj.spec) ? (str(obj.spec.nodeName) ?? null) : null, errors: [], mapPath: (p) => [...p],
  };
  const meta = pod.metadata as Raw;
  if ((meta.name === undefined || meta.name === "") && typeof meta.generateName === "string" && meta.generateName !== "") {
    // The apiserver's own generator names a pod created with generateName only.
    meta.name = generateName(meta.generateName, `${str(meta.namespace) || "default"}/Pod/${meta.generateName}`);
    r.assumptions.push(`name ${String(meta.name)} (generateName ${meta.generateName})`);
  }
  if (fields.mirrorOf !== null) {
    if (opts.fromManifestFile || opts.source === "file") {
      const s = asStaticPod(pod, fields.mirrorOf.name);
      pod = s.pod;
      r.source = "file";
      r.node = fields.mirrorOf.node;
      r.handled.push(s.handled);
      r.mapPath = (p) => (p[0] === "metadata" && p[1] === "name" ? ["metadata", "name"] : [...p]);
    } else {
      r.warnings.push({
        path: ["metadata", "annotations", CONFIG_MIRROR],
        atKey: true,
        message: "a mirror pod: the kubelet takes a pod with this annotation for the mirror of a static pod and never runs its containers; give this entry `source: file` to run it as the static pod it mirrors",
      });
    }
  }
  r.pod = pod;
  completionOfPod(r, pod, opts);
  return r;
}

/**
 * A pod owned by a Job runs to completion, as its Job's pods do. So does, in a scenario built around
 * a manifest, a pod created through the apiserver with restartPolicy Never or OnFailure: that is
 * how one-off pods are written (kubectl run --restart=Never).
 */
function completionOfPod(r: Expanded, pod: Raw, opts: ExpandOptions): void {
  const owner = jobOwner(pod.metadata as Raw);
  const policy = isObj(pod.spec) ? pod.spec.restartPolicy : undefined;
  if (owner !== undefined) {
    runToCompletion(r, pod);
    r.assumptions.push(`owned by Job ${owner}: runs to completion (${describePrograms(r)})`);
  } else if (opts.fromManifestFile && r.source === "api" && (policy === "Never" || policy === "OnFailure")) {
    runToCompletion(r, pod);
    r.assumptions.push(`restartPolicy ${String(policy)}: runs to completion (${describePrograms(r)})`);
  }
}

function describePrograms(r: Expanded): string {
  const programs = Object.entries(r.exitAfter ?? {});
  if (programs.length === 0) return "its containers' commands never end";
  return programs.map(([c, after]) => `${c} exits 0 after ${after}`).join(", ");
}

/** What a cluster's controllers read of a workload's spec (controllers/): not unmodelled there. */
function readByClusterController(kind: string, path: string): boolean {
  if (kind === "Deployment" || kind === "ReplicaSet" || kind === "StatefulSet") return path === "spec.replicas";
  if (kind === "Job") return ["spec.parallelism", "spec.completions", "spec.backoffLimit", "spec.podReplacementPolicy"].includes(path);
  return false;
}
