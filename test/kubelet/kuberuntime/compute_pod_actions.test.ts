import { describe, expect, it } from "vitest";
import type { Pod } from "../../../src/k8s/pod.ts";
import { HashContainer } from "../../../src/kubelet/container/helpers.ts";
import type { PodStatus } from "../../../src/kubelet/container/runtime.ts";
import { computePodActions } from "../../../src/kubelet/kuberuntime/kuberuntime_manager.ts";
import type { ComputePodActionsDeps, PodActions } from "../../../src/kubelet/kuberuntime/pod_actions.ts";
import {
  SIDECAR_PROBES_OK,
  deps,
  makeBasePodAndStatus,
  makeBasePodAndStatusWithInitContainers,
  makeBasePodAndStatusWithRestartableInitContainers,
  makeStatus,
} from "./fixtures.ts";

/** What verifyActions compares, with kill info reduced to (id, name) plus message and reason for our own checks. */
function summary(a: PodActions) {
  return {
    KillPod: a.KillPod,
    CreateSandbox: a.CreateSandbox,
    SandboxID: a.SandboxID,
    Attempt: a.Attempt,
    NextInitContainerToStart: a.NextInitContainerToStart?.name ?? null,
    InitContainersToStart: a.InitContainersToStart,
    ContainersToStart: a.ContainersToStart,
    ContainersToKill: [...a.ContainersToKill.values()]
      .map((k) => ({ id: k.containerID.id, name: k.name, message: k.message, reason: k.reason }))
      .sort((x, y) => (x.id < y.id ? -1 : 1)),
    EphemeralContainersToStart: a.EphemeralContainersToStart,
  };
}

const NO_ACTION = {
  KillPod: false,
  CreateSandbox: false,
  SandboxID: "sandboxID",
  Attempt: 0,
  NextInitContainerToStart: null,
  InitContainersToStart: null,
  ContainersToStart: [],
  ContainersToKill: [],
  EphemeralContainersToStart: null,
};

interface Case {
  name: string;
  mutate?: (pod: Pod, status: PodStatus) => void;
  deps?: ComputePodActionsDeps;
  want: Partial<ReturnType<typeof summary>>;
}

function run(make: () => { pod: Pod; status: PodStatus }, c: Case, defaultDeps: ComputePodActionsDeps) {
  const { pod, status } = make();
  c.mutate?.(pod, status);
  return summary(computePodActions(pod, status, c.deps ?? defaultDeps));
}

