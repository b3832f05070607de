// The scenario's pods as the cluster would judge them: a pod created through the apiserver must
// pass its validation (else the scenario is refused, at the field, with the apiserver's words);
// a static pod that the kubelet's own check would refuse is a warning, since the kubelet then only
// logs and skips the file, which a scenario may want to show.
import { defaultPod } from "../k8s/defaults.ts";
import type { Pod } from "../k8s/pod.ts";
import { validatePodForCreate, decodeErrors, errorText } from "../apiserver/validation/index.ts";
import { applyDefaultsAfterUID, staticPodErrors } from "../kubelet/config/static_pod.ts";
import type { PathIssue } from "./errors.ts";
import type { ParsedScenario } from "./types/scenario.ts";

export interface ApiValidationResult {
  issues: PathIssue[];
  warnings: PathIssue[];
}

const REASONS = { 400: "400 BadRequest", 422: "422 Invalid" } as const;

/** The apiserver's verdict on each api pod, the kubelet's on each static pod, placed in the file. */
export function checkPodsAgainstApi(parsed: ParsedScenario): ApiValidationResult {
  const out: ApiValidationResult = { issues: [], warnings: [] };
  parsed.pods.forEach((entry, i) => {
    // The loader reads every manifestFile in first; an entry without its manifest was reported.
    if (entry.skipApiValidation || entry.manifest === undefined) return;
    const base: PropertyKey[] = ["pods", i, "manifest"];
    if (entry.source === "api") apiPodIssues(entry.manifest, base, out.issues);
    else staticPodWarnings(entry.manifest, parsed.node.name ?? parsed.kubelet.nodeName, base, out.warnings);
  });
  return out;
}

function apiPodIssues(manifest: Pod, base: PropertyKey[], into: PathIssue[]): void {
  const r = validatePodForCreate(manifest);
  for (const x of r.rejections) {
    into.push({ path: [...base, ...x.path], message: `the apiserver would reject this pod with ${REASONS[x.code]}: ${x.message}` });
  }
}

/** As tryDecodeSinglePod does: decode, applyDefaults (without the UID, which no check reads), validate. */
function staticPodWarnings(manifest: Pod, nodeName: string, base: PropertyKey[], into: PathIssue[]): void {
  const why = "the kubelet would skip this static pod's file (it logs the error and runs nothing)";
  const undecodable = decodeErrors(manifest);
  for (const e of undecodable) into.push({ path: [...base, ...e.path], message: `${why}: couldn't parse as pod(${e.message})` });
  if (undecodable.length > 0) return;
  const pod = defaultPod(manifest);
  applyDefaultsAfterUID(pod, nodeName);
  for (const e of staticPodErrors(pod)) into.push({ path: [...base, ...e.path], message: `${why}: invalid pod: ${errorText(e)}` });
}
