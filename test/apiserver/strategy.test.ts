import { describe, expect, it } from "vitest";
import { validateCreate } from "../../src/apiserver/strategy.ts";
import { validatePodForCreate } from "../../src/apiserver/validation/index.ts";
import type { Pod } from "../../src/k8s/pod.ts";

// validateCreate keeps each result per pod content (strategy.ts): what it answers must be what
// validating that pod answers, whatever was validated before it and whatever object holds it.
const answer = (pod: Pod): string | null => validateCreate(pod)?.message ?? null;
const fresh = (pod: Pod): string | null => {
  const r = validatePodForCreate(pod);
  return r.ok ? null : r.statusMessage;
};

const base = (): Pod =>
  ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "web", namespace: "default" },
    spec: { containers: [{ name: "app", image: "nginx:1.25" }] },
  }) as unknown as Pod;

describe("validateCreate", () => {
  it("validates an unfrozen pod again when its content changed under the same object", () => {
    const pod = base() as unknown as { spec: { containers: { image: string }[] } };
    expect(answer(pod as unknown as Pod)).toBeNull();
    pod.spec.containers[0]!.image = "";
    expect(answer(pod as unknown as Pod)).toBe('Pod "web" is invalid: spec.containers[0].image: Required value');
    pod.spec.containers[0]!.image = "nginx:1.25";
    expect(answer(pod as unknown as Pod)).toBeNull();
  });

  it("answers as validation does for pods whose JSON texts would be alike", () => {
    // Each pair differs only where JSON.stringify would lose the difference.
    const variants: Pod[] = [
      base(),
      { ...base(), spec: { containers: [{ name: "app", image: "nginx:1.25", ports: undefined }] } } as unknown as Pod,
      { ...base(), spec: { containers: [{ name: "app", image: "nginx:1.25" }], terminationGracePeriodSeconds: -1 } } as unknown as Pod,
      { ...base(), spec: { containers: [{ name: "app", image: "nginx:1.25" }], terminationGracePeriodSeconds: Number.NaN } } as unknown as Pod,
      { ...base(), spec: { containers: [{ name: "app", image: "nginx:1.25" }], terminationGracePeriodSeconds: null } } as unknown as Pod,
      { ...base(), spec: { containers: [{ name: "app", image: "nginx:1.25" }], activeDeadlineSeconds: -0 } } as unknown as Pod,
      { ...base(), spec: { containers: [{ name: "app", image: "nginx:1.25" }], activeDeadlineSeconds: 0 } } as unknown as Pod,
      { ...base(), metadata: { name: "web", namespace: "default", labels: { a: "\u0000undefined" } } } as unknown as Pod,
      { ...base(), metadata: { name: "web", namespace: "default", labels: { a: undefined } } } as unknown as Pod,
    ];
    // Twice over, in both orders, so each is answered once fresh and once from what was kept.
    for (const order of [variants, [...variants].reverse(), variants]) {
      for (const pod of order) expect(answer(pod)).toBe(fresh(pod));
    }
  });
});
