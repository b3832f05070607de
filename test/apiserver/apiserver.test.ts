// The apiserver's pod semantics through its client, on the virtual clock.
import { describe, expect, it } from "vitest";
import { recv, sleep } from "../../src/sim/index.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import type { WatchEvent } from "../../src/apiserver/index.ts";
import { apiHarness, must, podManifest } from "./helpers.ts";

describe("create, get, list", () => {
  it("create assigns uid, creationTimestamp from virtual time, Pending, defaults, and bumps resourceVersion", () => {
    const h = apiHarness({ latencyMs: 10 });
    const user = h.api.client("user");
    let created: Pod | null = null;
    h.run(function* () {
      yield* sleep(2000);
      created = must(yield* user.createPod(podManifest("web")));
    });
    const p = created! as Pod;
    expect(p.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(p.metadata.creationTimestamp).toBe("2025-01-01T00:00:02Z");
    expect(p.metadata.resourceVersion).toBe("2");
    expect(p.status).toEqual({ phase: "Pending" });
    expect(p.spec.terminationGracePeriodSeconds).toBe(30);
    expect(h.records("apiserver", "Create")).toMatchObject([{ t: 2005, actor: "user", pod: "default/web", uid: p.metadata.uid, result: "ok" }]);
  });

  it("a second create of the same name is AlreadyExists; get of a missing pod is NotFound", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    const errs: string[] = [];
    h.run(function* () {
      must(yield* user.createPod(podManifest("web")));
      errs.push((yield* user.createPod(podManifest("web"))).err!.message);
      errs.push((yield* user.getPod("default", "nope")).err!.message);
    });
    expect(errs).toEqual(['pods "web" already exists', 'pods "nope" not found']);
  });

  it("list selects by spec.nodeName, sorted by key, at the current resourceVersion", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    let names: string[] = [];
    let rv = "";
    h.run(function* () {
      for (const n of ["c", "a", "b"]) must(yield* user.createPod(podManifest(n)));
      must(yield* user.createPod(podManifest("elsewhere", { nodeName: "node-2" })));
      const l = must(yield* user.listPods({ nodeName: "node-1" }));
      names = l.items.map((p) => p.metadata.name);
      rv = l.resourceVersion;
    });
    expect(names).toEqual(["a", "b", "c"]);
    expect(rv).toBe("5");
  });

  it("UIDs are a function of the seed", () => {
    const uidsFor = (seed: number) => {
      const h = apiHarness({}, seed);
      const user = h.api.client("user");
      const out: string[] = [];
      h.run(function* () {
        for (const n of ["a", "b"]) out.push(must(yield* user.createPod(podManifest(n))).metadata.uid!);
      });
      return out;
    };
    expect(uidsFor(3)).toEqual(uidsFor(3));
    expect(uidsFor(3)).not.toEqual(uidsFor(4));
  });
});

describe("frozen objects", () => {
  it("every object handed out (create, get, list, watch event) throws on mutation", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    const handed: Pod[] = [];
    h.run(function* () {
      const w = must(yield* user.watchPods({ resourceVersion: "0" }));
      handed.push(must(yield* user.createPod(podManifest("web"))));
      handed.push(must(yield* user.getPod("default", "web")));
      handed.push(must(yield* user.listPods()).items[0]!);
      handed.push((yield* recv(w.resultChan)).value!.object!);
    });
    expect(handed).toHaveLength(4);
    for (const p of handed) {
      expect(() => { (p.metadata as { name: string }).name = "x"; }).toThrow(TypeError);
      expect(() => { p.spec.containers[0]!.image = "evil"; }).toThrow(TypeError);
      expect(() => { (p.status as { phase?: string }).phase = "Running"; }).toThrow(TypeError);
    }
  });
});

