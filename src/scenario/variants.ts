// Variants of a loaded scenario, for running the same story under another kubelet (the buggy and
// the fixed era of a race). Feature gates keep the values the file resolved for its own version.
import type { Scenario } from "./resolve.ts";
import { isSupportedKubeletVersion, parseKubeletVersion } from "../kubelet/version.ts";

export function withKubeletVersion(scenario: Scenario, version: string): Scenario {
  const v = parseKubeletVersion(version);
  if (v === null || !isSupportedKubeletVersion(v)) throw new Error(`expected a kubelet version like "1.22" or "1.22.4", found "${version}"`);
  return { ...scenario, kubelet: { ...scenario.kubelet, version: version.replace(/^v/, ""), minor: v.minor, patch: v.patch } };
}
