// Variants of a loaded scenario, for running the same story under another kubelet (the buggy and
// the fixed era of a race). Feature gates keep the values the file resolved for its own version.
import type { Scenario } from "./resolve.ts";

export function withKubeletVersion(scenario: Scenario, version: string): Scenario {
  const m = /^1\.(\d+)$/.exec(version);
  if (m === null) throw new Error(`expected a kubelet version like "1.22", found "${version}"`);
  return { ...scenario, kubelet: { ...scenario.kubelet, version, minor: Number(m[1]) } };
}