describe("update and the status subresource", () => {
  it("an image update bumps resourceVersion and keeps status; a no-op update writes nothing", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    const rvs: string[] = [];
    h.run(function* () {
      const p = must(yield* user.createPod(podManifest("web")));
      must(yield* user.patchPodStatus("default", "web", { phase: "Running" }, p.metadata.uid));
      const cur = must(yield* user.getPod("default", "web"));
      const next = { ...cur, spec: { ...cur.spec, containers: [{ ...cur.spec.containers[0]!, image: "nginx:2" }] }, status: { phase: "Failed" as const } };
      const u = must(yield* user.updatePod(next));
      rvs.push(u.metadata.resourceVersion!, u.spec.containers[0]!.image!, u.status!.phase!);
      rvs.push(must(yield* user.updatePod(u)).metadata.resourceVersion!);
    });
    expect(rvs).toEqual(["4", "nginx:2", "Running", "4"]);
  });

  it("an update with a stale resourceVersion is a Conflict; a spec change other than images is Invalid", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    const errs: string[] = [];
    h.run(function* () {
      const p = must(yield* user.createPod(podManifest("web")));
      must(yield* user.patchPodStatus("default", "web", { phase: "Running" }));
      errs.push((yield* user.updatePod(p)).err!.message);
      const cur = must(yield* user.getPod("default", "web"));
      errs.push((yield* user.updatePod({ ...cur, spec: { ...cur.spec, restartPolicy: "Never" } })).err!.message);
    });
    expect(errs[0]).toBe('Operation cannot be fulfilled on pods "web": the object has been modified; please apply your changes to the latest version and try again');
    expect(errs[1]).toMatch(/^Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than/);
  });

  it("patch status replaces status only; spec in the stored pod is untouched", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    let out: Pod | null = null;
    h.run(function* () {
      const p = must(yield* user.createPod(podManifest("web")));
      out = must(yield* user.patchPodStatus("default", "web", { phase: "Running", podIP: "10.0.0.1" }, p.metadata.uid));
    });
    expect((out as Pod | null)?.status).toEqual({ phase: "Running", podIP: "10.0.0.1" });
    expect((out as Pod | null)?.spec.containers[0]!.image).toBe("nginx:1");
  });

  it("R15: a status patch with the old UID never lands on a pod recreated under the same name", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    const kubelet = h.api.client("kubelet");
    let err = "";
    let phaseOfB = "";
    h.run(function* () {
      const a = must(yield* user.createPod(podManifest("web-0")));
      must(yield* user.deletePod("default", "web-0", { gracePeriodSeconds: 0 }));
      must(yield* user.createPod(podManifest("web-0")));
      err = (yield* kubelet.patchPodStatus("default", "web-0", { phase: "Failed" }, a.metadata.uid)).err!.message;
      phaseOfB = must(yield* user.getPod("default", "web-0")).status!.phase!;
    });
    expect(err).toMatch(/^Pod "web-0" is invalid: metadata.uid: Invalid value: "[0-9a-f-]+": field is immutable$/);
    expect(phaseOfB).toBe("Pending");
    expect(h.records("apiserver", "PatchStatus")[0]).toMatchObject({ actor: "kubelet", result: "Invalid", code: 422 });
  });

  it("with restartPolicy Never a terminated container may not go back to running", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    let err = "";
    h.run(function* () {
      must(yield* user.createPod(podManifest("job", { restartPolicy: "Never" })));
      must(yield* user.patchPodStatus("default", "job", { phase: "Failed", containerStatuses: [{ name: "app", state: { terminated: { exitCode: 1 } } }] }));
      err = (yield* user.patchPodStatus("default", "job", { phase: "Running", containerStatuses: [{ name: "app", state: { running: {} } }] })).err!.message;
    });
    expect(err).toBe('Pod "job" is invalid: status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state');
  });
});

