// A pod of the scenario: a manifest (a v1.Pod, or a workload whose controller makes the pod), where
// the kubelet gets it from, and what its containers do.
import { z } from "zod";
import { podSchema } from "../../k8s/pod_schema.ts";
import { containerBehaviourSchema } from "./behaviour.ts";
import { obj } from "./common.ts";
import type { PodEntryParsed } from "../types/scenario.ts";

export type { PodEntryParsed };

export const podEntrySchema = obj({
  manifest: podSchema
    .optional()
    .describe(
      "The pod: an unchanged v1.Pod, as `kubectl get pod -o yaml` prints it, or a Deployment, ReplicaSet, StatefulSet, " +
        "DaemonSet, Job, CronJob, ReplicationController or Argo Rollout, whose pod is the one its controller would create " +
        "from the template (docs/manifests.md says what each adds). Fields a cluster sets (status, uid, resourceVersion, " +
        "managedFields...) are handled as a new create would; an explicit null is unset, as the apiserver reads it; an " +
        "apiVersion the kubelet's release no longer serves is an error; fields the simulator does not model, the pod's " +
        "and the workload's, are accepted and listed once as ignored; apiserver defaults are applied.",
    ),
  manifestFile: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Instead of `manifest`: a file holding the manifest (one object), relative to the scenario file. Errors in it are " +
        "reported in that file.",
    ),
  source: z
    .enum(["api", "file"])
    .default("api")
    .describe(
      "Where the kubelet gets the pod: api (created through the apiserver by `create` steps) or file (a static " +
        "pod manifest, added by `staticAdd` steps; the kubelet mirrors it to the apiserver). A mirror pod copied " +
        "from a node (annotation kubernetes.io/config.mirror) with source file runs as the static pod it mirrors.",
    ),
  skipApiValidation: z
    .boolean()
    .default(false)
    .describe(
      "Store and run this pod even though the apiserver would reject it as invalid (for a static pod: even though " +
        "the kubelet's own check would), to study what the kubelet does with a pod that only a bug could create. " +
        "The trace marks the pod's apiserver requests `apiValidation: skipped (skipApiValidation)`.",
    ),
  replicas: z
    .number()
    .int()
    .min(0)
    .max(5000)
    .optional()
    .describe(
      "In a cluster (`nodes:`), for a Deployment, a ReplicaSet or a StatefulSet: how many pods its controller keeps (the " +
        "manifest's spec.replicas, default 1, when omitted); `create` hands the workload to the controller, `delete` " +
        "removes it and its pods. The first pod takes the entry's name (the one expectations use): a StatefulSet's is <set>-0.",
    ),
  job: obj({
    parallelism: z.number().int().min(0).max(5000).describe("spec.parallelism: at most this many pods run at once."),
    completions: z.number().int().min(0).max(5000).nullable().describe("spec.completions: the Job is complete after this many pods succeed; null: the first success ends it (a work queue)."),
    backoffLimit: z.number().int().min(0).max(1000).describe("spec.backoffLimit: the Job fails once more pods than this have failed."),
    podReplacementPolicy: z
      .enum(["TerminatingOrFailed", "Failed"])
      .optional()
      .describe("spec.podReplacementPolicy (KEP-3939; honoured from 1.29, where the JobPodReplacementPolicy gate is on by default): Failed makes a replacement wait until the pod it replaces is Failed; TerminatingOrFailed (the default) replaces a pod as soon as it is being deleted."),
  })
    .optional()
    .describe(
      "In a cluster (`nodes:`), for a Job: what its Job controller reads (the manifest's spec, with the apiserver's " +
        "defaults 1, 1 and 6, when omitted); `create` hands the Job to the controller, `delete` removes it and its pods.",
    ),
  behaviour: z
    .record(z.string(), containerBehaviourSchema)
    .default({})
    .describe(
      "What each container does, by container name (init containers and sidecars included). Containers not " +
        "listed run until stopped; a Job's, a CronJob's and a Job-owned pod's exit 0 (after the sleep N their command " +
        "ends with, else after 5s); init containers not listed exit 0 after 1s.",
    ),
})
  .superRefine((e, ctx) => {
    if (e.manifest !== undefined && e.manifestFile !== undefined) {
      ctx.addIssue({ code: "custom", path: ["manifestFile"], message: "expected manifest or manifestFile, not both" });
    } else if (e.manifest === undefined && e.manifestFile === undefined) {
      ctx.addIssue({ code: "custom", message: "missing required field; expected manifest (a Pod or a workload) or manifestFile (a path)" });
    }
  })
  .describe("A pod the scenario can create, with its containers' behaviour.");
