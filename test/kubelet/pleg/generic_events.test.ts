// Table tests of the pure core of pkg/kubelet/pleg/generic.go: generateEvents, convertState,
// getContainersFromPods, podRecords bookkeeping.
import { describe, expect, it } from "vitest";
import {
  PodRecords,
  computeEventsByPodID,
  convertState,
  generateEvents,
  getContainersFromPods,
  type plegContainerState,
} from "../../../src/kubelet/pleg/generic_events.ts";
import { c, pod } from "./helpers.ts";

const S: plegContainerState[] = ["running", "exited", "unknown", "non-existent"];

describe("generateEvents (every old → new transition)", () => {
  // The expected event types of each transition, read off upstream's switch.
  const expected: Record<string, string[]> = {
    "running→running": [],
    "running→exited": ["ContainerDied"],
    "running→unknown": ["ContainerChanged"],
    "running→non-existent": ["ContainerDied", "ContainerRemoved"],
    "exited→running": ["ContainerStarted"],
    "exited→exited": [],
    "exited→unknown": ["ContainerChanged"],
    "exited→non-existent": ["ContainerRemoved"],
    "unknown→running": ["ContainerStarted"],
    "unknown→exited": ["ContainerDied"],
    "unknown→unknown": [],
    "unknown→non-existent": ["ContainerDied", "ContainerRemoved"],
    "non-existent→running": ["ContainerStarted"],
    "non-existent→exited": ["ContainerDied"],
    "non-existent→unknown": ["ContainerChanged"],
    "non-existent→non-existent": [],
  };
  const rows = S.flatMap((o) => S.map((n) => [o, n] as const));
  it.each(rows)("%s → %s", (o, n) => {
    const events = generateEvents("uid", "cid", o, n);
    expect(events.map((e) => e.Type)).toEqual(expected[`${o}→${n}`]);
    for (const e of events) expect(e).toMatchObject({ ID: "uid", Data: "cid" });
  });
});

describe("convertState", () => {
  it.each([
    ["created", "unknown"], // kubelet doesn't use the "created" state yet (R07's lossy mapping)
    ["running", "running"],
    ["exited", "exited"],
    ["unknown", "unknown"],
  ])("%s → %s", (state, pleg) => expect(convertState(state)).toBe(pleg));

  it("panics on an unrecognized state, as upstream", () => {
    expect(() => convertState("paused")).toThrow(/unrecognized container state: paused/);
  });
});

describe("getContainersFromPods", () => {
  it("lists containers then sandboxes, each ID once across old and new", () => {
    const oldPod = pod("p", [c("c1", "running"), c("c2", "exited")], [c("s1", "running")]);
    const newPod = pod("p", [c("c2", "exited"), c("c3", "running")], [c("s1", "exited"), c("s2", "running")]);
    expect(getContainersFromPods(oldPod, newPod).map((x) => x.id.id)).toEqual(["c1", "c2", "s1", "c3", "s2"]);
    expect(getContainersFromPods(null, null)).toEqual([]);
  });
});

describe("podRecords", () => {
  it("setCurrent clears every current, update moves current to old and drops a vanished pod", () => {
    const r = new PodRecords();
    const p1 = pod("1", [c("a", "running")]);
    r.setCurrent([p1]);
    expect([r.getOld("1"), r.getCurrent("1")]).toEqual([null, p1]);
    r.update("1");
    expect([r.getOld("1"), r.getCurrent("1")]).toEqual([p1, null]);
    r.setCurrent([]); // the pod is gone from the listing
    expect(r.getCurrent("1")).toBeNull();
    r.update("1");
    expect(r.uids()).toEqual([]);
  });

  it("a pod with no events keeps old and current; the R08 bug keeps current when the pod vanishes", () => {
    const fixed = new PodRecords();
    const buggy = new PodRecords();
    const p1 = pod("1", [c("a", "running")]);
    for (const r of [fixed, buggy]) {
      r.setCurrent([p1]);
      r.update("1");
      r.setCurrent([p1]); // no events: update is not called, current stays set
    }
    fixed.setCurrent([]);
    buggy.setCurrent([], true);
    expect(computeEventsByPodID(fixed).get("1")?.map((e) => e.Type)).toEqual(["ContainerDied", "ContainerRemoved"]);
    expect(computeEventsByPodID(buggy).size).toBe(0);
  });

  it("computeEventsByPodID groups by pod (upstream's updateEvents)", () => {
    const r = new PodRecords();
    r.setCurrent([pod("1", [c("a", "running"), c("b", "exited")]), pod("2", [c("x", "unknown")])]);
    const byPod = computeEventsByPodID(r);
    expect([...byPod.keys()].sort()).toEqual(["1", "2"]);
    expect(byPod.get("1")!.map((e) => `${e.Type}:${String(e.Data)}`)).toEqual(["ContainerStarted:a", "ContainerDied:b"]);
    expect(byPod.get("2")!.map((e) => e.Type)).toEqual(["ContainerChanged"]);
  });
});
