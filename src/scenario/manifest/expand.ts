// One manifest object (a Pod, or a workload with a pod template) to the pod the kubelet would get:
// the controller's additions (controllers.ts), the server-set fields of a pod copied from
// `kubectl get -o yaml` (server_fields.ts), a Job's restart policy, and a map from the pod's field
// paths back to the object's, so that an error in the pod is reported where the user wrote it.
import { controllerOf, CONTROLLERS, type ControllerContext } from "./controllers.ts";
import { generateName } from "./names.ts";
import { asStaticPod, CONFIG_MIRROR, handleServerFields } from "./server_fields.ts";
import { isObj, str, type Raw } from "../podindex.ts";

/** The kinds a manifest may hold, for messages: "Pod, Deployment, ...". */
export const ACCEPTED_KINDS = ["Pod", ...CONTROLLERS.map((c) => c.kind)];

/** A problem at a path inside the object (not the scenario). */
export interface ObjectIssue {
  path: PropertyKey[];
  message: string;
  atKey?: boolean;
}

export interface Expanded {
  /** The pod, for the schema and the models; null when the object cannot give one. */
  pod: Raw | null;
  kind: string;
  source: "api" | "file";
  /** What the controller (or the tool) gave the pod, in words. */
  assumptions: string[];
  /** Server-set fields and what became of them, for the note line. */
  handled: string[];
  /** A Job's containers exit 0 after this long when the scenario gives them no behaviour. */
  exitAfter: string | null;
  /** The node a pod copied from a cluster is bound to (spec.nodeName, or a mirror pod's node). */
  node: string | null;
  errors: ObjectIssue[];
  warnings: ObjectIssue[];
  /** The object's path of a field of the pod: spec.x of a Deployment's pod is spec.template.spec.x. */
  mapPath(podPath: readonly PropertyKey[]): PropertyKey[];
}

export interface ExpandOptions extends ControllerContext {
  /** The entry's `source` as written; a mirror pod from a manifest file becomes a static pod. */
  source: "api" | "file" | undefined;
  /** True when the object comes from a plain manifest file (no scenario around it). */
  fromManifestFile: boolean;
}

export function expandObject(obj: Raw, opts: ExpandOptions): Expanded {
  const kind = str(obj.kind) ?? "Pod";
  if (kind === "Pod") return expandPod(obj, opts);
  const controller = controllerOf(kind);
  const base = { kind, source: "api" as const, assumptions: [], handled: [], exitAfter: null, node: null, warnings: [] };
  if (controller === undefined) {
    return { ...base, pod: null, errors: [{ path: ["kind"], message: noTemplate(kind) }], mapPath: () => [] };
  }
  const tp = controller.templatePath;
  const mapPath = (p: readonly PropertyKey[]): PropertyKey[] => {
    const [head, ...rest] = p;
    if (head === "spec") return [...tp, "spec", ...rest];
    if (head === "metadata" && (rest[0] === "labels" || rest[0] === "annotations")) return [...tp, "metadata", ...rest];
    if (head === "metadata") return ["metadata", ...rest];
    return [];
  };
  const errors: ObjectIssue[] = [];
  const meta = isObj(obj.metadata) ? obj.metadata : {};
  if (str(meta.name) === undefined || meta.name === "") errors.push({ path: ["metadata", "name"], message: `missing required field; a ${kind} needs a name, which its pods' names derive from` });
  const template = tp.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), obj);
  if (!isObj(template) || !isObj(template.spec)) {
    errors.push({ path: [...tp], message: `missing required field; a ${kind}'s pods come from its ${tp.join(".")} (metadata and spec)` });
  }
  if (errors.length > 0) return { ...base, pod: null, errors, mapPath };
  const made = controller.podFor(obj, opts);
  const handled = obj.status !== undefined || meta.managedFields !== undefined || meta.resourceVersion !== undefined
    ? [`${kind} ${String(meta.name)}: status and server-set metadata not read (its controller reads only spec)`]
    : [];
  const r = { ...base, pod: made.pod, assumptions: [`from ${kind} ${String(meta.name)}: ${made.added.join("; ")}`], handled, exitAfter: made.exitAfter, errors, mapPath };
  if (made.exitAfter !== null) jobRestartPolicy(r, made.pod, tp);
  return r;
}

export function noTemplate(kind: string): string {
  return `${kind} has no pod template; kubelet-sim runs pods: expected a ${ACCEPTED_KINDS.slice(0, -1).join(", ")} or ${ACCEPTED_KINDS.at(-1)} (or a List of them), or a kubelet-sim scenario`;
}

/** A Job's pods never restart Always: the template's policy, Never when it names none. */
function jobRestartPolicy(r: Expanded & { pod: Raw }, pod: Raw, tp: readonly string[]): void {
  const spec = pod.spec as Raw;
  if (spec.restartPolicy === "Always") {
    r.errors.push({ path: [...tp, "spec", "restartPolicy"], message: 'Unsupported value: "Always": supported values: "OnFailure", "Never" (a Job\'s pods may not restart Always)' });
  } else if (spec.restartPolicy === undefined) {
    spec.restartPolicy = "Never";
    r.assumptions.push("restartPolicy Never (the template names none; the apiserver would refuse the Job for that)");
  }
}

function expandPod(obj: Raw, opts: ExpandOptions): Expanded {
  const fields = handleServerFields(obj, opts.source);
  let pod = fields.pod;
  const r: Expanded = {
    pod, kind: "Pod", source: opts.source ?? "api", assumptions: [], handled: [...fields.handled], exitAfter: null,
    node: isObj(obj.spec) ? (str(obj.spec.nodeName) ?? null) : null, errors: [], warnings: [], mapPath: (p) => [...p],
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
  return r;
}