describe("graceful deletion", () => {
  it("delete sets deletionTimestamp and grace; a second delete only shortens; grace 0 removes", () => {
    const h = apiHarness({ latencyMs: 0 });
    const user = h.api.client("user");
    const seen: unknown[] = [];
    h.run(function* () {
      must(yield* user.createPod(podManifest("web", { grace: 60 })));
      yield* sleep(1000);
      const d1 = must(yield* user.deletePod("default", "web"));
      seen.push([d1.deleted, d1.pod.metadata.deletionTimestamp, d1.pod.metadata.deletionGracePeriodSeconds]);
      yield* sleep(5000);
      const d2 = must(yield* user.deletePod("default", "web", { gracePeriodSeconds: 120 }));
      seen.push([d2.deleted, d2.pod.metadata.deletionTimestamp, d2.pod.metadata.deletionGracePeriodSeconds]);
      const d3 = must(yield* user.deletePod("default", "web", { gracePeriodSeconds: 10 }));
      seen.push([d3.deleted, d3.pod.metadata.deletionTimestamp, d3.pod.metadata.deletionGracePeriodSeconds]);
      const d4 = must(yield* user.deletePod("default", "web", { gracePeriodSeconds: 0 }));
      seen.push([d4.deleted, d4.pod.metadata.deletionGracePeriodSeconds]);
      seen.push((yield* user.getPod("default", "web")).err!.reason);
    });
    expect(seen).toEqual([
      [false, "2025-01-01T00:01:01Z", 60],
      [false, "2025-01-01T00:01:01Z", 60],
      [false, "2025-01-01T00:00:11Z", 10],
      [true, 0],
      "NotFound",
    ]);
  });

  it("an unscheduled pod is removed at once, whatever the grace", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    let deleted = false;
    h.run(function* () {
      must(yield* user.createPod(podManifest("pending", { nodeName: null })));
      deleted = must(yield* user.deletePod("default", "pending", { gracePeriodSeconds: 30 })).deleted;
    });
    expect(deleted).toBe(true);
  });

  it("force delete is seen by a watch as MODIFIED (grace 0) then DELETED", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    const events: string[] = [];
    h.run(function* () {
      const p = must(yield* user.createPod(podManifest("web")));
      const w = must(yield* user.watchPods({ resourceVersion: p.metadata.resourceVersion! }));
      must(yield* user.deletePod("default", "web", { gracePeriodSeconds: 0 }));
      for (let i = 0; i < 2; i++) {
        const e = (yield* recv(w.resultChan)).value!;
        events.push(`${e.type}:${e.object!.metadata.deletionGracePeriodSeconds}:${e.object!.metadata.resourceVersion}`);
      }
      w.stop();
    });
    expect(events).toEqual(["MODIFIED:0:3", "DELETED:0:4"]);
  });

  it("the kubelet's final delete (grace 0 + UID precondition) fails with 409 on a recreated pod and leaves it alone", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    const kubelet = h.api.client("kubelet");
    let code = 0;
    let stillThere = false;
    h.run(function* () {
      const a = must(yield* user.createPod(podManifest("web-0")));
      must(yield* user.deletePod("default", "web-0", { gracePeriodSeconds: 0 }));
      const b = must(yield* user.createPod(podManifest("web-0")));
      code = (yield* kubelet.deletePod("default", "web-0", { gracePeriodSeconds: 0, preconditions: { uid: a.metadata.uid! } })).err!.code;
      stillThere = must(yield* user.getPod("default", "web-0")).metadata.uid === b.metadata.uid;
      const ok = must(yield* kubelet.deletePod("default", "web-0", { gracePeriodSeconds: 0, preconditions: { uid: b.metadata.uid! } }));
      stillThere = stillThere && ok.deleted;
    });
    expect(code).toBe(409);
    expect(stillThere).toBe(true);
  });
});

