// The whole-node listings' cache (src/cri/listing_cache.ts) and the label index
// (src/cri/label_index.ts) answer ListContainers and ListPodSandbox with what a scan of every
// record gives: the same views in the same order, after every kind of change.
import { describe, expect, it } from "vitest";
import { matchLabels, type Container, type ContainerFilter, type PodSandbox, type PodSandboxFilter } from "../../src/cri/api.ts";
import { CriError } from "../../src/cri/errors.ts";
import { podSandboxView, toContainer } from "../../src/cri/views.ts";
import type { SimRuntime } from "../../src/cri/runtime.ts";
import type { Proc } from "../../src/sim/index.ts";
import { containerConfig, harness, sandboxConfig } from "./helpers.ts";

const uid = (pod: string) => ({ "io.kubernetes.pod.uid": `uid-${pod}` });

function scanContainers(rt: SimRuntime, f: ContainerFilter | null): Container[] {
  return [...rt.store.containers.values()].filter((c) =>
    (f?.id === undefined || c.id === f.id) && (f?.state === undefined || c.state === f.state) &&
    (f?.podSandboxId === undefined || c.sandboxId === f.podSandboxId) && matchLabels(c.config.labels, f?.labelSelector)).map(toContainer);
}

function scanSandboxes(rt: SimRuntime, f: PodSandboxFilter | null): PodSandbox[] {
  return [...rt.store.sandboxes.values()].filter((s) =>
    (f?.id === undefined || s.id === f.id) && (f?.state === undefined || s.state === f.state) && matchLabels(s.config.labels, f?.labelSelector)).map(podSandboxView);
}

const containerFilters: (ContainerFilter | null)[] = [
  null, {}, { state: "CONTAINER_RUNNING" }, { state: "CONTAINER_EXITED" }, { labelSelector: uid("a") }, { labelSelector: uid("b") },
  { labelSelector: uid("nobody") }, { labelSelector: uid("a"), state: "CONTAINER_RUNNING" }, { labelSelector: { "io.kubernetes.container.name": "app" } },
];
const sandboxFilters: (PodSandboxFilter | null)[] = [
  null, { state: "SANDBOX_READY" }, { state: "SANDBOX_NOTREADY" }, { labelSelector: uid("a") }, { labelSelector: uid("b"), state: "SANDBOX_READY" },
];

describe("the runtime's listings, kept and indexed", () => {
  it("equal a scan of every record, element for element, after every change; each caller gets its own array", () => {
    const h = harness();
    const mismatches: string[] = [];
    function* check(step: string): Proc<void> {
      for (let pass = 0; pass < 2; pass++) { // the second pass is answered from the cache and the index
        for (const f of containerFilters) {
          const got = yield* h.rt.ListContainers(f);
          if (got instanceof CriError) throw got;
          const want = scanContainers(h.rt, f);
          if (got.length !== want.length || got.some((c, i) => c !== want[i])) mismatches.push(`${step} ListContainers ${JSON.stringify(f)}`);
          got.length = 0; // a caller's array is its own
        }
        for (const f of sandboxFilters) {
          const got = yield* h.rt.ListPodSandbox(f);
          if (got instanceof CriError) throw got;
          const want = scanSandboxes(h.rt, f);
          if (got.length !== want.length || got.some((s, i) => s !== want[i])) mismatches.push(`${step} ListPodSandbox ${JSON.stringify(f)}`);
          got.length = 0;
        }
      }
    }
    h.rt.preloadImage("nginx:1.25");
    h.run(function* () {
      yield* check("empty");
      const ids: Record<string, string> = {};
      for (const pod of ["a", "b", "c"]) {
        const s = yield* h.rt.RunPodSandbox(sandboxConfig(pod), "");
        if (s instanceof CriError) throw s;
        ids[pod] = s;
        yield* check(`sandbox ${pod}`);
        for (const name of ["app", "side"]) {
          const c = yield* h.rt.CreateContainer(s, containerConfig(name, 0, "nginx:1.25", pod), sandboxConfig(pod));
          if (c instanceof CriError) throw c;
          yield* check(`created ${pod}/${name}`);
          yield* h.rt.StartContainer(c);
          yield* check(`started ${pod}/${name}`);
        }
      }
      const [first] = scanContainers(h.rt, { labelSelector: uid("a") });
      yield* h.rt.StopContainer(first!.id, 0);
      yield* check("stopped a/app");
      yield* h.rt.RemoveContainer(first!.id);
      yield* check("removed a/app");
      yield* h.rt.StopPodSandbox(ids["b"]!);
      yield* check("stopped sandbox b");
      yield* h.rt.RemovePodSandbox(ids["b"]!);
      yield* check("removed sandbox b");
    });
    expect(mismatches).toEqual([]);
  });
});
