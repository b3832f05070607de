// The kubelet server's handlers as plain functions: healthz's output forms, the syncloop check's
// bound, GetPods' static pod status, the encodings of an empty list, a kubelet that is down.
import { describe, expect, it } from "vitest";
import { healthz, LogHealthz, PingHealthz, syncLoopHealthCheck, type HealthChecker } from "../../src/server/healthz.ts";
import { KubeletServer, podList } from "../../src/server/kubelet_server.ts";
import { GetPods, ToAPIPod } from "../../src/kubelet/kubelet_getters.ts";
import { listen } from "../../src/cli/serve_http.ts";
import { UserError } from "../../src/cli/exit.ts";
import type { Pod } from "../../src/k8s/pod.ts";

const req = (path: string, query = "") => ({ method: "GET", path, query: new URLSearchParams(query) });

describe("healthz (k8s.io/apiserver healthz handlers)", () => {
  const failing: HealthChecker = { name: "syncloop", check: () => "sync Loop took longer than expected" };

  it("a failure is always verbose, withholds the reason, and is a 500", () => {
    const r = healthz(req("/healthz"), [PingHealthz, LogHealthz, failing])!;
    expect(r.status).toBe(500);
    expect(r.body).toBe("[+]ping ok\n[+]log ok\n[-]syncloop failed: reason withheld\nhealthz check failed\n");
    const one = healthz(req("/healthz/syncloop"), [failing])!;
    expect([one.status, one.body]).toEqual([500, "internal server error: sync Loop took longer than expected\n"]);
  });

  it("an excluded check passes, and an unknown exclusion is warned about", () => {
    const r = healthz(req("/healthz", "exclude=syncloop&exclude=nope&verbose"), [PingHealthz, failing])!;
    expect(r.status).toBe(200);
    expect(r.body).toBe('[+]ping ok\n[+]syncloop excluded: ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nhealthz check passed\n');
  });

  it("syncloop fails once no iteration began for max(2 × syncFrequency, 5 min); never before the loop ran", () => {
    let now = 0;
    let entry: number | null = null;
    const c = syncLoopHealthCheck(() => entry, 60_000, () => now);
    expect(c.check()).toBeNull();
    entry = 1000;
    now = 1000 + 300_000;
    expect(c.check()).toBeNull();
    now += 1;
    expect(c.check()).toBe("sync Loop took longer than expected");
    expect(syncLoopHealthCheck(() => 0, 600_000, () => 1_200_000).check()).toBeNull();
    expect(syncLoopHealthCheck(() => 0, 600_000, () => 1_200_001).check()).not.toBeNull();
  });
});

describe("the kubelet server's routes", () => {
  const down = new KubeletServer({ kubelet: () => null, nowMs: () => 7000, syncFrequencyMs: 60_000 });

  it("answer 503 while the kubelet process is down", () => {
    for (const path of ["/pods", "/runningpods/", "/healthz"]) {
      const r = down.handle(req(path));
      expect(r.status, path).toBe(503);
      expect(r.body).toMatch(/not running at t=7000ms/);
    }
    expect(down.handle(req("/nope")).status).toBe(404);
  });

  it("encode an empty PodList's items as null, as Go encodes a nil slice", () => {
    expect(podList([])).toEqual({ kind: "PodList", apiVersion: "v1", metadata: {}, items: null });
  });

  it("GetPods gives a static pod the status manager's status, without touching the cached pod", () => {
    const staticPod: Pod = Object.freeze<Pod>({ metadata: { name: "s", uid: "u1", annotations: { "kubernetes.io/config.source": "file" } }, spec: { containers: [] }, status: { phase: "Pending" } });
    const apiPod: Pod = { metadata: { name: "a", uid: "u2" }, spec: { containers: [] }, status: { phase: "Pending" } };
    const pods = GetPods({ podManager: { GetPods: () => [staticPod, apiPod] }, statusManager: { GetPodStatus: () => ({ phase: "Running" }) } });
    expect(pods.map((p) => p.status?.phase)).toEqual(["Running", "Pending"]);
    expect(staticPod.status?.phase).toBe("Pending");
  });

  it("ToAPIPod keeps only identity and each container's name and image", () => {
    const pod = ToAPIPod({ id: "u", name: "n", namespace: "ns", createdAtMs: 5, sandboxes: [], containers: [{ id: { type: "t", id: "c1" }, name: "app", image: "img", imageID: "x", hash: 1, state: "running" }] });
    expect(pod).toEqual({ metadata: { uid: "u", name: "n", namespace: "ns" }, spec: { containers: [{ name: "app", image: "img" }] } });
  });
});

describe("the HTTP binding", () => {
  it("a port in use is a user error that suggests --port 0", async () => {
    const first = await listen(() => ({ status: 200, headers: {}, body: "" }), 0);
    try {
      await expect(listen(() => ({ status: 200, headers: {}, body: "" }), first.port)).rejects.toThrow(UserError);
      await expect(listen(() => ({ status: 200, headers: {}, body: "" }), first.port)).rejects.toThrow(/--port 0/);
    } finally {
      await first.close();
    }
  });
});
