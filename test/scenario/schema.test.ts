// The schema's defaults, shorthands and resolution: what a scenario means once loaded.
import { describe, expect, it } from "vitest";
import { checkScenarioText, formatIssue, loadScenarioText, programForAttempt } from "../../src/scenario/index.ts";

const POD = `pods:
  - manifest:
      metadata: { name: web }
      spec:
        initContainers:
          - { name: init, image: busybox }
          - { name: proxy, image: envoy, restartPolicy: Always }
        containers:
          - name: app
            image: nginx
            readinessProbe: { httpGet: { port: 80 } }
            lifecycle: { preStop: { exec: { command: [sleep, "5"] } } }
`;
const load = (yaml: string) => loadScenarioText(`name: s\n${yaml}`, "s.yaml");
const errors = (yaml: string) => {
  const r = checkScenarioText(`name: s\n${yaml}`, "s.yaml");
  return r.ok ? [] : r.issues.map(formatIssue);
};

describe("kubelet", () => {
  it("defaults to 1.30 with upstream KubeletConfiguration defaults", () => {
    const k = load("").scenario.kubelet;
    expect(k.version).toBe("1.30");
    expect(k.minor).toBe(30);
    expect(k.runOnce).toBe(false);
    expect(load("").scenario.node.capacity).toEqual({ cpuMilli: 4000, memoryBytes: 16 * 2 ** 30, ephemeralStorageBytes: 100 * 2 ** 30, scalar: {} });
    expect(k.variants).toEqual({});
  });

  it.each([
    ["1.21", { SidecarContainers: false, PodReadyToStartContainersCondition: false, PodLifecycleSleepAction: false, EventedPLEG: false }],
    ["1.28", { SidecarContainers: false, PodReadyToStartContainersCondition: false, PodLifecycleSleepAction: false, EventedPLEG: false }],
    ["1.29", { SidecarContainers: true, PodReadyToStartContainersCondition: true, PodLifecycleSleepAction: false, EventedPLEG: false }],
    ["v1.30.2", { SidecarContainers: true, PodReadyToStartContainersCondition: true, PodLifecycleSleepAction: true, EventedPLEG: false }],
  ])("resolves feature gate defaults for %s", (version, gates) => {
    expect(load(`kubelet: { version: "${version}" }`).scenario.kubelet.featureGates).toEqual(gates);
  });

  it("lets a gate be set against its version default", () => {
    const k = load('kubelet: { version: "1.28", featureGates: { SidecarContainers: true } }').scenario.kubelet;
    expect(k.featureGates.SidecarContainers).toBe(true);
    expect(k.version).toBe("1.28");
  });
});

describe("pods and behaviour", () => {
  it("gives every container a behaviour; init containers exit 0 by default, sidecars run", () => {
    const pod = load(POD).scenario.pods[0]!;
    expect(Object.keys(pod.behaviour)).toEqual(["init", "proxy", "app"]);
    expect(pod.behaviour.init!.then).toMatchObject({ exitAfterMs: 1000, exitCode: 0 });
    expect(pod.behaviour.proxy!.then.exitAfterMs).toBeNull();
    expect(pod.behaviour.app!.then.exitAfterMs).toBeNull();
  });

  it("runs attempt-specific programs first, then the container's own", () => {
    const { scenario } = load(`${POD}    behaviour:
      app:
        onSigterm: { ignore: true }
        runs:
          - { exitAfter: 1s, exitCode: 1 }
          - { oomAfter: 3s, onSigterm: { exitAfter: 1s, exitCode: 0 } }
        preStop: { duration: 5s, fail: "boom" }
        probes:
          readiness:
            - { to: 10s, result: failure }
            - { attempt: 2, since: sigterm, result: timeout }
`);
    const app = scenario.pods[0]!.behaviour.app!;
    expect(programForAttempt(app, 1)).toMatchObject({ exitAfterMs: 1000, exitCode: 1, onSigterm: { ignore: true } });
    expect(programForAttempt(app, 2)).toMatchObject({ exitAfterMs: null, oomAfterMs: 3000, onSigterm: { ignore: false, exitAfterMs: 1000, exitCode: 0 } });
    expect(programForAttempt(app, 3)).toMatchObject({ exitAfterMs: null, onSigterm: { ignore: true } });
    expect(app.preStop).toEqual({ durationMs: 5000, error: "boom" });
    expect(app.probes.readiness).toEqual([
      { fromMs: 0, toMs: 10_000, since: "start", attempt: null, result: "failure" },
      { fromMs: 0, toMs: null, since: "sigterm", attempt: 2, result: "timeout" },
    ]);
  });

  it("warns, without failing, when a sidecar's gate is off", () => {
    const { warnings } = load(`kubelet: { version: "1.28" }\n${POD}`);
    expect(warnings.map(formatIssue)).toEqual([
      "s.yaml:9:57: pods[0].manifest.spec.initContainers[1].restartPolicy: ignored: the SidecarContainers feature gate is off for this kubelet, so the apiserver drops restartPolicy and this runs as a plain init container",
    ]);
  });
});

