// Runs phase.yaml vectors (TestPodPhaseWith* tables of kubelet_pods_test.go) through getPhase.
//
// The Go tests call getPhase(pod, initStatuses ++ statuses, podIsTerminal) directly; so does this,
// with the era of the kubelet minor the file's pin shows. The newer line's tests add the
// podHasInitialized argument (#128516); those vectors run as a release that has it.
import { z } from "zod";
import { getPhase, kubeletPodsEra, type KubeletPodsEra } from "../kubelet/kubelet_pods.ts";
import { containerFrom, containerStatusFrom, encodedContainerSchema, encodedStatusSchema, staticAnnotations, testPod } from "./oracle2_pods.ts";
import { MAX_KUBELET_MINOR } from "../kubelet/version.ts";
import { VectorError, type Outcome, type RunContext } from "./outcome.ts";

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
 * read from PodStatus.ActiveContainerStatuses, shipped in v1.33.0). They run as the newest release
 * the models have, the nearest to that line (001a80e, past 1.35), which has the change.
 */
const NEWER_LINE_RELEASE = MAX_KUBELET_MINOR;

/** A newer-line vector without the argument cannot be called as its line's getPhase is. */
const NO_ARGUMENT =
  "a newer-line vector without podHasInitialized: that line's getPhase(pod, statuses, podIsTerminal, podHasInitialized) needs it";

/**
 * The era a vector of the pinned line runs under. The pin (aba588cd, "v1.33 development line") is
 * 1.33 code from before #128516 merged: its getPhase has 3 arguments and its vectors carry no
 * podHasInitialized, so they run as that release without the 1.33.0 change.
 */
function pinnedEra(minor: number): KubeletPodsEra {
  return { ...kubeletPodsEra(minor), podHasInitializedArg: false };
}

export function runPhaseVector(v: PhaseVector, ctx: RunContext): Outcome {
  if (ctx.newerLine && v.podHasInitialized === undefined) throw new VectorError(NO_ARGUMENT);
  const annotations = staticAnnotations(v.pod.staticPod === true, v.pod.annotations);
  const pod = testPod(annotations === undefined ? {} : { annotations }, {
    ...(v.pod.spec.nodeName === undefined ? {} : { nodeName: v.pod.spec.nodeName }),
    restartPolicy: v.pod.spec.restartPolicy,
    initContainers: (v.pod.spec.initContainers ?? []).map(containerFrom),
    containers: v.pod.spec.containers.map(containerFrom),
  });
  const info = [...v.initContainerStatuses, ...v.containerStatuses].map(containerStatusFrom);
  const phase = v.podHasInitialized === undefined
    ? getPhase(pod, info, v.podIsTerminal, pinnedEra(ctx.minor))
    : getPhase(pod, info, v.podIsTerminal, kubeletPodsEra(ctx.newerLine ? NEWER_LINE_RELEASE : ctx.minor), v.podHasInitialized);
  return phase === v.expect.phase ? [] : [`phase: expected ${v.expect.phase}, got ${phase}`];
}
