// The PLEG against the real runtime manager (kuberuntime's GetPods/GetPodStatus over the simulated
// CRI): what one SyncPod creates shows up as events and cache entries on the next relist.
import { describe, expect, it } from "vitest";
import { recv, sleep } from "../../../src/sim/index.ts";
import { Cache } from "../../../src/kubelet/container/cache.ts";
import { GenericPLEG, type PodStatusSource } from "../../../src/kubelet/pleg/generic.ts";
import type { KubeGenericRuntimeManager } from "../../../src/kubelet/kuberuntime/kuberuntime_manager_sync.ts";
import { driver, webPod } from "../kuberuntime/sync/driver.ts";

// The runtime manager is a PodStatusSource as it stands: no adapter between them.
const _wiring: (m: KubeGenericRuntimeManager) => PodStatusSource = (m) => m;

describe("GenericPLEG over KubeGenericRuntimeManager", () => {
  it("a synced pod's sandbox and container are reported started and cached at the next relist", () => {
    const d = driver({ untilMs: 2_500 });
    const cache = new Cache(d.sim);
    const pleg = new GenericPLEG(d.sim, _wiring(d.manager), cache);
    const log: string[] = [];
    d.sim.go("test/consumer", function* () {
      for (;;) {
        const { value } = yield* recv(pleg.Watch());
        log.push(`${d.sim.nowMs}:${value!.Type}`);
      }
    });
    pleg.Start();
    d.run(function* () {
      yield* d.syncOnce(webPod());
      yield* sleep(2_000);
    });
    // Each CRI call takes 10 ms: relists end at 20 ms (two list calls), then start a full period
    // after the previous one returned (wait.Until slides): 1020 + 60 ms with the inspection, 2080 + 20.
    expect(d.records("pleg", "relist").map((r) => [r.t, r.durationMs])).toEqual([
      [20, 20],
      [1_080, 60],
      [2_100, 20],
    ]);
    expect(log).toEqual(["1080:ContainerStarted", "1080:ContainerStarted"]); // the sandbox and "app"
    const [status, err] = cache.GetWithError("uid-web");
    expect(err).toBeNull();
    expect(status!.containerStatuses.map((s) => [s.name, s.state])).toEqual([["app", "running"]]);
    expect(status!.sandboxStatuses[0]!.state).toBe("SANDBOX_READY");
  });
});
