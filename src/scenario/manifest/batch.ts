// Models what the batch controllers give their pods: job/job_controller.go + indexed_job_utils.go
// and pkg/registry/batch/job/strategy.go (generateSelector), cronjob/utils.go (getJobFromTemplate2).
// A Job's first pod is the one run (`parallelism` and `completions` are listed as not modelled);
// it runs to completion: its containers' default programs exit. Not added: the
// batch.kubernetes.io/job-tracking finalizer (no Job controller runs to remove it).
import { ownerUid } from "./names.ts";
import { isObj, str, type Raw } from "../podindex.ts";
import {
  at, labelsOf, metaOf, named, nameOf, namespaceOf, podFromTemplate, prefixOf, templateOf, unreadKeys,
  type Controller, type ControllerContext, type PodFromController,
} from "./template.ts";

/** A Job's containers run this long, then exit 0, when the scenario gives them no behaviour and their command says nothing. */
export const JOB_CONTAINER_RUN = "5s";
/** Virtual time 0 (apiserver/time.ts EPOCH_RFC3339, 2025-01-01T00:00:00Z) in minutes since the Unix epoch. */
export const EPOCH_UNIX_MINUTES = 28_928_160;

/** The Job spec fields the simulator reads: the template, and what decides the pod's labels and name. */
const JOB_READS = ["template", "completionMode", "manualSelector"];

function jobPod(obj: Raw, ctx: ControllerContext, templatePath: readonly string[]): PodFromController {
  const ns = namespaceOf(obj);
  const name = nameOf(obj);
  const pod = podFromTemplate(templateOf(obj, templatePath), { apiVersion: "batch/v1", kind: "Job", name, namespace: ns });
  const added: string[] = [];
  // generateSelector (pkg/registry/batch/job/strategy.go): unless manualSelector, the template's labels.
  if (at(obj, ["spec", "manualSelector"]) !== true) {
    const uid = ownerUid(`${ns}/Job/${name}`);
    const l = labelsOf(pod);
    if (ctx.minor >= 27) Object.assign(l, { "batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name });
    Object.assign(l, { "controller-uid": uid, "job-name": name });
    added.push(`labels ${ctx.minor >= 27 ? "batch.kubernetes.io/controller-uid, batch.kubernetes.io/job-name, " : ""}controller-uid, job-name`);
  }
  let prefix = prefixOf(name);
  if (at(obj, ["spec", "completionMode"]) === "Indexed") {
    prefix = `${name}-0-`;
    const meta = metaOf(pod);
    meta.annotations = { ...(isObj(meta.annotations) ? meta.annotations : {}), "batch.kubernetes.io/job-completion-index": "0" };
    if (ctx.minor >= 28) labelsOf(pod)["batch.kubernetes.io/job-completion-index"] = "0";
    (pod.spec as Raw).hostname = `${name}-0`;
    added.push("completion index 0 (annotation, hostname)");
  }
  named(pod, prefix, `${ns}/Job/${name}`);
  added.unshift(`name ${nameOf(pod)}`);
  added.push(`ownerReferences: Job ${name}`);
  return { pod, added, runsToCompletion: true };
}

export const job: Controller = {
  kind: "Job",
  apiVersions: ["batch/v1"],
  templatePath: ["spec", "template"],
  assumes: `its first pod, named <job>-<5 characters> (<job>-0-<5 characters> when Indexed), labelled as the apiserver labels a Job's template; its containers exit 0 after ${JOB_CONTAINER_RUN} (after N s for a sleep N command)`,
  unmodelled: (obj) => unreadKeys(obj, ["spec"], JOB_READS),
  validate: (obj) => validateJobCounts(obj),
  podFor: (obj, ctx) => jobPod(obj, ctx, ["spec", "template"]),
};

/** The Job spec fields a cluster's Job controller reads (controllers/job.ts). */
export const JOB_COUNTS = ["parallelism", "completions", "backoffLimit"] as const;

/** ValidateJobSpec: parallelism, completions and backoffLimit are whole numbers, at least 0. */
function validateJobCounts(obj: Raw) {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const out: { path: PropertyKey[]; message: string }[] = [];
  for (const f of JOB_COUNTS) {
    const v = spec[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== "number" || !Number.isInteger(v)) out.push({ path: ["spec", f], message: `Invalid value: ${JSON.stringify(v)}: must be a whole number` });
    else if (v < 0) out.push({ path: ["spec", f], message: `Invalid value: ${v}: must be greater than or equal to 0` });
  }
  const policy = spec.podReplacementPolicy;
  if (policy !== undefined && policy !== null && policy !== "Failed" && policy !== "TerminatingOrFailed") {
    out.push({ path: ["spec", "podReplacementPolicy"], message: `Unsupported value: ${JSON.stringify(policy)}: supported values: "Failed", "TerminatingOrFailed"` });
  }
  return out;
}

/** A Job's counts with the apiserver's defaults (SetDefaults_Job): both unset is 1 and 1; backoffLimit 6. */
export function jobCountsOf(obj: Raw): { parallelism: number; completions: number | null; backoffLimit: number; podReplacementPolicy?: "TerminatingOrFailed" | "Failed" } {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const n = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : undefined);
  const parallelism = n(spec.parallelism);
  const completions = n(spec.completions);
  return {
    parallelism: parallelism ?? 1,
    completions: completions ?? (parallelism === undefined ? 1 : null),
    backoffLimit: n(spec.backoffLimit) ?? 6,
    ...(spec.podReplacementPolicy === "Failed" || spec.podReplacementPolicy === "TerminatingOrFailed" ? { podReplacementPolicy: spec.podReplacementPolicy } : {}),
  };
}

export const cronJob: Controller = {
  kind: "CronJob",
  apiVersions: ["batch/v1"],
  templatePath: ["spec", "jobTemplate", "spec", "template"],
  assumes: `the pod of the Job its schedule creates at the run's start, <cronjob>-${EPOCH_UNIX_MINUTES} (minutes since the Unix epoch of 2025-01-01T00:00:00Z); its containers exit 0 after ${JOB_CONTAINER_RUN} (after N s for a sleep N command)`,
  // The schedule is read as "fires at the run's start", said in the assumptions.
  unmodelled: (obj) => [...unreadKeys(obj, ["spec"], ["jobTemplate", "schedule"]), ...unreadKeys(obj, ["spec", "jobTemplate", "spec"], JOB_READS)],
  validate: () => [],
  podFor(obj, ctx) {
    // getJobFromTemplate2: the Job is named after the scheduled time, in minutes.
    const jobName = `${nameOf(obj)}-${EPOCH_UNIX_MINUTES}`;
    const jt = templateOf(obj, ["spec", "jobTemplate"]);
    const jm = isObj(jt.metadata) ? jt.metadata : {};
    const theJob: Raw = { metadata: { ...jm, name: jobName, namespace: namespaceOf(obj) }, spec: isObj(jt.spec) ? jt.spec : {} };
    const r = jobPod(theJob, ctx, ["spec", "template"]);
    return { ...r, added: [`Job ${jobName}, as if the schedule ${JSON.stringify(str(at(obj, ["spec", "schedule"])) ?? "")} fired at the run's start`, ...r.added] };
  },
};