// Cases of TestComputePodActions that the public vector sample does not include.
const regular: Case[] = [
  {
    name: "start pod sandbox and all containers for a new pod",
    mutate: (_p, s) => {
      s.sandboxStatuses = [];
      s.containerStatuses = [];
    },
    want: { KillPod: true, CreateSandbox: true, SandboxID: "", Attempt: 0, ContainersToStart: [0, 1, 2] },
  },
  {
    name: "Kill pod and recreate all containers if the PodSandbox does not have an IP",
    mutate: (_p, s) => {
      s.sandboxStatuses[0]!.network!.ip = "";
    },
    want: { KillPod: true, CreateSandbox: true, Attempt: 1, ContainersToStart: [0, 1, 2] },
  },
  {
    name: "Kill and recreate all containers if the PodSandbox's network namespace changed (hostNetwork)",
    mutate: (p) => {
      p.spec.hostNetwork = true;
    },
    want: { KillPod: true, CreateSandbox: true, SandboxID: "", Attempt: 1, ContainersToStart: [0, 1, 2] },
  },
  {
    name: "Kill and recreate the container if the container's spec changed",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Always";
      s.containerStatuses[1]!.hash = 432423432;
    },
    want: {
      ContainersToStart: [1],
      ContainersToKill: [{ id: "id2", name: "foo2", message: "Container foo2 definition changed, will be restarted", reason: "" }],
    },
  },
  {
    name: "spec change restarts even under RestartPolicy Never",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Never";
      s.containerStatuses[0]!.hash = 1;
    },
    want: {
      ContainersToStart: [0],
      ContainersToKill: [{ id: "id1", name: "foo1", message: "Container foo1 definition changed, will be restarted", reason: "" }],
    },
  },
  {
    name: "Kill and recreate the container if the startup check has failed",
    mutate: (p) => {
      p.spec.restartPolicy = "Always";
    },
    deps: deps(true, {}, { id2: "Failure" }),
    want: {
      ContainersToStart: [1],
      ContainersToKill: [
        { id: "id2", name: "foo2", message: "Container foo2 failed startup probe, will be restarted", reason: "StartupProbe" },
      ],
    },
  },
  {
    name: "a liveness failure under RestartPolicy Never kills without restart, and the pod once nothing runs",
    mutate: (p) => {
      p.spec.restartPolicy = "Never";
      p.spec.containers = [p.spec.containers[0]!];
    },
    deps: deps(true, { id1: "Failure" }),
    want: {
      KillPod: true,
      ContainersToStart: [],
      ContainersToKill: [{ id: "id1", name: "foo1", message: "Container foo1 failed liveness probe", reason: "LivenessProbe" }],
    },
  },
  {
    name: "Verify we do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and all containers exited",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Never";
      s.sandboxStatuses[0]!.state = "SANDBOX_NOTREADY";
      s.sandboxStatuses[0]!.metadata.attempt = 1;
      for (const c of s.containerStatuses) c.state = "exited";
    },
    want: { KillPod: true, CreateSandbox: false, Attempt: 2, ContainersToStart: [] },
  },
  {
    name: "Verify we create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and no containers have ever been created",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Never";
      s.sandboxStatuses[0]!.state = "SANDBOX_NOTREADY";
      s.sandboxStatuses[0]!.metadata.attempt = 2;
      s.containerStatuses = [];
    },
    want: { KillPod: true, CreateSandbox: true, Attempt: 3, ContainersToStart: [0, 1, 2] },
  },
  {
    name: "Kill and recreate the container if the container is in unknown state",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Never";
      s.containerStatuses[1]!.state = "unknown";
    },
    want: {
      ContainersToStart: [1],
      ContainersToKill: [
        { id: "id2", name: "foo2", message: 'Container is in "unknown" state, try killing it before restart', reason: "Unknown" },
      ],
    },
  },
  {
    name: "restart exited containers if RestartPolicy == Always",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Always";
      s.containerStatuses[0]!.state = "exited";
      s.containerStatuses[1]!.state = "exited";
      s.containerStatuses[1]!.exitCode = 111;
    },
    want: { ContainersToStart: [0, 1] },
  },
  {
    name: "don't restart containers if RestartPolicy == Never",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Never";
      s.containerStatuses[0]!.state = "exited";
      s.containerStatuses[1]!.state = "exited";
      s.containerStatuses[1]!.exitCode = 111;
    },
    want: {},
  },
  {
    name: "multiple ready sandboxes are reconciled by recreating",
    mutate: (_p, s) => {
      s.sandboxStatuses.push({ ...s.sandboxStatuses[0]!, id: "older", metadata: { ...s.sandboxStatuses[0]!.metadata, attempt: 4 } });
    },
    want: { KillPod: true, CreateSandbox: true, Attempt: 5, ContainersToStart: [0, 1, 2] },
  },
  {
    name: "a pod marked for deletion restarts nothing and is killed once nothing runs",
    mutate: (p, s) => {
      p.metadata.deletionTimestamp = "2024-01-01T00:00:00Z";
      for (const c of s.containerStatuses) c.state = "exited";
    },
    want: { KillPod: true },
  },
];

describe("computePodActions: TestComputePodActions cases beyond the vectors", () => {
  it.each(regular)("$name", (c) => {
    expect(run(makeBasePodAndStatus, c, deps(true))).toEqual({ ...NO_ACTION, ...c.want });
  });
});

// TestComputePodActionsWithInitContainers cases, both gate settings.
const inits: (Case & { gateOff?: Partial<Case["want"]>; gateOn?: Partial<Case["want"]> })[] = [
  {
    name: "initialization in progress; do nothing",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Always";
      s.containerStatuses[2]!.state = "running";
    },
    want: {},
  },
  {
    name: "initialization failed; restart the last init container if RestartPolicy == OnFailure",
    mutate: (p, s) => {
      p.spec.restartPolicy = "OnFailure";
      s.containerStatuses[2]!.exitCode = 137;
    },
    want: {},
    gateOff: { NextInitContainerToStart: "init3" },
    gateOn: { InitContainersToStart: [2] },
  },
  {
    name: "init container state unknown; kill and recreate the last init container if RestartPolicy == OnFailure",
    mutate: (p, s) => {
      p.spec.restartPolicy = "OnFailure";
      s.containerStatuses[2]!.state = "unknown";
    },
    want: {
      ContainersToKill: [
        { id: "initid3", name: "init3", message: 'Init container is in "unknown" state, try killing it before restart', reason: "Unknown" },
      ],
    },
    gateOff: { NextInitContainerToStart: "init3" },
    gateOn: { InitContainersToStart: [2] },
  },
  {
    name: "an OOMKilled init container counts as failed (v1.29 isInitContainerFailed)",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Never";
      s.containerStatuses[2]!.reason = "OOMKilled";
    },
    want: { KillPod: true },
  },
  {
    // findNextInitContainerToRun skips a Created status and points past the last exited one.
    name: "an init container in Created state: the sidecar path waits, the pre-sidecar path starts it",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Always";
      s.containerStatuses = [s.containerStatuses[0]!, { ...s.containerStatuses[1]!, state: "created" }];
    },
    want: {},
    gateOff: { NextInitContainerToStart: "init2" },
  },
];

