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

/**
 * The kernel as the processes of node `nodeName` see it (see the top of this file): a plain object
 * with the kernel's methods bound to it, its fields read (and written) through to it, and four
 * methods of its own. Not a Proxy: every kernel call of every node's kubelet (emit, go, chan, now)
 * went through a trap that looked the name up twice; a plain object's properties are as fast as
 * the kernel's own.
 */
export function nodeSim(sim: Sim, nodeName: string): Sim {
  const prefix = `${nodeName}/`;
  // A node's group names, made once each: go() asks for one at every spawn.
  const groups = new Map<string, string>([["kubelet", kubeletGroup(nodeName)]]);
  const group = (g: string): string => {
    let named = groups.get(g);
    if (named === undefined) groups.set(g, (named = `${g}@${nodeName}`));
    return named;
  };
  const view = forwarding(sim);
  // The clock, read at every step of every model: its own accessor (the generic one's keyed load
  // by name serves every field and is megamorphic).
  Object.defineProperty(view, "nowMs", { get: () => sim.nowMs, set: (v: number) => void (sim.nowMs = v), enumerable: true });
  Object.assign(view, {
    // Without a group the options pass as they are; with one, a copy with the node's group name.
    go: (name: string, body: Parameters<Sim["go"]>[1], opts: SpawnOptions = {}) =>
      sim.go(prefix + name, body, opts.group === undefined || opts.group === "" ? opts : Object.assign({}, opts, { group: group(opts.group) })),
    emit: (component: string, kind: string, fields?: Readonly<Record<string, unknown>>) => sim.emitOnNode(nodeName, component, kind, fields),
    rng: (stream: string) => sim.rng(prefix + stream),
    killGroup: (g: string) => sim.killGroup(g === "" ? g : group(g)),
  });
  return view as unknown as Sim;
}

/** An object whose every method is `target`'s bound to it and whose every field and getter reads `target`'s now. */
function forwarding(target: object): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const name of Object.keys(target)) {
    Object.defineProperty(view, name, {
      get: () => (target as Record<string, unknown>)[name],
      set: (v: unknown) => void ((target as Record<string, unknown>)[name] = v),
      enumerable: true,
      configurable: true, // nodeSim gives the clock its own
    });
  }
  for (let proto = Object.getPrototypeOf(target) as object | null; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === "constructor" || Object.hasOwn(view, name)) continue; // a subclass's member comes first
      const d = Object.getOwnPropertyDescriptor(proto, name)!;
      if (d.get !== undefined) Object.defineProperty(view, name, { get: () => d.get!.call(target) });
      else if (typeof d.value === "function") view[name] = (d.value as (...a: unknown[]) => unknown).bind(target);
    }
  }
  return view;
}