describe("watch", () => {
  function collect(h: ReturnType<typeof apiHarness>, w: { resultChan: import("../../src/sim/index.ts").Chan<WatchEvent> }, out: string[]) {
    h.sim.go("watcher", function* () {
      for (;;) {
        const { value, ok } = yield* recv(w.resultChan);
        if (!ok) { out.push(`${h.sim.nowMs}:closed`); return; }
        out.push(`${h.sim.nowMs}:${value!.type}:${value!.object?.metadata.name ?? value!.status?.code}`);
      }
    }, { daemon: true });
  }

  it("delivers each event after the watcher's delay, in order, filtered by node", () => {
    const h = apiHarness({ latencyMs: 10, watchDelayMs: 100 });
    const user = h.api.client("user");
    const out: string[] = [];
    h.run(function* () {
      const w = must(yield* user.watchPods({ nodeName: "node-1", resourceVersion: "1" }));
      collect(h, w, out);
      must(yield* user.createPod(podManifest("a")));
      must(yield* user.createPod(podManifest("other", { nodeName: "node-2" })));
      must(yield* user.createPod(podManifest("b")));
    });
    // Writes land at the middle of each 10 ms request: 15, 25, 35; delivery is 100 ms later.
    expect(out).toEqual(["115:ADDED:a", "135:ADDED:b"]);
  });

  it("a watch from a resourceVersion older than the window gets ERROR 410 Expired and closes", () => {
    const h = apiHarness({ watchWindow: 2 });
    const user = h.api.client("user");
    const out: string[] = [];
    let message = "";
    h.run(function* () {
      for (const n of ["a", "b", "c", "d"]) must(yield* user.createPod(podManifest(n)));
      const w = must(yield* user.watchPods({ resourceVersion: "2" }));
      const e = (yield* recv(w.resultChan)).value!;
      out.push(e.type);
      message = e.status!.message;
      out.push(String((yield* recv(w.resultChan)).ok));
    });
    expect(out).toEqual(["ERROR", "false"]);
    expect(message).toBe("too old resource version: 2 (3)");
  });

  it("a watch from a retained resourceVersion replays the events after it", () => {
    const h = apiHarness();
    const user = h.api.client("user");
    const out: string[] = [];
    h.run(function* () {
      for (const n of ["a", "b", "c"]) must(yield* user.createPod(podManifest(n)));
      const w = must(yield* user.watchPods({ resourceVersion: "2" }));
      collect(h, w, out);
      yield* sleep(100);
      w.stop();
    });
    expect(out.map((s) => s.split(":").slice(1).join(":"))).toEqual(["ADDED:b", "ADDED:c", "closed"]);
  });

  it("the server closes a watch at its timeout", () => {
    const h = apiHarness({ latencyMs: 0 });
    const user = h.api.client("user");
    const out: string[] = [];
    h.run(function* () {
      const w = must(yield* user.watchPods({ resourceVersion: "1", timeoutSeconds: 300 }));
      collect(h, w, out);
    });
    expect(out).toEqual(["300000:closed"]);
  });

  it("scenario fault: delay slows one actor's open watches, in order, until set back to 0", () => {
    const h = apiHarness({ latencyMs: 0, watchDelayMs: 5 });
    const user = h.api.client("user");
    const slow: string[] = [];
    const fast: string[] = [];
    h.run(function* () {
      const wk = must(yield* h.api.client("kubelet").watchPods({ resourceVersion: "1" }));
      collect(h, wk, slow);
      collect(h, must(yield* user.watchPods({ resourceVersion: "1" })), fast);
      h.api.registry.delayWatches(1000, "kubelet");
      must(yield* user.createPod(podManifest("a")));
      yield* sleep(10);
      h.api.registry.delayWatches(0, "kubelet");
      must(yield* user.createPod(podManifest("b")));
    });
    expect(fast).toEqual(["5:ADDED:a", "15:ADDED:b"]);
    expect(slow).toEqual(["1005:ADDED:a", "1005:ADDED:b"]);
  });

  it("scenario faults: drop closes the stream; expire sends 410 then closes", () => {
    const h = apiHarness({ latencyMs: 0 });
    const user = h.api.client("user");
    const out1: string[] = [];
    const out2: string[] = [];
    h.run(function* () {
      collect(h, must(yield* user.watchPods({ resourceVersion: "1" })), out1);
      yield* sleep(10);
      h.api.registry.dropWatches();
      collect(h, must(yield* user.watchPods({ resourceVersion: "1" })), out2);
      yield* sleep(10);
      h.api.registry.expireWatches();
    });
    expect(out1).toEqual(["10:closed"]);
    expect(out2).toEqual(["25:ERROR:410", "25:closed"]);
  });
});

