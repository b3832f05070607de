// The runtime's views copy a record's metadata, image, labels and annotations as a spread would
// (src/cri/views.ts copies by Object.assign for the hidden classes' sake): the same own keys in the
// same order, frozen, never the record's own objects, and a key "__proto__" kept as a key.
import { describe, expect, it } from "vitest";
import type { ContainerRecord, SandboxRecord } from "../../src/cri/store.ts";
import { podSandboxView, toContainer } from "../../src/cri/views.ts";

function container(labels: Record<string, string>): ContainerRecord {
  return {
    id: "c1", sandboxId: "s1", imageRef: "sha256:1", state: "CONTAINER_RUNNING", createdAtMs: 5,
    config: { metadata: { name: "app", attempt: 2 }, image: { image: "nginx:1.25" }, labels, annotations: { "io.kubernetes.container.hash": "abc", z: "1", a: "2" } },
  } as unknown as ContainerRecord;
}

describe("the runtime's views", () => {
  it("copy each field's keys in order, frozen, apart from the record", () => {
    const rec = container({ b: "1", a: "2", "io.kubernetes.pod.uid": "u" });
    const v = toContainer(rec);
    for (const [copy, source] of [[v.metadata, rec.config.metadata], [v.image, rec.config.image], [v.labels, rec.config.labels], [v.annotations, rec.config.annotations]] as const) {
      expect(copy).not.toBe(source);
      expect(Object.isFrozen(copy)).toBe(true);
      expect(Object.entries(copy)).toEqual(Object.entries(source!));
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    }
    const sandbox = { id: "s1", state: "SANDBOX_READY", createdAtMs: 1, runtimeHandler: "", config: { metadata: { name: "web", uid: "u", namespace: "default", attempt: 0 }, labels: {}, annotations: {} } } as unknown as SandboxRecord;
    const sv = podSandboxView(sandbox);
    expect(sv.metadata).not.toBe(sandbox.config.metadata);
    expect(Object.isFrozen(sv.metadata)).toBe(true);
    expect(Object.entries(sv.metadata)).toEqual(Object.entries(sandbox.config.metadata));
  });

  it("keep a label named __proto__ as a key, not as the copy's prototype", () => {
    const labels = JSON.parse('{"a":"1","__proto__":"x","b":"2"}') as Record<string, string>;
    const v = toContainer(container(labels));
    expect(Object.getPrototypeOf(v.labels)).toBe(Object.prototype);
    expect(Object.hasOwn(v.labels, "__proto__")).toBe(true);
    expect(Object.entries(v.labels)).toEqual([["a", "1"], ["__proto__", "x"], ["b", "2"]]);
  });
});
