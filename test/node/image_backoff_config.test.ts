// The image pull back-off takes the kubelet's backOffPeriod and maxContainerBackOff, as the
// container restart back-off does (kubelet.go: imageBackOff := flowcontrol.NewBackOff(backOffPeriod,
// MaxContainerBackOff)): a pull of an image that never comes is retried 2, 4, 8, 8 s after the last failure here
// (and no sooner), not after 10, 20, 40 s.
import { describe, expect, it } from "vitest";
import { all, runScenario } from "../fixtures/node/trace.ts";

describe("image pull back-off with backOffPeriod 2s and maxContainerBackOff 8s", () => {
  const { records } = runScenario(`
name: image-backoff-config
until: 40s
kubelet: { version: "1.30", backOffPeriod: 2s, maxContainerBackOff: 8s }
runtime:
  images:
    "example/missing:1": { fail: { error: notFound } }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web }
      spec:
        containers: [{ name: app, image: "example/missing:1" }]
timeline:
  - { at: 0s, create: web }
`, "image-backoff-config.yaml");

  it("waits the configured, doubling, capped delays between pulls", () => {
    // A PullImage record is written when the pull returns, tookMs after it began.
    const pulls = all(records, { component: "runtime", kind: "PullImage", fields: { pod: "default/web" } })
      .map((r) => ({ startMs: r.t - Number(r.tookMs), endMs: r.t }));
    expect(pulls.length).toBeGreaterThanOrEqual(5);
    // The delay counts from the failed pull; the retry comes at the first sync after it, and a pod in
    // back-off is resynced every backOffPeriod x [1, 1.5] (the pod worker's jittered requeue).
    [2_000, 4_000, 8_000, 8_000].forEach((delayMs, i) => {
      const waited = pulls[i + 1]!.startMs - pulls[i]!.endMs;
      expect(waited).toBeGreaterThanOrEqual(delayMs);
      expect(waited).toBeLessThan(delayMs + 3_100);
    });
  });
});
