// The image pull back-off (images/image_manager.go) as the kubelet configures and reports it.
import { describe, expect, it } from "vitest";
import { all, runScenario } from "../fixtures/node/trace.ts";

/** A pod whose image is never found, under the given `kubelet:` section. */
function missingImage(kubelet: string, until: string, name: string) {
  return runScenario(`
name: ${name}
until: ${until}
kubelet: ${kubelet}
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
`, `${name}.yaml`).records;
}

// kubelet.go: imageBackOff := flowcontrol.NewBackOff(backOffPeriod, MaxContainerBackOff), as the
// container restart back-off: a pull of an image that never comes is retried 2, 4, 8, 8 s after
// the last failure here (and no sooner), not after 10, 20, 40 s.
describe("image pull back-off with backOffPeriod 2s and maxContainerBackOff 8s", () => {
  const records = missingImage('{ version: "1.30", backOffPeriod: 2s, maxContainerBackOff: 8s }', "40s", "image-backoff-config");

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

// From 1.32 (#127918) the back-off's message, which becomes the container's waiting message,
// carries the error of the pull that put it in back-off; the BackOff event keeps the short text.
describe("the ImagePullBackOff message", () => {
  function backOffMessages(version: string) {
    const records = missingImage(`{ version: "${version}" }`, "30s", `image-backoff-message-${version.replace(".", "-")}`);
    const starts = all(records, { component: "kuberuntime", kind: "StartContainer", fields: { pod: "default/web", error: "ImagePullBackOff" } });
    const events = all(records, { component: "kubelet", kind: "Event", fields: { pod: "default/web", reason: "BackOff" } });
    return { start: String(starts[0]?.message), event: String(events[0]?.message) };
  }

  it("1.32: carries the last pull error; the event does not", () => {
    const m = backOffMessages("1.32");
    expect(m.start).toMatch(/^Back-off pulling image "example\/missing:1": ErrImagePull: rpc error: code = NotFound desc = .*not found$/);
    expect(m.event).toBe('Back-off pulling image "example/missing:1"');
  });

  it("1.31: the short text only", () => {
    const m = backOffMessages("1.31");
    expect(m.start).toBe('Back-off pulling image "example/missing:1"');
    expect(m.event).toBe('Back-off pulling image "example/missing:1"');
  });
});
