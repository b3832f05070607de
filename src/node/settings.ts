// The kubelet's settings for one run: the scenario's kubelet section (upstream KubeletConfiguration
// names, durations in ms) plus the timings of steps the simulator models only as time.
import type { ClusterNode, Scenario } from "../scenario/resolve.ts";
import { nodeOf } from "../scenario/resolve_node.ts";
import type { Node } from "../k8s/node.ts";

/**
 * How long volume attach/mount and pod cgroup creation take. Not KubeletConfiguration fields: the
 * simulator has no volume plugins or cgroup hierarchy, so these stand in for them (10 ms each, a
 * pod with only projected/emptyDir volumes on a local disk).
 */
export const DEFAULT_VOLUME_SETUP_MS = 10;
export const DEFAULT_CGROUP_SETUP_MS = 10;

export type KubeletSettings = Scenario["kubelet"] & {
  volumeSetupMs: number;
  cgroupSetupMs: number;
  /** The kubelet's own Node: what its admission checks pods against (scenario `node:`). */
  node: Node;
};

/** The settings of the scenario's one node, or of `member`, one node of its cluster. */
export function kubeletSettings(scenario: Scenario, member?: ClusterNode): KubeletSettings {
  const { kubelet, node } = member ?? scenario;
  return { ...kubelet, volumeSetupMs: DEFAULT_VOLUME_SETUP_MS, cgroupSetupMs: DEFAULT_CGROUP_SETUP_MS, node: nodeOf(node, kubelet.maxPods) };
}