describe("latency and partitions", () => {
  it("a range latency is drawn from the seeded stream, within bounds, the same for the same seed", () => {
    const times = (seed: number) => {
      const h = apiHarness({ latencyMs: [5, 50] }, seed);
      const user = h.api.client("user");
      const out: number[] = [];
      h.run(function* () {
        for (let i = 0; i < 20; i++) {
          const t0 = h.sim.nowMs;
          yield* user.getPod("default", "x");
          out.push(h.sim.nowMs - t0);
        }
      });
      return out;
    };
    const a = times(9);
    expect(a.every((ms) => ms >= 5 && ms <= 50)).toBe(true);
    expect(new Set(a).size).toBeGreaterThan(3);
    expect(times(9)).toEqual(a);
  });

  it("refuse: requests starting in [from, to) fail fast with connection refused, for the cut actor only", () => {
    const h = apiHarness({ latencyMs: 10, partitions: [{ fromMs: 1000, toMs: 2000, mode: "refuse", actors: ["kubelet"] }] });
    const kubelet = h.api.client("kubelet");
    const user = h.api.client("user");
    const out: string[] = [];
    h.run(function* () {
      must(yield* user.createPod(podManifest("web")));
      yield* sleep(1000);
      const r = yield* kubelet.getPod("default", "web");
      out.push(`${h.sim.nowMs}:${r.err?.message}`);
      out.push(`user:${(yield* user.getPod("default", "web")).err}`);
      yield* sleep(1000);
      out.push(`${h.sim.nowMs}:${(yield* kubelet.getPod("default", "web")).err}`);
    });
    expect(out).toEqual([
      '1020:GET "https://apiserver/api/v1/namespaces/default/pods/web": dial tcp apiserver:6443: connect: connection refused',
      "user:null",
      "2030:null",
    ]);
  });

  it("hang: a request waits for the client timeout, and nothing reaches the server", () => {
    const h = apiHarness({ latencyMs: 10, requestTimeoutMs: 30_000, partitions: [{ fromMs: 0, toMs: 5000, mode: "hang" }] });
    const user = h.api.client("user");
    let at = 0;
    let msg = "";
    h.run(function* () {
      const r = yield* user.createPod(podManifest("web"));
      at = h.sim.nowMs;
      msg = r.err!.message;
    });
    expect(at).toBe(30_000);
    expect(msg).toMatch(/Client.Timeout exceeded/);
    expect(h.api.store.pods).toEqual({});
  });

  it("a partition drops the cut actor's open watches when it begins", () => {
    const h = apiHarness({ latencyMs: 0, partitions: [{ fromMs: 500, toMs: 600, mode: "refuse", actors: ["kubelet"] }] });
    const kubelet = h.api.client("kubelet");
    const user = h.api.client("user");
    const closedAt: string[] = [];
    h.run(function* () {
      const wk = must(yield* kubelet.watchPods({ resourceVersion: "1" }));
      const wu = must(yield* user.watchPods({ resourceVersion: "1" }));
      h.sim.go("k", function* () { yield* recv(wk.resultChan); closedAt.push(`kubelet:${h.sim.nowMs}`); }, { daemon: true });
      h.sim.go("u", function* () { yield* recv(wu.resultChan); closedAt.push(`user:${h.sim.nowMs}`); }, { daemon: true });
    });
    expect(closedAt).toEqual(["kubelet:500"]);
  });
});

