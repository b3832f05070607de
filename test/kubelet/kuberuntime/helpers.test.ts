import { describe, expect, it } from "vitest";
import type { Pod } from "../../../src/k8s/pod.ts";
import { HashContainer } from "../../../src/kubelet/container/helpers.ts";
import { getStableKey, isInitContainerFailed, replaceContainerID } from "../../../src/kubelet/kuberuntime/helpers.ts";
import { PodSandboxChanged } from "../../../src/kubelet/kuberuntime/util/util.ts";
import { makeBasePodAndStatus, makeStatus } from "./fixtures.ts";

describe("isInitContainerFailed", () => {
  it.each<[string, Parameters<typeof makeStatus>[2], number, string, boolean]>([
    ["exited 0", "exited", 0, "", false],
    ["exited 1", "exited", 1, "", true],
    ["unknown", "unknown", 0, "", true],
    ["OOMKilled (v1.29)", "exited", 0, "OOMKilled", true],
    ["running", "running", 0, "", false],
    ["created", "created", 0, "", false],
  ])("%s -> %s", (_n, state, exitCode, reason, want) => {
    expect(isInitContainerFailed(makeStatus("x", "x", state, 0, { exitCode, reason }))).toBe(want);
  });
});

describe("getStableKey", () => {
  const pod: Pod = { metadata: { name: "foo", namespace: "default", uid: "uid1" }, spec: { containers: [] } };
  it("is name_namespace_uid_container_hexhash, and changes with the spec", () => {
    const c = { name: "c", image: "busybox:1" };
    expect(getStableKey(pod, c)).toBe(`foo_default_uid1_c_${HashContainer(c).toString(16)}`);
    expect(getStableKey(pod, { ...c, image: "busybox:2" })).not.toBe(getStableKey(pod, c));
  });
});

describe("PodSandboxChanged", () => {
  it.each<[string, (s: ReturnType<typeof makeBasePodAndStatus>) => void, ReturnType<typeof PodSandboxChanged>]>([
    ["ready and current", () => {}, { changed: false, attempt: 0, sandboxID: "sandboxID", why: "" }],
    [
      "no sandbox",
      ({ status }) => (status.sandboxStatuses = []),
      { changed: true, attempt: 0, sandboxID: "", why: "No sandbox for pod can be found. Need to start a new one" },
    ],
    [
      "newest not ready; attempt is max+1 over all sandboxes",
      ({ status }) => {
        status.sandboxStatuses[0]!.state = "SANDBOX_NOTREADY";
        status.sandboxStatuses.push({ ...status.sandboxStatuses[0]!, id: "old", metadata: { ...status.sandboxStatuses[0]!.metadata, attempt: 3 } });
      },
      { changed: true, attempt: 4, sandboxID: "sandboxID", why: "No ready sandbox for pod can be found. Need to start a new one" },
    ],
    [
      "nil network is not a missing IP",
      ({ status }) => delete status.sandboxStatuses[0]!.network,
      { changed: false, attempt: 0, sandboxID: "sandboxID", why: "" },
    ],
    [
      "host-network pod: an empty IP is fine, but the namespace mode must be NODE",
      ({ pod, status }) => {
        pod.spec.hostNetwork = true;
        status.sandboxStatuses[0]!.network!.ip = "";
        status.sandboxStatuses[0]!.linux = { namespaces: { options: { network: "NODE" } } };
      },
      { changed: false, attempt: 0, sandboxID: "sandboxID", why: "" },
    ],
  ])("%s", (_n, mutate, want) => {
    const x = makeBasePodAndStatus();
    mutate(x);
    expect(PodSandboxChanged(x.pod, x.status)).toEqual(want);
  });
});

describe("replaceContainerID (event messages name the container, not its ID)", () => {
  it.each([
    ["Container c-1 failed liveness probe, will be restarted", "c-1", "app", "Container app failed liveness probe, will be restarted"],
    // A name that contains the ID stays as it is: "sc-1" used to read "ssc-1".
    ["Stopping container sc-1", "c-1", "sc-1", "Stopping container sc-1"],
    ["Started container sc-1 (c-1)", "c-1", "sc-1", "Started container sc-1 (sc-1)"],
    // Another ID that starts with this one is another container.
    ["Killing c-10 and c-1", "c-1", "web", "Killing c-10 and web"],
    ["c-1", "c-1", "web", "web"],
    ["a.c-1 c-1.b", "c-1", "web", "a.c-1 c-1.b"],
    ["no ID here", "", "web", "no ID here"],
    ["$1 and c-1", "c-1", "$&", "$1 and $&"],
  ])("%j", (message, id, name, want) => {
    expect(replaceContainerID(message, id, name)).toBe(want);
  });
});