describe("computePodActions: init containers", () => {
  for (const sidecars of [false, true]) {
    it.each(inits)(`SidecarContainers=${sidecars}: $name`, (c) => {
      const extra = sidecars ? c.gateOn : c.gateOff;
      expect(run(makeBasePodAndStatusWithInitContainers, c, deps(sidecars))).toEqual({ ...NO_ACTION, ...c.want, ...extra });
    });
  }
});

const sidecarProbes = deps(true, SIDECAR_PROBES_OK, SIDECAR_PROBES_OK);
const regularRunning = (p: Pod, s: PodStatus) =>
  p.spec.containers.forEach((c, i) => s.containerStatuses.push(makeStatus(`id${i + 1}`, c.name, "running", HashContainer(c))));

// TestComputePodActionsWithRestartableInitContainers cases not in the public vectors.
const sidecars: Case[] = [
  {
    name: "kill and recreate the restartable init container if the liveness check has failed",
    deps: deps(true, { ...SIDECAR_PROBES_OK, initid3: "Failure" }, SIDECAR_PROBES_OK),
    want: {
      InitContainersToStart: [2],
      ContainersToStart: [0, 1, 2],
      ContainersToKill: [
        { id: "initid3", name: "restartable-init-3", message: "Init container restartable-init-3 failed liveness probe", reason: "LivenessProbe" },
      ],
    },
  },
  {
    name: "startupProbe in progress; do nothing",
    mutate: (_p, s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 2);
    },
    deps: deps(true, SIDECAR_PROBES_OK, { ...SIDECAR_PROBES_OK, initid2: "Unknown" }),
    want: {},
  },
  {
    name: "startupProbe has completed; start the next",
    mutate: (_p, s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 2);
    },
    want: { InitContainersToStart: [2] },
  },
  {
    name: "restart terminated restartable init container and next init container",
    mutate: (_p, s) => {
      s.containerStatuses[0]!.state = "exited";
      s.containerStatuses[2]!.state = "exited";
    },
    want: { InitContainersToStart: [0, 2] },
  },
  {
    name: "restart terminated restartable init container and regular containers",
    mutate: (_p, s) => {
      s.containerStatuses[0]!.state = "exited";
    },
    want: { InitContainersToStart: [0], ContainersToStart: [0, 1, 2] },
  },
  {
    name: "initialization failed; restart the last restartable init container even if pod's RestartPolicy == Never",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Never";
      s.containerStatuses[2]!.state = "exited";
      s.containerStatuses[2]!.exitCode = 137;
    },
    want: { InitContainersToStart: [2] },
  },
  {
    name: "restartable init container state unknown; kill and recreate the last restartable init container even if pod's RestartPolicy == Never",
    mutate: (p, s) => {
      p.spec.restartPolicy = "Never";
      s.containerStatuses[2]!.state = "unknown";
    },
    want: {
      InitContainersToStart: [2],
      ContainersToKill: [
        {
          id: "initid3",
          name: "restartable-init-3",
          message: 'Init container is in "unknown" state, try killing it before restart',
          reason: "Unknown",
        },
      ],
    },
  },
  {
    name: "some of the init container statuses are missing but the last init container is running, restart restartable init and regular containers",
    mutate: (_p, s) => {
      s.containerStatuses = s.containerStatuses.slice(2);
    },
    want: { InitContainersToStart: [0, 1], ContainersToStart: [0, 1, 2] },
  },
  {
    name: "a running sidecar's definition change is not checked (v1.29)",
    mutate: (p, s) => {
      for (const c of s.containerStatuses) c.hash = 7;
      regularRunning(p, s);
    },
    want: {},
  },
];

describe("computePodActions: restartable init containers", () => {
  it.each(sidecars)("$name", (c) => {
    expect(run(makeBasePodAndStatusWithRestartableInitContainers, c, sidecarProbes)).toEqual({ ...NO_ACTION, ...c.want });
  });
});

describe("computePodActions: ephemeral containers", () => {
  it("Start second ephemeral container", () => {
    const { pod, status } = makeBasePodAndStatus();
    pod.spec.ephemeralContainers = [
      { name: "debug", image: "busybox" },
      { name: "debug2", image: "busybox" },
    ];
    status.containerStatuses.push(makeStatus("debug1", "debug", "running", 0));
    expect(summary(computePodActions(pod, status, deps(true)))).toEqual({ ...NO_ACTION, EphemeralContainersToStart: [1] });
  });
});
