// A pod of the scenario: an unchanged v1.Pod manifest, where it comes from, and what its
// containers do.
import { z } from "zod";
import { podSchema } from "../../k8s/pod.ts";
import { containerBehaviourSchema } from "./behaviour.ts";
import { obj } from "./common.ts";

export const podEntrySchema = obj({
  manifest: podSchema.describe(
    "An unchanged v1.Pod, as `kubectl get pod -o yaml` prints it. Fields the simulator does not model are " +
      "accepted and listed once as ignored; apiserver defaults are applied.",
  ),
  source: z
    .enum(["api", "file"])
    .default("api")
    .describe(
      "Where the kubelet gets the pod: api (created through the apiserver by `create` steps) or file (a static " +
        "pod manifest, added by `staticAdd` steps; the kubelet mirrors it to the apiserver).",
    ),
  skipApiValidation: z
    .boolean()
    .default(false)
    .describe(
      "Store and run this pod even though the apiserver would reject it as invalid (for a static pod: even though " +
        "the kubelet's own check would), to study what the kubelet does with a pod that only a bug could create. " +
        "The trace marks the pod's apiserver requests `apiValidation: skipped (skipApiValidation)`.",
    ),
  behaviour: z
    .record(z.string(), containerBehaviourSchema)
    .default({})
    .describe(
      "What each container does, by container name (init containers and sidecars included). Containers not " +
        "listed run until stopped; init containers not listed exit 0 after 1s.",
    ),
}).describe("A pod the scenario can create, with its containers' behaviour.");

export type PodEntryParsed = z.output<typeof podEntrySchema>;
