import { describe, expect, it } from "vitest";
import type { Pod } from "../../src/k8s/pod.ts";
import { getPodFullName, podKey } from "../../src/k8s/podutil.ts";

describe("podKey", () => {
  it("is namespace/name, or the name alone without a namespace, for frozen and unfrozen pods alike", () => {
    const meta = Object.freeze({ name: "web", namespace: "default", uid: "u1" });
    const frozen = Object.freeze({ metadata: meta }) as unknown as Pod;
    expect(podKey(frozen)).toBe("default/web");
    // A second version with the same metadata gets the same string.
    expect(podKey(Object.freeze({ metadata: meta, status: {} }) as unknown as Pod)).toBe("default/web");
    const unfrozen = { metadata: { name: "db", namespace: "" } } as unknown as Pod;
    expect(podKey(unfrozen)).toBe("db");
    unfrozen.metadata.namespace = "kube-system"; // an unfrozen pod may change: never remembered
    expect(podKey(unfrozen)).toBe("kube-system/db");
  });
});

describe("getPodFullName", () => {
  it("is name_namespace, remembered only for frozen metadata", () => {
    const meta = Object.freeze({ name: "web", namespace: "default", uid: "u1" });
    expect(getPodFullName(Object.freeze({ metadata: meta }) as unknown as Pod)).toBe("web_default");
    expect(getPodFullName(Object.freeze({ metadata: meta, status: {} }) as unknown as Pod)).toBe("web_default");
    // A frozen pod whose metadata is not frozen: the metadata may change, so it is read each time.
    const openMeta = { name: "db", namespace: "" };
    const pod = Object.freeze({ metadata: openMeta }) as unknown as Pod;
    expect(getPodFullName(pod)).toBe("db_");
    openMeta.namespace = "kube-system";
    expect(getPodFullName(pod)).toBe("db_kube-system");
    expect(podKey(pod)).toBe("kube-system/db");
  });
});
