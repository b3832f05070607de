// The static (file) pod source: manifests added, changed, removed and re-added (races R03, R04).
import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/sim/index.ts";
import type { Pod } from "../../../src/k8s/pod.ts";
import { applyDefaults, generatePodName } from "../../../src/kubelet/config/index.ts";
import { configHarness, short } from "./helpers.ts";

function manifest(image = "etcd:3.5", extra: Partial<Pod["metadata"]> = {}): Pod {
  return { metadata: { name: "etcd", namespace: "kube-system", ...extra }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: "etcd", image }] } };
}

describe("static pods from the manifest directory", () => {
  it("manifests present at start are listed at once: name-<node>, bound, hashed UID, static annotations", () => {
    const h = configHarness({ sources: "file" });
    h.dir.write("etcd.yaml", manifest());
    h.run(function* () {});
    expect(h.seen).toEqual([expect.stringMatching(/^0 ADD file etcd-node-1\//)]);
    const pod = h.updates[0]!.Pods[0]!;
    expect(pod.metadata.namespace).toBe("kube-system");
    expect(pod.metadata.uid).toMatch(/^[0-9a-f]{32}$/);
    expect(pod.spec.nodeName).toBe("node-1");
    expect(pod.status).toEqual({ phase: "Pending" });
    expect(pod.metadata.annotations).toEqual({
      "kubernetes.io/config.hash": pod.metadata.uid,
      "kubernetes.io/config.source": "file",
      "kubernetes.io/config.seen": "2025-01-01T00:00:00Z",
    });
    expect((pod.spec as { tolerations?: unknown }).tolerations).toEqual([{ operator: "Exists", effect: "NoExecute" }]);
  });

  it("an empty directory still marks the file source seen with an empty ADD", () => {
    const h = configHarness({ sources: "file" });
    h.run(function* () {});
    expect(h.seen).toEqual(["0 ADD file"]);
    expect(h.cfg.podConfig.SeenAllSources(new Set(["file"]))).toBe(true);
  });

  it("R03: remove then re-add the same manifest: REMOVE(U) then ADD(U) with the same UID, each on its inotify event", () => {
    const h = configHarness({ sources: "file" });
    h.run(function* () {
      yield* sleep(1000);
      h.dir.write("etcd.yaml", manifest());
      yield* sleep(9000);
      h.dir.remove("etcd.yaml");
      yield* sleep(500);
      h.dir.write("etcd.yaml", manifest());
    });
    const uid = short(h.updates[1]!.Pods[0]!.metadata.uid);
    expect(h.seen).toEqual(["0 ADD file", `1000 ADD file etcd-node-1/${uid}`, `10000 REMOVE file etcd-node-1/${uid}`, `10500 ADD file etcd-node-1/${uid}`]);
    expect(h.records("config", "REMOVE")).toMatchObject([{ t: 10_000, pod: "kube-system/etcd-node-1", source: "file" }]);
  });

  it("a fixed metadata.uid in the manifest is kept across remove and re-add", () => {
    const h = configHarness({ sources: "file" });
    h.run(function* () {
      h.dir.write("etcd.yaml", manifest("etcd:3.5", { uid: "fixed-uid" }));
      yield* sleep(1000);
      h.dir.remove("etcd.yaml");
      yield* sleep(500);
      h.dir.write("etcd.yaml", manifest("etcd:3.5", { uid: "fixed-uid" }));
    });
    expect(h.seen).toEqual(["0 ADD file", "0 ADD file etcd-node-1/fixe", "1000 REMOVE file etcd-node-1/fixe", "1500 ADD file etcd-node-1/fixe"]);
  });

  it("R04: editing the manifest gives a new UID under the same full name: REMOVE(old) then ADD(new) at once", () => {
    const h = configHarness({ sources: "file" });
    h.dir.write("etcd.yaml", manifest("etcd:3.5"));
    h.run(function* () {
      yield* sleep(5000);
      h.dir.write("etcd.yaml", manifest("etcd:3.6"));
    });
    const [first, removed, added] = h.updates;
    expect(h.seen.map((l) => l.split(" ").slice(0, 3).join(" "))).toEqual(["0 ADD file", "5000 REMOVE file", "5000 ADD file"]);
    expect(removed!.Pods[0]!.metadata.uid).toBe(first!.Pods[0]!.metadata.uid);
    expect(added!.Pods[0]!.metadata.uid).not.toBe(first!.Pods[0]!.metadata.uid);
    expect(added!.Pods[0]!.metadata.name).toBe("etcd-node-1");
  });

  it("every fileCheckFrequency (20 s) the directory is listed again; nothing changed, nothing sent", () => {
    const h = configHarness({ sources: "file", untilMs: 65_000 });
    h.dir.write("etcd.yaml", manifest());
    h.run(function* () {});
    expect(h.records("config", "FileList").map((r) => r.t)).toEqual([0, 20_000, 40_000, 60_000]);
    expect(h.seen).toHaveLength(1);
  });

  it("a change inotify does not report is seen at the next periodic list", () => {
    const h = configHarness({ sources: "file", config: { fileCheckFrequencyMs: 20_000 } });
    h.run(function* () {
      yield* sleep(3000);
      h.dir.write("etcd.yaml", manifest(), { inotify: false });
      yield* sleep(30_000);
      h.dir.remove("etcd.yaml", { inotify: false });
    });
    expect(h.seen.map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual(["0 ADD", "20000 ADD", "40000 REMOVE"]);
  });

  it("a manifest that is not a pod is skipped with a FileError; dot files are ignored", () => {
    const h = configHarness({ sources: "file", untilMs: 10_000 });
    h.dir.write("bad.yaml", { metadata: { name: "x" }, spec: { containers: [] } });
    h.dir.write(".swp", manifest("etcd:9"));
    h.dir.write("etcd.yaml", manifest());
    h.run(function* () {});
    expect(h.seen).toEqual([expect.stringMatching(/^0 ADD file etcd-node-1\//)]);
    expect(h.records("config", "FileError").map((r) => r.file)).toEqual(["/etc/kubernetes/manifests/bad.yaml"]);
  });
});

describe("applyDefaults", () => {
  it("the generated UID is a function of content, path and node", () => {
    const a = applyDefaults(manifest(), "/m/etcd.yaml", "node-1").metadata.uid;
    expect(applyDefaults(manifest(), "/m/etcd.yaml", "node-1").metadata.uid).toBe(a);
    expect(applyDefaults(manifest(), "/m/other.yaml", "node-1").metadata.uid).not.toBe(a);
    expect(applyDefaults(manifest(), "/m/etcd.yaml", "node-2").metadata.uid).not.toBe(a);
    expect(applyDefaults(manifest("etcd:3.6"), "/m/etcd.yaml", "node-1").metadata.uid).not.toBe(a);
  });

  it("generatePodName lowercases the node name", () => {
    expect(generatePodName("etcd", "Node-A")).toBe("etcd-node-a");
  });
});
