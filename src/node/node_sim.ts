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
 * The kernel as the processes of node `nodeName` see it (see the top of this file): an instance of
 * one class whose methods call the kernel's, its fields read (and written) through to it, and four
 * methods of its own. Not a Proxy (a trap on every kernel call of every node's kubelet), and not an
 * object given each member as its own property: with some sixty accessors and bound methods each,
 * V8 kept every view in dictionary mode, so every `sim.nowMs` and `sim.emit` of a node's models was
 * a hash lookup. The views of all nodes share one hidden class and one prototype, whose members
 * are plain methods and accessors: a model's read of the clock is a monomorphic getter call.
 */
export function nodeSim(sim: Sim, nodeName: string): Sim {
  forwardTheRest(sim);
  return new NodeView(sim, nodeName) as unknown as Sim;
}

type Kernel = Sim & Record<string, unknown>;

class NodeView {
  private readonly prefix: string;
  // A node's group names, made once each: go() asks for one at every spawn.
  private readonly groupNames: Map<string, string>;

  constructor(private readonly kernel: Sim, private readonly nodeName: string) {
    this.prefix = `${nodeName}/`;
    this.groupNames = new Map<string, string>([["kubelet", kubeletGroup(nodeName)]]);
  }

  private group(g: string): string {
    let named = this.groupNames.get(g);
    if (named === undefined) this.groupNames.set(g, (named = `${g}@${this.nodeName}`));
    return named;
  }

  // ---- the node's own -------------------------------------------------------------------------

  /** Without a group the options pass as they are; with one, a copy with the node's group name. */
  go(name: string, body: Parameters<Sim["go"]>[1], opts: SpawnOptions = {}): ReturnType<Sim["go"]> {
    return this.kernel.go(this.prefix + name, body, opts.group === undefined || opts.group === "" ? opts : Object.assign({}, opts, { group: this.group(opts.group) }));
  }
  emit(component: string, kind: string, fields?: Readonly<Record<string, unknown>>): void {
    this.kernel.emitOnNode(this.nodeName, component, kind, fields);
  }
  rng(stream: string): ReturnType<Sim["rng"]> {
    return this.kernel.rng(this.prefix + stream);
  }
  killGroup(g: string): number {
    return this.kernel.killGroup(g === "" ? g : this.group(g));
  }

  // ---- the kernel's, read and called through ----------------------------------------------------

  get nowMs(): number {
    return this.kernel.nowMs;
  }
  set nowMs(v: number) {
    this.kernel.nowMs = v;
  }
  get current(): Sim["current"] {
    return this.kernel.current;
  }
  get strategyName(): string {
    return this.kernel.strategyName;
  }
  get choices(): Sim["choices"] {
    return this.kernel.choices;
  }
  get bounds(): Sim["bounds"] {
    return this.kernel.bounds;
  }
  get ready(): Sim["ready"] {
    return this.kernel.ready;
  }
  get observer(): Sim["observer"] {
    return this.kernel.observer;
  }
  chan<T>(name: string, capacity?: number): ReturnType<Sim["chan"]> {
    return this.kernel.chan<T>(name, capacity);
  }
  mutex(name: string): ReturnType<Sim["mutex"]> {
    return this.kernel.mutex(name);
  }
  rwmutex(name: string): ReturnType<Sim["rwmutex"]> {
    return this.kernel.rwmutex(name);
  }
  waitGroup(name: string): ReturnType<Sim["waitGroup"]> {
    return this.kernel.waitGroup(name);
  }
  newTimer(name: string, durationMs: number): ReturnType<Sim["newTimer"]> {
    return this.kernel.newTimer(name, durationMs);
  }
  newTicker(name: string, periodMs: number): ReturnType<Sim["newTicker"]> {
    return this.kernel.newTicker(name, periodMs);
  }
  after(name: string, durationMs: number): ReturnType<Sim["after"]> {
    return this.kernel.after(name, durationMs);
  }
  choose(n: number): number {
    return this.kernel.choose(n);
  }
  mapOrder<T>(sortedKeys: readonly T[]): T[] {
    return this.kernel.mapOrder(sortedKeys);
  }
  emitOnNode(node: string, component: string, kind: string, fields?: Readonly<Record<string, unknown>>): void {
    this.kernel.emitOnNode(node, component, kind, fields);
  }
  traces(kind: string): boolean {
    return this.kernel.traces(kind);
  }
  stop(...a: Parameters<Sim["stop"]>): void {
    this.kernel.stop(...a);
  }
  wake(...a: Parameters<Sim["wake"]>): void {
    this.kernel.wake(...a);
  }
  wakeWithError(...a: Parameters<Sim["wakeWithError"]>): void {
    this.kernel.wakeWithError(...a);
  }
  wakeToRetry(...a: Parameters<Sim["wakeToRetry"]>): void {
    this.kernel.wakeToRetry(...a);
  }
  schedule(...a: Parameters<Sim["schedule"]>): ReturnType<Sim["schedule"]> {
    return this.kernel.schedule(...a);
  }
  cancel(...a: Parameters<Sim["cancel"]>): void {
    this.kernel.cancel(...a);
  }
  sleepUntil(...a: Parameters<Sim["sleepUntil"]>): void {
    this.kernel.sleepUntil(...a);
  }
  block(...a: Parameters<Sim["block"]>): void {
    this.kernel.block(...a);
  }
  decide(...a: Parameters<Sim["decide"]>): number {
    return this.kernel.decide(...a);
  }
  run(): ReturnType<Sim["run"]> {
    return this.kernel.run();
  }
  runUntil(limitMs: number): ReturnType<Sim["runUntil"]> {
    return this.kernel.runUntil(limitMs);
  }
  runSlice(limitMs: number, maxEvents: number): ReturnType<Sim["runSlice"]> {
    return this.kernel.runSlice(limitMs, maxEvents);
  }
  replayKey(): string {
    return this.kernel.replayKey();
  }
}

/**
 * Whatever else a kernel has (its private fields, a member added to Sim later and not listed
 * above), forwarded from NodeView's prototype, once: a field read and written through, a getter
 * read, a method called on the kernel. The listed members come first.
 */
let forwarded = false;
function forwardTheRest(sim: Sim): void {
  if (forwarded) return;
  forwarded = true;
  const proto = NodeView.prototype as unknown as Record<string, unknown>;
  const has = (name: string) => name === "constructor" || Object.hasOwn(proto, name);
  for (const name of Object.keys(sim)) {
    if (has(name)) continue;
    Object.defineProperty(proto, name, {
      get(this: NodeView) {
        return (viewKernel(this) as Kernel)[name];
      },
      set(this: NodeView, v: unknown) {
        (viewKernel(this) as Kernel)[name] = v;
      },
      configurable: true,
    });
  }
  for (let p = Object.getPrototypeOf(sim) as object | null; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const name of Object.getOwnPropertyNames(p)) {
      if (has(name)) continue; // a subclass's member comes first
      const d = Object.getOwnPropertyDescriptor(p, name)!;
      if (d.get !== undefined) {
        const get = d.get;
        Object.defineProperty(proto, name, { get(this: NodeView) { return get.call(viewKernel(this)); }, configurable: true });
      } else if (typeof d.value === "function") {
        const fn = d.value as (...a: unknown[]) => unknown;
        proto[name] = function (this: NodeView, ...a: unknown[]) {
          return fn.apply(viewKernel(this), a);
        };
      }
    }
  }
}

function viewKernel(v: NodeView): Sim {
  return (v as unknown as { kernel: Sim }).kernel;
}
