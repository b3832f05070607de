// From 1.32 (#127918) the image pull back-off's message, which becomes the container's waiting
// message, carries the error of the pull that put it in back-off; the BackOff event keeps the
// short text. Before, both said only "Back-off pulling image ...".
import { describe, expect, it } from "vitest";
import { all, runScenario } from "../fixtures/node/trace.ts";

function backOffMessages(version: string) {
  const { records } = runScenario(`
name: image-backoff-message
until: 30s
kubelet: { version: "${version}" }
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
`, `image-backoff-message-${version}.yaml`);
  const starts = all(records, { component: "kuberuntime", kind: "StartContainer", fields: { pod: "default/web", error: "ImagePullBackOff" } });
  const events = all(records, { component: "kubelet", kind: "Event", fields: { pod: "default/web", reason: "BackOff" } });
  return { start: String(starts[0]?.message), event: String(events[0]?.message) };
}

describe("the ImagePullBackOff message", () => {
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
