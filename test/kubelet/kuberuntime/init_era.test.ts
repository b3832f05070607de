// The release switch of findNextInitContainerToRun (PR #96572): up to 1.20 only init containers'
// own statuses decide, so a garbage-collected init record reads as "never ran" even with the app
// running (race R21); from 1.21.0 a running main container ends initialization.
import { describe, expect, it } from "vitest";
import type { Pod } from "../../../src/k8s/pod.ts";
import { HashContainer } from "../../../src/kubelet/container/helpers.ts";
import type { PodStatus, State } from "../../../src/kubelet/container/runtime.ts";
import { findNextInitContainerToRun, mainContainersEndInitialization } from "../../../src/kubelet/kuberuntime/kuberuntime_container.ts";
import { computePodActions } from "../../../src/kubelet/kuberuntime/kuberuntime_manager.ts";
import { deps, makeBasePodAndStatusWithInitContainers, makeStatus } from "./fixtures.ts";

/** init1..init3 and foo1..foo3; `inits` and `apps` give the statuses that exist (name → state, exit code). */
function podWith(inits: Record<string, [State, number]>, apps: Record<string, State>): { pod: Pod; status: PodStatus } {
  const { pod, status } = makeBasePodAndStatusWithInitContainers();
  const h = HashContainer(pod.spec.initContainers![0]!);
  status.containerStatuses = [
    ...Object.entries(inits).map(([name, [state, exitCode]]) => makeStatus(`id-${name}`, name, state, h, { exitCode })),
    ...Object.entries(apps).map(([name, state]) => {
      const c = pod.spec.containers.find((x) => x.name === name)!;
      return makeStatus(`id-${name}`, name, state, HashContainer(c));
    }),
  ];
  return { pod, status };
}

interface Row {
  name: string;
  inits: Record<string, [State, number]>;
  apps: Record<string, State>;
  /** [next init container or null, done] for 1.20.x and for 1.21.0. */
  vBefore: [string | null, boolean];
  vAfter: [string | null, boolean];
}

const rows: Row[] = [
  { name: "nothing ran yet", inits: {}, apps: {}, vBefore: ["init1", false], vAfter: ["init1", false] },
  { name: "init1 done, init2 next", inits: { init1: ["exited", 0] }, apps: {}, vBefore: ["init2", false], vAfter: ["init2", false] },
  { name: "all inits done", inits: { init1: ["exited", 0], init2: ["exited", 0], init3: ["exited", 0] }, apps: {}, vBefore: [null, true], vAfter: [null, true] },
  { name: "init2 running", inits: { init1: ["exited", 0], init2: ["running", 0] }, apps: {}, vBefore: [null, false], vAfter: [null, false] },
  { name: "init1 failed", inits: { init1: ["exited", 1] }, apps: {}, vBefore: ["init1", false], vAfter: ["init1", false] },
  // R21: every init record garbage-collected while the app runs.
  { name: "inits GC'd, app running", inits: {}, apps: { foo1: "running" }, vBefore: ["init1", false], vAfter: [null, true] },
  { name: "only init3 GC'd, app running", inits: { init1: ["exited", 0], init2: ["exited", 0] }, apps: { foo2: "running" }, vBefore: ["init3", false], vAfter: [null, true] },
  // An exited app proves nothing in either era (the "Running" form of the check).
  { name: "inits GC'd, app exited", inits: {}, apps: { foo1: "exited" }, vBefore: ["init1", false], vAfter: ["init1", false] },
];

describe("findNextInitContainerToRun by release (PR #96572)", () => {
  it("the switch is at 1.21.0 (#96572 merged after v1.20.0, milestone v1.21)", () => {
    expect(["1.19", "1.20", "1.20.15", "1.21", "1.29"].map(mainContainersEndInitialization)).toEqual([false, false, false, true, true]);
  });

  it.each(rows)("$name", (row) => {
    const { pod, status } = podWith(row.inits, row.apps);
    for (const [minor, want] of [[20, row.vBefore], [21, row.vAfter]] as const) {
      const got = findNextInitContainerToRun(pod, status, minor);
      expect([got.next?.name ?? null, got.done], `minor ${minor}`).toEqual(want);
    }
  });

  it("without a minor it follows the latest release", () => {
    const { pod, status } = podWith({}, { foo1: "running" });
    expect(findNextInitContainerToRun(pod, status).done).toBe(true);
  });
});

describe("computePodActions with the init record gone and the app running (R21)", () => {
  const { pod, status } = podWith({}, { foo1: "running", foo2: "running", foo3: "running" });

  it("1.20 starts init1 again and keeps the app running", () => {
    const a = computePodActions(pod, status, { ...deps(false), version: "1.20.15" });
    expect(a.NextInitContainerToStart?.name).toBe("init1");
    expect([a.KillPod, a.CreateSandbox, a.ContainersToStart, a.ContainersToKill.size]).toEqual([false, false, [], 0]);
  });

  it("1.21 does nothing", () => {
    const a = computePodActions(pod, status, { ...deps(false), version: 21 });
    expect(a.NextInitContainerToStart).toBeNull();
    expect([a.KillPod, a.CreateSandbox, a.ContainersToStart, a.ContainersToKill.size]).toEqual([false, false, [], 0]);
  });
});