describe("determinism", () => {
  it("same seed, same trace; a different seed changes the UIDs and so the trace", () => {
    const hashFor = (seed: number) => {
      const h = apiHarness({ latencyMs: [1, 30], watchDelayMs: [0, 20] }, seed);
      const user = h.api.client("user");
      return h.run(function* () {
        const w = must(yield* user.watchPods({ resourceVersion: "0" }));
        h.sim.go("drain", function* () { for (;;) if (!(yield* recv(w.resultChan)).ok) return; }, { daemon: true });
        for (const n of ["a", "b", "c"]) must(yield* user.createPod(podManifest(n)));
        must(yield* user.deletePod("default", "b", { gracePeriodSeconds: 5 }));
        must(yield* user.deletePod("default", "c", { gracePeriodSeconds: 0 }));
      }).traceHash;
    };
    expect(hashFor(5)).toBe(hashFor(5));
    expect(hashFor(5)).not.toBe(hashFor(6));
  });
});

describe("the user's kubectl-like actions", () => {
  it("set image retries on conflict and lands on the latest version", async () => {
    const { kubectl } = await import("../../src/apiserver/index.ts");
    const h = apiHarness({ latencyMs: 10 });
    const user = h.api.client("user");
    const other = h.api.client("controller");
    let image = "";
    h.run(function* () {
      must(yield* kubectl.create(user, podManifest("web")));
      // A controller writes the status between the user's GET and PUT: the first PUT conflicts.
      h.sim.go("controller", function* () {
        yield* sleep(8); // its patch lands at 23: after the GET (15), before the PUT (25)
        must(yield* other.patchPodStatus("default", "web", { phase: "Running" }));
      });
      image = must(yield* kubectl.setImage(user, "default", "web", "app", "nginx:2")).spec.containers[0]!.image!;
      const gone = must(yield* kubectl.forceDelete(user, "default", "web"));
      expect(gone.deleted).toBe(true);
    });
    expect(image).toBe("nginx:2");
    expect(h.records("apiserver", "Update").map((r) => r.result)).toEqual(["Conflict", "ok"]);
  });
});

describe("a watch's buffer (cacheWatcher's input channel)", () => {
  /** Creates `n` pods at one instant, each by its own goroutine (as a slow-start batch does). */
  function burst(h: ReturnType<typeof apiHarness>, n: number): void {
    for (let i = 0; i < n; i++) h.sim.go(`creator/${i}`, function* () {
      must(yield* h.api.client("creator").createPod(podManifest(`p${i}`)));
    });
  }

  it("a burst written in one instant, more than the buffer holds, reaches a client that reads: the watch stays open", () => {
    const h = apiHarness({ watchBuffer: 3 });
    const seen: string[] = [];
    h.run(function* () {
      const w = must(yield* h.api.client("reader").watchPods({}));
      burst(h, 10);
      for (let i = 0; i < 10; i++) seen.push((yield* recv(w.resultChan)).value!.object!.metadata.name);
      w.stop();
    });
    expect(seen).toHaveLength(10);
    expect(h.records("apiserver", "WatchClosed").map((r) => r.reason)).toEqual(["stopped by client"]);
  });

  it("a list from resourceVersion 0 of more pods than the buffer holds is delivered whole", () => {
    const h = apiHarness({ watchBuffer: 3 });
    let added = 0;
    h.run(function* () {
      for (let i = 0; i < 8; i++) must(yield* h.api.client("creator").createPod(podManifest(`p${i}`)));
      const w = must(yield* h.api.client("reader").watchPods({ resourceVersion: "0" }));
      for (let i = 0; i < 8; i++) if ((yield* recv(w.resultChan)).value!.type === "ADDED") added++;
      w.stop();
    });
    expect(added).toBe(8);
  });

  it("a client that stops reading is cut off once its buffer is full of events it did not take", () => {
    const h = apiHarness({ watchBuffer: 3 });
    h.run(function* () {
      must(yield* h.api.client("reader").watchPods({}));
      for (let i = 0; i < 5; i++) {
        must(yield* h.api.client("creator").createPod(podManifest(`p${i}`)));
        yield* sleep(1000);
      }
    });
    expect(h.records("apiserver", "WatchClosed").map((r) => r.reason)).toEqual(["watcher buffer full (unresponsive client)"]);
  });
});