describe("timeline", () => {
  it("accepts shorthands and normalises every step to { atMs, kind, ... } in time order", () => {
    const { scenario } = load(`${POD}timeline:
  - { at: 30s, restartKubelet: true }
  - { at: 10s, delete: { pod: web, gracePeriodSeconds: 5 } }
  - { at: 0s, create: web }
  - { at: 10s, watchGone: true }
  - { at: 20s, rebootNode: { downtime: 1m } }
  - { at: 40s, delete: default/web }
  - { at: 50s, forceDelete: web }
`);
    expect(scenario.timeline).toEqual([
      { atMs: 0, kind: "create", pod: "default/web" },
      { atMs: 10_000, kind: "delete", pod: "default/web", gracePeriodSeconds: 5 },
      { atMs: 10_000, kind: "watchGone" },
      { atMs: 20_000, kind: "rebootNode", downtimeMs: 60_000 },
      { atMs: 30_000, kind: "restartKubelet", downtimeMs: 0 },
      { atMs: 40_000, kind: "delete", pod: "default/web" },
      { atMs: 50_000, kind: "forceDelete", pod: "default/web" },
    ]);
  });

  it("expresses the races' faults: partitions, watch trouble, runtime faults, evictions", () => {
    const { scenario } = load(`${POD}runtime:
  faults:
    - { method: StopContainer, pod: web, container: app, call: 1, message: "rpc error: DeadlineExceeded" }
    - { method: ContainerStatus, from: 5s, to: 65s, kind: timeout }
timeline:
  - { at: 0s, create: web }
  - { at: 1s, watchDelay: { for: 10s, delay: { min: 100ms, max: 2s } } }
  - { at: 2s, watchDrop: { for: 5s } }
  - { at: 3s, killSandbox: web }
  - { at: 4s, removeContainer: { pod: web, container: init } }
  - { at: 5s, oomKill: { pod: web, container: app } }
  - { at: 6s, exitContainer: { pod: web, container: app, exitCode: 2 } }
  - { at: 7s, evict: web }
  - { at: 8s, restartRuntime: { downtime: 3s } }
  - { at: 9s, setImage: { pod: web, container: app, image: "nginx:2" } }
  - { at: 9s, setLabels: { pod: web, labels: { tier: gold, old: null } } }
`);
    expect(scenario.runtime.faults).toEqual([
      { method: "StopContainer", pod: "default/web", container: "app", call: 1, times: 1, fromMs: 0, toMs: null, kind: "error", message: "rpc error: DeadlineExceeded" },
      { method: "ContainerStatus", pod: null, container: null, call: 1, times: null, fromMs: 5000, toMs: 65_000, kind: "timeout", message: "injected fault" },
    ]);
    expect(scenario.timeline.map((s) => s.kind)).toEqual([
      "create", "watchDelay", "watchDrop", "killSandbox", "removeContainer", "oomKill", "exitContainer", "evict", "restartRuntime", "setImage", "setLabels",
    ]);
    expect(scenario.timeline[1]).toEqual({ atMs: 1000, kind: "watchDelay", forMs: 10_000, delay: { minMs: 100, maxMs: 2000 } });
    expect(scenario.timeline[7]).toEqual({ atMs: 7000, kind: "evict", pod: "default/web", reason: "Evicted", message: "" });
  });

  it("plays static pod add, update, remove and re-add", () => {
    const { scenario } = load(`pods:
  - source: file
    manifest: { metadata: { name: etcd, namespace: kube-system, uid: fixed-uid }, spec: { containers: [{ name: etcd, image: "etcd:3.5" }] } }
timeline:
  - { at: 0s, staticAdd: etcd }
  - { at: 5s, staticUpdate: { pod: etcd, container: etcd, image: "etcd:3.6" } }
  - { at: 10s, staticRemove: etcd }
  - { at: 10500ms, staticAdd: kube-system/etcd }
`);
    expect(scenario.timeline.map((s) => `${s.atMs} ${s.kind}`)).toEqual(["0 staticAdd", "5000 staticUpdate", "10000 staticRemove", "10500 staticAdd"]);
    expect(scenario.pods[0]!.manifest.metadata.uid).toBe("fixed-uid");
  });
});

