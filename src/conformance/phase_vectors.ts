// Runs phase.yaml vectors (TestPodPhaseWith* tables of kubelet_pods_test.go) through getPhase.
//
// The Go tests call getPhase(pod, initStatuses ++ statuses, podIsTerminal) directly; so does this,
// with the era of the kubelet minor the file's pin shows.
import { z } from "zod";
import { getPhase, kubeletPodsEra, type KubeletPodsEra } from "../kubelet/kubelet_pods.ts";
import { containerFrom, containerStatusFrom, encodedContainerSchema, encodedStatusSchema, staticAnnotations, testPod } from "./oracle2_pods.ts";
import { skip, type Outcome, type RunContext } from "./outcome.ts";

export const phaseVectorSchema = z.looseObject({
  name: z.string(),
  id: z.string().optional(),
  pinnedAt: z.string().optional(),
  pod: z.looseObject({
    staticPod: z.boolean().optional(),
    annotations: z.record(z.string(), z.string()).optional(),
    spec: z.looseObject({
      nodeName: z.string().optional(),
      restartPolicy: z.enum(["Always", "OnFailure", "Never"]),
      initContainers: z.array(encodedContainerSchema).optional(),
      containers: z.array(encodedContainerSchema),
    }),
  }),
  initContainerStatuses: z.array(encodedStatusSchema),
  containerStatuses: z.array(encodedStatusSchema),
  podIsTerminal: z.boolean(),
  podHasInitialized: z.boolean().optional(),
  expect: z.looseObject({ phase: z.enum(["Pending", "Running", "Succeeded", "Failed"]) }),
});

export type PhaseVector = z.infer<typeof phaseVectorSchema>;

/**
 * Vectors from the newer upstream line call getPhase with a podHasInitialized argument (#128516,
 * read from PodStatus.ActiveContainerStatuses). The models have not ported that change: every
 * release they run, 1.35 included, decides from HasAnyRegularContainerStarted, as the pinned 1.33
 * development line's own vectors check.
 */
const NEWER_LINE =
  "from a newer upstream line (getPhase(pod, statuses, podIsTerminal, podHasInitialized), #128516), which the models have not ported: their getPhase is the pinned line's 3-argument one in every release";

/**
 * The era a vector of the pinned line runs under. The pin (aba588cd, "v1.33 development line") is
 * 1.33 code from before #128516 merged: its getPhase has 3 arguments and its vectors carry no
 * podHasInitialized, so they run as that release without the 1.33.0 change.
 */
function pinnedEra(minor: number): KubeletPodsEra {
  return { ...kubeletPodsEra(minor), podHasInitializedArg: false };
}

export function runPhaseVector(v: PhaseVector, ctx: RunContext): Outcome {
  if (ctx.newerLine || v.podHasInitialized !== undefined) return skip(NEWER_LINE);
  const annotations = staticAnnotations(v.pod.staticPod === true, v.pod.annotations);
  const pod = testPod(annotations === undefined ? {} : { annotations }, {
    ...(v.pod.spec.nodeName === undefined ? {} : { nodeName: v.pod.spec.nodeName }),
    restartPolicy: v.pod.spec.restartPolicy,
    initContainers: (v.pod.spec.initContainers ?? []).map(containerFrom),
    containers: v.pod.spec.containers.map(containerFrom),
  });
  const info = [...v.initContainerStatuses, ...v.containerStatuses].map(containerStatusFrom);
  const phase = getPhase(pod, info, v.podIsTerminal, pinnedEra(ctx.minor));
  return phase === v.expect.phase ? [] : [`phase: expected ${v.expect.phase}, got ${phase}`];
}
