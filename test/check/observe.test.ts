// What a failed expectation reports it saw: observe() over a fixed world, one row per kind of check.
import { describe, expect, it } from "vitest";
import { observe, type RecordedEvent, type WorldView } from "../../src/check/conditions.ts";
import type { Condition } from "../../src/scenario/index.ts";
import type { Pod } from "../../src/k8s/pod.ts";

const pod: Pod = {
  metadata: { name: "web", namespace: "default" },
  spec: { containers: [{ name: "app" }] },
  status: {
    phase: "Running",
    conditions: [{ type: "Ready", status: "False" }],
    containerStatuses: [{ name: "app", restartCount: 3, ready: false, started: false, state: { waiting: { reason: "CrashLoopBackOff" } } }],
  },
};
const events: RecordedEvent[] = [
  { pod: "default/web", type: "Warning", reason: "BackOff", message: "Back-off restarting failed container app" },
  { pod: "default/web", type: "Warning", reason: "BackOff", message: "Back-off again" },
];
const world = (p: Pod | undefined): WorldView => ({ pod: () => p, events: () => events, violated: (id) => id === "lost-wakeup" });
const cond = (c: Partial<Condition>) => c as Condition;

describe("observe", () => {
  it.each<[string, Partial<Condition>, Pod | undefined, string]>([
    ["phase and conditions", { pod: "default/web", phase: "Succeeded", conditions: { Ready: "True", Initialized: "True" } }, pod, "phase=Running; Ready=False; Initialized=(none)"],
    ["a container", { pod: "default/web", container: { name: "app", state: "running" } }, pod, "container app waiting (CrashLoopBackOff), restarts 3, ready=false, started=false"],
    ["a container with no status", { pod: "default/web", container: { name: "side" } }, pod, "container side: no status yet"],
    ["the last matching event", { pod: "default/web", event: { reason: "BackOff" } }, pod, '2 BackOff event(s), the last Warning: "Back-off again"'],
    ["no matching event", { pod: "default/web", event: { reason: "Killing" } }, pod, "no Killing event"],
    ["a pod that is not there", { pod: "default/web", phase: "Running" }, undefined, "no pod default/web in the apiserver"],
    ["gone, while it exists", { pod: "default/web", gone: true }, pod, "the pod exists"],
    ["an invariant", { invariant: "never-runs-twice" }, pod, "invariant never-runs-twice not violated"],
  ])("%s", (_name, c, p, text) => {
    expect(observe(cond(c), world(p)).text).toBe(text);
  });

  it("gives tools the values behind the words", () => {
    expect(observe(cond({ pod: "default/web", container: { name: "app" } }), world(pod)).value).toEqual({
      exists: true,
      container: { name: "app", state: "waiting", reason: "CrashLoopBackOff", exitCode: null, restartCount: 3, ready: false, started: false },
    });
  });
});