describe("expectations, strategy, swarm", () => {
  it("reads eventually, never and at, with invariant shorthands and boolean condition statuses", () => {
    const { scenario } = load(`${POD}expect:
  - eventually: { pod: web, conditions: { Ready: True }, container: { name: app, restartCount: { min: 2 } } }
    by: 1m
  - never: start-after-termination-requested
  - at: 30s
    that: { pod: web, event: { reason: BackOff, message: "Back-off", count: 2 } }
`);
    expect(scenario.expect).toEqual([
      { kind: "eventually", byMs: 60_000, condition: { pod: "default/web", conditions: { Ready: "True" }, container: { name: "app", restartCount: { min: 2, max: null } } } },
      { kind: "never", condition: { invariant: "start-after-termination-requested" } },
      { kind: "at", atMs: 30_000, condition: { pod: "default/web", event: { reason: "BackOff", message: "Back-off", count: { min: 2, max: 2 } } } },
    ]);
  });

  it.each([
    ["fifo", { name: "fifo" }],
    ["random", { name: "random" }],
    ["pct", { name: "pct", depth: 3, steps: 1000 }],
    ['"pct:2"', { name: "pct", depth: 2, steps: 1000 }],
    ['"pct:4:500"', { name: "pct", depth: 4, steps: 500 }],
    ["{ name: pct, depth: 5 }", { name: "pct", depth: 5, steps: 1000 }],
  ])("strategy %s", (yaml, spec) => {
    expect(load(`strategy: ${yaml}`).scenario.strategy).toEqual(spec);
  });

  it("defaults to fifo and no swarm; reads swarm ranges", () => {
    expect(load("").scenario.strategy).toEqual({ name: "fifo" });
    expect(load("").scenario.swarm).toBeUndefined();
    const swarm = load(`${POD}swarm:
  latency: { PullImage: { min: 0s, max: 1m } }
  faults: [{ percent: 20, fault: { method: StopContainer, pod: web } }]
  jitter: 500ms
`).scenario.swarm!;
    expect(swarm.latency).toEqual({ PullImage: { minMs: 0, maxMs: 60_000 } });
    expect(swarm.faults[0]).toMatchObject({ percent: 20, fault: { method: "StopContainer", pod: "default/web" } });
    expect(swarm.jitterMs).toBe(500);
  });

  it("reports unknown swarm fault pods too", () => {
    expect(errors("swarm:\n  faults: [{ percent: 5, fault: { method: StopContainer, pod: nope } }]")).toEqual([
      's.yaml:3:63: swarm.faults[0].fault.pod: no pod "nope" in this scenario\'s pods',
    ]);
  });
});
