// One node's view of the kernel in a cluster (no upstream file: on a real cluster each kubelet is
// its own process on its own machine). Every kubelet, runtime and device plugin of a node runs
// through this view, so that with many nodes on one kernel:
//   - their goroutines are named after the node ("node-b/syncLoop") and grouped per node
//     ("kubelet@node-b"), so restarting one node's kubelet kills only that kubelet;
//   - their random streams are the node's own ("node-b/cri"), so adding a node does not shift the
//     draws of the others;
//   - their trace records carry the node's name (`node`), which the views show as a NODE column.
// A one-node scenario never builds a view: its kubelet runs on the kernel itself, as before.
import type { Sim } from "../sim/index.ts";
import type { SpawnOptions } from "../sim/process.ts";

/** The process group of one node's kubelet (a kubelet restart kills it). */
export function kubeletGroup(nodeName: string): string {
  return `kubelet@${nodeName}`;
}

/** The kernel as the processes of node `nodeName` see it (see the top of this file). */
export function nodeSim(sim: Sim, nodeName: string): Sim {
  const prefix = `${nodeName}/`;
  const group = (g: string | undefined): string | undefined => (g === "kubelet" ? kubeletGroup(nodeName) : g === undefined || g === "" ? g : `${g}@${nodeName}`);
  const overrides: Partial<Record<keyof Sim, unknown>> = {
    go: (name: string, body: Parameters<Sim["go"]>[1], opts: SpawnOptions = {}) =>
      sim.go(prefix + name, body, { ...opts, ...(opts.group === undefined ? {} : { group: group(opts.group) }) }),
    emit: (component: string, kind: string, fields?: Readonly<Record<string, unknown>>) => sim.emit(component, kind, { node: nodeName, ...fields }),
    rng: (stream: string) => sim.rng(prefix + stream),
    killGroup: (g: string) => sim.killGroup(group(g)!),
  };
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(sim, {
    get(target, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof Sim];
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      let f = bound.get(prop);
      if (f === undefined) {
        f = (v as (...a: unknown[]) => unknown).bind(target);
        bound.set(prop, f);
      }
      return f;
    },
  });
}
