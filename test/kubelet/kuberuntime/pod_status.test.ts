// GetPodStatus's ActiveContainerStatuses (#128516, 1.33.0): the containers of the newest sandbox,
// only while it is ready; before 1.33 the field does not exist.
import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/sim/index.ts";
import type { PodStatus, Status } from "../../../src/kubelet/container/runtime.ts";
import { driver, webPod } from "./sync/driver.ts";

const present = { present: true, pullTime: null, fail: null };

/** "name/state/container id" for each status, newest first. */
const show = (statuses: readonly Status[] | undefined): string[] | undefined => statuses?.map((s) => `${s.name}/${s.state}/${s.id.id}`);

/** GetPodStatus after the first sync, after the sandbox dies, and after the sync that replaces it. */
function statusesAcrossSandboxes(version: string): { running: PodStatus; died: PodStatus; replaced: PodStatus } {
  const d = driver({ runtime: { images: { "nginx:1.25": present } }, manager: { version } });
  const out: Partial<Record<"running" | "died" | "replaced", PodStatus>> = {};
  d.run(function* () {
    yield* d.syncOnce(webPod());
    out.running = yield* d.status(webPod());
    yield* sleep(1000);
    d.rt.sandboxDies("s-1");
    out.died = yield* d.status(webPod());
    yield* d.syncOnce(webPod());
    out.replaced = yield* d.status(webPod());
  });
  return { running: out.running!, died: out.died!, replaced: out.replaced! };
}

describe("GetPodStatus: ActiveContainerStatuses", () => {
  it("1.33.0: the newest ready sandbox's containers; none while it is not ready; only the new sandbox's after a re-creation", () => {
    const { running, died, replaced } = statusesAcrossSandboxes("1.33.0");
    expect(show(running.activeContainerStatuses)).toEqual(show(running.containerStatuses));
    expect(running.activeContainerStatuses).toHaveLength(1);
    // The sandbox is not ready: no sandbox is active, though the old container is still listed.
    expect(died.activeContainerStatuses).toEqual([]);
    expect(died.containerStatuses).toHaveLength(1);
    // Both containers are listed; only the one of the new sandbox is active.
    expect(replaced.containerStatuses).toHaveLength(2);
    expect(show(replaced.activeContainerStatuses)).toEqual(show(replaced.containerStatuses.slice(0, 1)));
    expect(replaced.activeContainerStatuses![0]!.state).toBe("running");
  });

  it.each(["1.32.13", "1.28"])("%s: PodStatus has no ActiveContainerStatuses", (version) => {
    const { running, replaced } = statusesAcrossSandboxes(version);
    expect(running.activeContainerStatuses).toBeUndefined();
    expect(replaced.activeContainerStatuses).toBeUndefined();
    expect(replaced.containerStatuses).toHaveLength(2);
  });
});
