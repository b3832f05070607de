// pkg/kubelet/active_deadline.go, after active_deadline_test.go (TestActiveDeadlineHandler): past
// the deadline means now - status.startTime >= activeDeadlineSeconds, reading the status manager's
// status first and the pod's own otherwise; no deadline or no start time is never past it.
import { describe, expect, it } from "vitest";
import type { Pod, PodStatus } from "../../src/k8s/pod.ts";
import { Sim, sleep } from "../../src/sim/index.ts";
import { ActiveDeadlineHandler } from "../../src/kubelet/active_deadline.ts";
import { formatRFC3339 } from "../../src/kubelet/status/metatime.ts";

function at(nowMs: number, pods: readonly Pod[], statuses: Record<string, PodStatus> = {}) {
  const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, hash: false });
  const events: string[] = [];
  const handler = new ActiveDeadlineHandler(sim, { GetPodStatus: (uid) => statuses[uid] }, { Eventf: (p, type, reason) => events.push(`${p.metadata.name} ${type} ${reason}`) });
  const out: { sync: boolean; evict: string | null }[] = [];
  sim.go("probe", function* () {
    yield* sleep(nowMs);
    for (const p of pods) out.push({ sync: handler.ShouldSync(p), evict: handler.ShouldEvict(p)?.reason ?? null });
  });
  sim.run();
  return { out, events };
}

const pod = (uid: string, deadline: number | undefined, startMs: number | null): Pod => ({
  metadata: { name: uid, uid },
  spec: { containers: [{ name: "c" }], ...(deadline === undefined ? {} : { activeDeadlineSeconds: deadline }) },
  status: startMs === null ? {} : { startTime: formatRFC3339(startMs) },
});

describe("ActiveDeadlineHandler (TestActiveDeadlineHandler)", () => {
  it.each([
    ["no deadline", pod("a", undefined, 0), 100_000, false],
    ["no start time", pod("b", 30, null), 100_000, false],
    ["before the deadline", pod("c", 30, 0), 29_000, false],
    ["exactly at the deadline", pod("d", 30, 0), 30_000, true],
    ["past the deadline", pod("e", 30, 0), 45_000, true],
  ])("%s", (_name, p, nowMs, past) => {
    const { out, events } = at(nowMs, [p]);
    expect(out).toEqual([{ sync: past, evict: past ? "DeadlineExceeded" : null }]);
    expect(events).toEqual(past ? [`${p.metadata.name} Normal DeadlineExceeded`] : []);
  });

  it("reads the status manager's start time before the pod's own", () => {
    const p = pod("f", 30, 0);
    expect(at(35_000, [p], { f: { startTime: formatRFC3339(10_000) } }).out).toEqual([{ sync: false, evict: null }]);
  });
});
