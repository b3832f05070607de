import { describe, expect, it } from "vitest";
import { MemorySink, Sim, sleep } from "../../src/sim/index.ts";
import { nodeSim } from "../../src/node/node_sim.ts";

describe("a node's view of the kernel", () => {
  it("names the node's goroutines, groups and random streams after it, and its records carry its name", () => {
    const sink = new MemorySink();
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, sinks: [sink] });
    const view = nodeSim(sim, "node-b");
    const p = view.go("syncLoop", function* () {
      yield* sleep(5);
      view.emit("kubelet", "Tick", { n: 1 });
    }, { group: "kubelet" });
    expect(p.name).toBe("node-b/syncLoop");
    const fresh = new Sim({ seed: 1, strategy: { name: "fifo" } });
    expect(view.rng("cri").streamName).toBe("node-b/cri");
    expect(view.rng("cri").below(1 << 30)).toBe(fresh.rng("node-b/cri").below(1 << 30));
    sim.run();
    const tick = sink.records.find((r) => r.kind === "Tick")!;
    expect(tick).toMatchObject({ node: "node-b", n: 1, t: 5 });
  });

  it("puts node right after kind, as { node, ...fields } would: a field named node keeps that place and gives its value", () => {
    const sink = new MemorySink();
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, sinks: [sink] });
    const view = nodeSim(sim, "node-b");
    view.emit("kubelet", "A", { pod: "default/a", n: 1 });
    view.emit("apiserver", "PodView", { pod: "default/a", node: "node-c" });
    view.emit("kubelet", "B");
    sim.emit("kubelet", "C", { pod: "default/a" });
    expect(sink.records.map((r) => Object.keys(r).join(","))).toEqual([
      "t,seq,component,kind,node,pod,n",
      "t,seq,component,kind,node,pod",
      "t,seq,component,kind,node",
      "t,seq,component,kind,pod",
    ]);
    expect(sink.records.map((r) => r.node)).toEqual(["node-b", "node-c", "node-b", undefined]);
  });

  it("kills only its own node's group, and keeps a spawn's daemon flag", () => {
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" } });
    const b = nodeSim(sim, "node-b");
    const c = nodeSim(sim, "node-c");
    const forever = function* () {
      yield* sleep(1_000);
    };
    const pb = b.go("syncLoop", forever, { group: "kubelet", daemon: true });
    c.go("syncLoop", forever, { group: "kubelet" });
    b.go("plugin", forever, { group: "plugins" });
    expect(pb.group).toBe("kubelet@node-b");
    expect(pb.daemon).toBe(true);
    expect(b.killGroup("kubelet")).toBe(1);
    expect(b.killGroup("kubelet")).toBe(0);
    expect(c.killGroup("kubelet")).toBe(1);
    expect(b.killGroup("plugins")).toBe(1);
  });

  it("reads the kernel's fields and getters as they are now and calls its methods on the kernel", () => {
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" } });
    const view = nodeSim(sim, "node-b");
    let seen: [number, boolean] | null = null;
    sim.go("clock", function* () {
      yield* sleep(7);
      seen = [view.nowMs, view.current === sim.current];
    });
    expect(view.strategyName).toBe(sim.strategyName);
    const ch = view.chan<number>("c", 1); // a method taken off the view still runs on the kernel
    expect(ch.offer(1)).toBe(true);
    sim.run();
    expect(seen).toEqual([7, true]);
    expect(view.nowMs).toBe(sim.nowMs);
  });

  it("is one class for every node: its own fields are four, every kernel member is on the shared prototype and reaches the kernel", () => {
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" } });
    const b = nodeSim(sim, "node-b");
    const c = nodeSim(sim, "node-c");
    // Members given to each view as its own properties put the views in V8's dictionary mode.
    expect(Object.getPrototypeOf(b)).toBe(Object.getPrototypeOf(c));
    expect(Object.getOwnPropertyNames(b).sort()).toEqual(["groupNames", "kernel", "nodeName", "prefix"]);
    for (let p = Object.getPrototypeOf(sim) as object; p !== Object.prototype; p = Object.getPrototypeOf(p) as object) {
      for (const name of Object.getOwnPropertyNames(p)) {
        const d = Object.getOwnPropertyDescriptor(p, name)!;
        if (name !== "constructor" && typeof d.value === "function") expect(typeof (b as unknown as Record<string, unknown>)[name], name).toBe("function");
      }
    }
    // A private field, not listed by the view, reads through to the kernel's value now.
    const events = () => (b as unknown as { events: number }).events;
    expect(events()).toBe(0);
    sim.go("one", function* () {
      yield* sleep(1);
    });
    sim.run();
    expect(events()).toBe((sim as unknown as { events: number }).events);
    expect(events()).toBeGreaterThan(0);
  });
});

