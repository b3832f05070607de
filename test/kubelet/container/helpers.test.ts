import { describe, expect, it } from "vitest";
import type { Pod } from "../../../src/k8s/pod.ts";
import {
  GetContainerSpec,
  HasAnyActiveRegularContainerStarted,
  HashContainer,
  ShouldContainerBeRestarted,
  canonicalJSON,
  fnv32a,
  formatPod,
} from "../../../src/kubelet/container/helpers.ts";
import {
  FindContainerStatusByName,
  GetRunningContainerStatuses,
  ParseContainerID,
  containerIDString,
  type PodStatus,
  type State,
  type Status,
} from "../../../src/kubelet/container/runtime.ts";

function status(name: string, state: State, exitCode = 0, id = name): Status {
  return { id: { type: "containerd", id }, name, state, createdAtMs: 0, exitCode, image: "", imageID: "", hash: 0, restartCount: 0, reason: "", message: "" };
}

function podStatus(...s: Status[]): PodStatus {
  return { id: "u", name: "p", namespace: "ns", ips: [], sandboxStatuses: [], containerStatuses: s };
}

function pod(restartPolicy?: "Always" | "OnFailure" | "Never", deleted = false): Pod {
  return {
    metadata: { name: "p", namespace: "ns", uid: "u", ...(deleted ? { deletionTimestamp: "2024-01-01T00:00:00Z" } : {}) },
    spec: { containers: [{ name: "c" }], ...(restartPolicy ? { restartPolicy } : {}) },
  };
}

describe("ShouldContainerBeRestarted", () => {
  it.each<[string, Pod, Status[], boolean]>([
    ["never started", pod("Never"), [], true],
    ["running", pod("Always"), [status("c", "running")], false],
    ["unknown is always restarted", pod("Never"), [status("c", "unknown")], true],
    ["created is always restarted (v1.2x–v1.29)", pod("Never"), [status("c", "created")], true],
    ["exited under Never", pod("Never"), [status("c", "exited", 1)], false],
    ["exited 0 under OnFailure", pod("OnFailure"), [status("c", "exited", 0)], false],
    ["exited 1 under OnFailure", pod("OnFailure"), [status("c", "exited", 1)], true],
    ["exited 0 under Always", pod("Always"), [status("c", "exited", 0)], true],
    ["unset policy behaves like Always", pod(undefined), [status("c", "exited", 0)], true],
    ["the newest status decides", pod("OnFailure"), [status("c", "exited", 0, "new"), status("c", "exited", 1, "old")], false],
    ["a deleted pod restarts nothing", pod("Always", true), [], false],
  ])("%s -> %s", (_n, p, statuses, want) => {
    expect(ShouldContainerBeRestarted(p.spec.containers[0]!, p, podStatus(...statuses))).toBe(want);
  });
});

describe("HashContainer", () => {
  it("is stable under key order and changes when a field changes", () => {
    const a = HashContainer({ name: "c", image: "x:1", args: ["a"] });
    expect(HashContainer({ args: ["a"], image: "x:1", name: "c" })).toBe(a);
    expect(HashContainer({ name: "c", image: "x:2", args: ["a"] })).not.toBe(a);
    expect(HashContainer({ name: "c", image: "x:1", args: ["a"], tty: undefined })).toBe(a);
    expect(Number.isInteger(a) && a >= 0 && a < 2 ** 32).toBe(true);
  });
  it("uses FNV-1a 32 (reference values)", () => {
    expect(fnv32a("")).toBe(0x811c9dc5);
    expect(fnv32a("a")).toBe(0xe40c292c);
    expect(fnv32a("foobar")).toBe(0xbf9cf968);
  });
  it("canonical JSON sorts keys recursively", () => {
    expect(canonicalJSON({ b: 1, a: { d: [1, { f: 2, e: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"e":1,"f":2}]},"b":1}');
  });
});

describe("status lookups and IDs", () => {
  it("FindContainerStatusByName returns the first (newest) match", () => {
    const s = podStatus(status("c", "exited", 0, "new"), status("c", "exited", 1, "old"));
    expect(FindContainerStatusByName(s, "c")?.id.id).toBe("new");
    expect(FindContainerStatusByName(s, "x")).toBeUndefined();
    expect(GetRunningContainerStatuses(podStatus(status("a", "running"), status("b", "exited"))).map((x) => x.name)).toEqual(["a"]);
  });
  it("ContainerID round-trips through type://id", () => {
    expect(containerIDString({ type: "containerd", id: "abc" })).toBe("containerd://abc");
    expect(ParseContainerID("test://cOnTaInEr_Id")).toEqual({ type: "test", id: "cOnTaInEr_Id" });
    expect(ParseContainerID("garbage")).toEqual({ type: "", id: "" });
  });
  it("GetContainerSpec finds init, regular and ephemeral containers; formatPod names the pod", () => {
    const p: Pod = {
      metadata: { name: "p", namespace: "ns", uid: "u" },
      spec: { initContainers: [{ name: "i" }], containers: [{ name: "c" }], ephemeralContainers: [{ name: "e", targetContainerName: "c" }] },
    };
    expect(GetContainerSpec(p, "i")?.name).toBe("i");
    expect(GetContainerSpec(p, "e")).toEqual({ name: "e" });
    expect(GetContainerSpec(p, "zz")).toBeUndefined();
    expect(formatPod(p)).toBe("p_ns(u)");
  });
});

describe("HasAnyActiveRegularContainerStarted (#128516, 1.33)", () => {
  const spec: Pod["spec"] = { initContainers: [{ name: "init" }, { name: "sidecar", restartPolicy: "Always" }], containers: [{ name: "a" }, { name: "b" }] };
  const active = (...s: Status[]): PodStatus => ({ ...podStatus(...s), activeContainerStatuses: s });
  const rows: [string, PodStatus | undefined, boolean][] = [
    ["no pod status (nil)", undefined, false],
    ["no active statuses (nil: before 1.33, or from an event)", podStatus(status("a", "running")), false],
    ["the active sandbox holds no container yet", active(), false],
    ["only init and sidecar containers in the active sandbox", active(status("init", "exited"), status("sidecar", "running")), false],
    ["a running regular container", active(status("a", "running")), true],
    ["an exited regular container of the active sandbox", active(status("b", "exited", 1)), true],
    // Upstream checks the name only: a regular container merely created in the active sandbox counts.
    ["a created regular container", active(status("a", "created")), true],
    ["a container that is not in the spec", active(status("gone", "running")), false],
  ];
  it.each(rows)("%s", (_name, s, want) => {
    expect(HasAnyActiveRegularContainerStarted(spec, s)).toBe(want);
  });
  it("reads only the active statuses, not ContainerStatuses (a regular container of an older sandbox does not count)", () => {
    const s: PodStatus = { ...podStatus(status("sidecar", "running"), status("a", "exited", 0, "old-a")), activeContainerStatuses: [status("sidecar", "running")] };
    expect(HasAnyActiveRegularContainerStarted(spec, s)).toBe(false);
  });
});
