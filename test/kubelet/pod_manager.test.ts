import { describe, expect, it } from "vitest";
import type { Pod } from "../../src/k8s/pod.ts";
import { PodManager } from "../../src/kubelet/pod_manager.ts";

const pod = (name: string, uid: string, image = "a"): Pod =>
  ({ metadata: { name, namespace: "default", uid }, spec: { containers: [{ name: "c", image }] } }) as unknown as Pod;

describe("the pod manager's GetPods", () => {
  it("lists the desired pods by UID, each as last updated, after adds, updates and removes", () => {
    const m = new PodManager();
    const names = () => m.GetPods().map((p) => `${p.metadata.uid}:${p.spec.containers[0]!.image}`);
    m.AddPod(pod("x", "u3"));
    m.AddPod(pod("y", "u1"));
    expect(names()).toEqual(["u1:a", "u3:a"]);
    m.UpdatePod(pod("x", "u3", "b")); // a new object for a known UID
    expect(names()).toEqual(["u1:a", "u3:b"]);
    m.AddPod(pod("z", "u2"));
    expect(names()).toEqual(["u1:a", "u2:a", "u3:b"]);
    m.RemovePod(pod("y", "u1"));
    m.RemovePod(pod("nobody", "u9"));
    expect(names()).toEqual(["u2:a", "u3:b"]);
    const a = m.GetPods();
    a.length = 0; // a caller's array is its own
    expect(names()).toEqual(["u2:a", "u3:b"]);
  });
});
