// Models pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go as of v1.21
// (findAndRemoveDeletedPods): every 100 ms, volumes of pods the kubelet considers terminated, or
// no longer has, are removed once the runtime shows none of their containers running.
// "Terminated" is kl.podIsTerminated, which cannot tell a pod that has not started yet from one
// that finished (race R02). Simplified: the desired state is the PodSetup's mounted set, the
// runtime view is the kubelet's runtime cache, and unmounting is one timed step.
import { sleep, type Proc } from "../../sim/index.ts";
import type { KubeletCore } from "../kubelet_core.ts";
import type { LegacyKubeletSyncer } from "../kubelet_sync_legacy.ts";

/** desiredStateOfWorldPopulatorLoopSleepPeriod */
export const populatorLoopSleepPeriodMs = 100;

export class LegacyVolumePopulator {
  constructor(
    private readonly kl: KubeletCore,
    private readonly syncer: LegacyKubeletSyncer,
  ) {}

  Start(): void {
    this.kl.sim.go("kubelet/volumemanager/populator", () => this.run(), { group: "kubelet", daemon: true });
  }

  private *run(): Proc<void> {
    for (;;) {
      yield* sleep(populatorLoopSleepPeriodMs, "populatorLoopSleepPeriod");
      yield* this.findAndRemoveDeletedPods();
    }
  }

  private *findAndRemoveDeletedPods(): Proc<void> {
    const setup = this.syncer.setup;
    for (const uid of setup.mountedPods()) {
      const pod = this.kl.podManager.GetPodByUID(uid);
      // Skip running pods: a pod still in the pod manager keeps its volumes until it "terminated".
      if (pod !== undefined && !this.syncer.podIsTerminated(pod)) continue;
      const [runningPods, err] = yield* this.kl.runtimeCache.GetPods();
      if (err !== null) continue;
      const running = runningPods.find((p) => p.id === uid);
      if (running !== undefined && running.containers.some((c) => c.state === "running")) continue;
      yield* setup.unmount(uid, pod);
    }
  }
}
