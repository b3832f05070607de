// The release boundaries read from upstream's fix PRs and release branches, one test each:
// dispatchWork's terminal shortcut (PR #98742, v1.21.0), initialization proven by a running main
// container (PR #96572, v1.21.0; kuberuntime/init_era.test.ts has its table) and the static pod
// start gate (PR #104743 in v1.23.0, cherry-picked as #106394 into v1.22.5), and the phase of a
// pod re-initialized after a node reboot (PR #128516, v1.33.0, no cherry-pick found).
import { describe, expect, it } from "vitest";
import { dispatchSkipsTerminalPod } from "../../src/kubelet/kubelet_handlers_legacy.ts";
import { mainContainersEndInitialization } from "../../src/kubelet/kuberuntime/kuberuntime_container.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import { simulate } from "../../src/simulate.ts";

describe("dispatchWork's shortcut for terminal pods (PR #98742)", () => {
  it.each([
    // version, podWorkerTerminal, containersTerminal, skips the worker
    ["1.19", true, false, true],
    ["1.20.15", true, false, true],
    ["1.20.15", true, true, true],
    ["1.21", true, false, false],
    ["1.21", true, true, true],
    ["1.21.14", false, true, false],
  ] as const)("%s: terminal=%s containersTerminal=%s → skip %s", (v, pod, containers, want) => {
    expect(dispatchSkipsTerminalPod(v, pod, containers)).toBe(want);
  });
});

describe("a running main container proves initialization done (PR #96572)", () => {
  it("from 1.21.0, not in any 1.20.x", () => {
    expect(["1.20", "1.20.15", "1.21.0"].map(mainContainersEndInitialization)).toEqual([false, false, true]);
  });
});

describe("static pods of one full name start one at a time (PR #104743, #106394)", () => {
  const scenario = (version: string) =>
    loadScenarioText(`
name: static-update
until: 70s
kubelet: { version: "${version}" }
pods:
  - source: file
    manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: etcd, namespace: kube-system }
      spec:
        terminationGracePeriodSeconds: 60
        containers: [{ name: etcd, image: "etcd:3.5.0" }]
    behaviour:
      etcd: { onSigterm: { exitAfter: 20s, exitCode: 0 } }
timeline:
  - { at: 0s, staticAdd: etcd }
  - { at: 5s, staticUpdate: { pod: etcd, container: etcd, image: "etcd:3.5.1" } }
`).scenario;
  const starts = (version: string) => {
    const r = simulate(scenario(version));
    const started = r.records!.filter((x) => x.component === "runtime" && x.kind === "StartContainer" && x.result === "ok").map((x) => x.t);
    const exited = r.records!.find((x) => x.component === "runtime" && x.kind === "ContainerExited")?.t;
    return { second: started[1]!, oldExit: exited! };
  };

  it.each(["1.22.0", "1.22.4"])("%s starts the new pod while the old one still runs", (v) => {
    const { second, oldExit } = starts(v);
    expect(second).toBeLessThan(oldExit);
  });

  it.each(["1.22.5", "1.23", "1.30"])("%s starts it only after the old one stopped", (v) => {
    const { second, oldExit } = starts(v);
    expect(second).toBeGreaterThan(oldExit);
  });
});

describe("a pod re-initialized after a node reboot is Pending again (PR #128516, v1.33.0)", () => {
  // A sidecar with a startup probe that fails for its first 8s, and an app. The node reboots at
  // 30s; at 40s the kubelet creates a new sandbox and the sidecar runs again, not yet started.
  const scenario = (version: string) =>
    loadScenarioText(`
name: sidecar-phase-after-reboot
until: 1m10s
kubelet: { version: "${version}" }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web, namespace: default }
      spec:
        initContainers:
          - name: proxy
            image: example/proxy:1
            restartPolicy: Always
            startupProbe:
              httpGet: { path: /ready, port: 15021 }
              periodSeconds: 2
              failureThreshold: 30
        containers:
          - { name: app, image: example/web:1 }
    behaviour:
      proxy:
        probes:
          startup:
            - { to: 8s, result: failure }
timeline:
  - { at: 0s, create: web }
  - { at: 30s, rebootNode: { downtime: 10s } }
`).scenario;
  /** The phases the kubelet set after the reboot, in order, without repeats. */
  const phasesAfterReboot = (version: string) => {
    const r = simulate(scenario(version));
    const set = r.records!.filter((x) => x.component === "status" && x.kind === "SetPodStatus" && x.t > 30_000).map((x) => x["phase"]);
    return set.filter((p, i) => i === 0 || p !== set[i - 1]);
  };

  it.each(["1.32.0", "1.32.13"])("%s: the old sandbox's exited app keeps the pod Running", (v) => {
    expect(phasesAfterReboot(v)).toEqual(["Running"]);
  });

  it.each(["1.33.0", "1.35"])("%s: Pending until an app container exists in the new sandbox", (v) => {
    expect(phasesAfterReboot(v)).toEqual(["Running", "Pending", "Running"]);
  });
});
