// The node's address reaches pod statuses (generateAPIPodStatus: getHostIPsAnyWay): every pod gets
// status.hostIP (and hostIPs from 1.29), a host-network pod gets it as its pod IP too, and a pod on
// the pod network keeps the IP its sandbox got.
import { describe, expect, it } from "vitest";
import type { Pod } from "../../src/k8s/pod.ts";
import { Sim } from "../../src/sim/index.ts";
import { SimCluster } from "../../src/node/cluster.ts";
import { startTimeline } from "../../src/node/timeline.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";

function lastStatuses(version: string): Map<string, Pod> {
  const { scenario } = loadScenarioText(`
name: host-ip
until: 20s
kubelet: { version: "${version}", nodeIP: 172.18.0.2 }
pods:
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: host }, spec: { hostNetwork: true, containers: [{ name: c, image: nginx:1.25 }] } }
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: web }, spec: { containers: [{ name: c, image: nginx:1.25 }] } }
timeline:
  - { at: 0s, create: host }
  - { at: 0s, create: web }
`, "host-ip.yaml");
  const sim = new Sim({ seed: scenario.seed, strategy: { name: "fifo" }, bounds: { untilMs: scenario.untilMs } });
  const cluster = new SimCluster(sim, scenario);
  const last = new Map<string, Pod>();
  cluster.first.apiObservers.push((e) => last.set(e.object.metadata.name, e.object));
  startTimeline(sim, cluster, scenario.timeline);
  sim.run();
  return last;
}

describe.each(["1.30", "1.21"])("host IP, kubelet %s", (version) => {
  const pods = lastStatuses(version);

  it("sets status.hostIP to the node's address on every pod", () => {
    expect(pods.get("host")!.status!.hostIP).toBe("172.18.0.2");
    expect(pods.get("web")!.status!.hostIP).toBe("172.18.0.2");
    expect(pods.get("web")!.status!.hostIPs).toEqual(version === "1.30" ? [{ ip: "172.18.0.2" }] : undefined);
  });

  it("gives a host-network pod the node's address as its pod IP, and others their sandbox's", () => {
    expect(pods.get("host")!.status!.podIP).toBe("172.18.0.2");
    expect(pods.get("host")!.status!.podIPs).toEqual([{ ip: "172.18.0.2" }]);
    expect(pods.get("web")!.status!.podIP).toMatch(/^10\.244\.0\.\d+$/);
  });
});
