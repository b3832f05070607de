// Models the kube-apiserver as the kubelet's client-go sees it: requests over a network with latency and partitions.
//
// A request is one kernel operation (a call): half its latency on the way in, the registry applies
// it at one instant (that instant is the one traced), the other half on the way back. A partition window
// [fromMs, toMs) makes requests that start inside it fail fast ("connection refused") or hang
// until the client timeout, and drops the actor's open watches when it begins.
import type { StoredEvent } from "./store.ts";
import { callOp, sleep, type Op, type Proc, type Sim } from "../sim/index.ts";
import type { Pod, PodStatus } from "../k8s/pod.ts";
import type {
  ApiResult, DeleteOptions, DeleteResult, ListOptions, PodList, PodsClient, WatchInterface,
} from "./client.ts";
import { newClientTimeout, newConnectionRefused, type StatusError } from "./errors.ts";
import { PodRegistry } from "./registry.ts";
import { NodeRegistry } from "./node_registry.ts";
import type { NodesClient } from "./nodes_client.ts";
import { NodesActorClient } from "./nodes_client.ts";
import { DEFAULT_WATCH_WINDOW, type StoreState } from "./store.ts";
import { DEFAULT_WATCH_BUFFER, describe } from "./watch.ts";
import { perKey } from "../k8s/memo.ts";

/** A duration in ms: fixed, or a range [min, max] drawn from a seeded stream per use. */
export type MsSpec = number | readonly [number, number];

export interface Partition {
  readonly fromMs: number;
  readonly toMs: number;
  /** "refuse": requests fail after their latency; "hang": they fail at the client timeout. */
  readonly mode: "refuse" | "hang";
  /** The actors cut off; unset cuts off every actor. */
  readonly actors?: readonly string[];
}

export interface ApiServerOptions {
  /** Round-trip latency of a request (default 10 ms). */
  latencyMs?: MsSpec;
  /** Delay between a write and its delivery on a watch (default 5 ms). */
  watchDelayMs?: MsSpec;
  /** Events the watch cache retains (default 100). */
  watchWindow?: number;
  /** Per-watch buffered events before the server closes an unresponsive watch (default 100). */
  watchBuffer?: number;
  /** How long a hung request waits before the client gives up (default 60 s). */
  requestTimeoutMs?: number;
  partitions?: readonly Partition[];
  /** Told of every stored write (see RegistryOptions.onWrite). */
  onWrite?: (event: StoredEvent) => void;
  /** Pods ("namespace/name") stored without validation; their Create and Update records say so. */
  skipValidation?: ReadonlySet<string>;
  /** Mutating admission of a pod create (a cluster's DefaultTolerationSeconds). */
  admitPod?: (pod: Pod) => Pod;
}

export class ApiServer {
  readonly registry: PodRegistry;
  /** Nodes and Leases (a cluster's; a one-node scenario never writes one). */
  readonly nodes: NodeRegistry;
  private readonly partitions: Partition[] = [];
  private readonly latencyMs: MsSpec;
  private readonly requestTimeoutMs: number;

  constructor(
    private readonly sim: Sim,
    opts: ApiServerOptions = {},
  ) {
    this.latencyMs = checkSpec(opts.latencyMs ?? 10, "latencyMs");
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 60_000;
    const watchDelay = checkSpec(opts.watchDelayMs ?? 5, "watchDelayMs");
    const watchRng = sim.rng("apiserver/watch");
    const uidRng = sim.rng("apiserver/uid");
    this.registry = new PodRegistry(sim, {
      watchWindow: opts.watchWindow ?? DEFAULT_WATCH_WINDOW,
      watchBuffer: opts.watchBuffer ?? DEFAULT_WATCH_BUFFER,
      watchDelayMs: () => draw(watchDelay, () => watchRng),
      newUID: () => uuidV4(() => uidRng.uint32()),
      onWrite: opts.onWrite,
      skipValidation: opts.skipValidation,
    });
    // Nodes draw their UIDs from a stream of their own, so the pods' UIDs do not shift.
    const nodeUidRng = sim.rng("apiserver/node-uid");
    this.nodes = new NodeRegistry(sim, {
      nextRevision: () => this.registry.bumpRevision(),
      newUID: () => uuidV4(() => nodeUidRng.uint32()),
      watchDelayMs: () => draw(watchDelay, () => watchRng),
    });
    this.admitPod = opts.admitPod ?? null;
    for (const p of opts.partitions ?? []) this.addPartition(p);
  }

  /** The admission plugins a pod create passes first (DefaultTolerationSeconds in a cluster). */
  readonly admitPod: ((pod: Pod) => Pod) | null;

  /** The Nodes and Leases client of one actor (a kubelet's heartbeats, the node controllers, a user). */
  nodeClient(actor: string, timeoutMs?: number): NodesClient {
    return new NodesActorClient(this, actor, timeoutMs);
  }

  /** The pods client of one actor ("kubelet", "user", ...). */
  client(actor: string): PodsClient {
    return new ActorClient(this, actor);
  }

  /** The current store value, for checkers and tests (immutable; do not keep it for long). */
  get store(): StoreState {
    return this.registry.snapshot;
  }

  /** Adds a partition window; at its start the affected actors' watches are dropped. */
  addPartition(p: Partition): void {
    if (!(p.fromMs < p.toMs)) throw new RangeError(`partition: empty window [${p.fromMs}, ${p.toMs})`);
    this.partitions.push(p);
    const sim = this.sim;
    sim.go("apiserver/partition", () => this.partitionStart(p), { group: "apiserver", daemon: true });
  }

  private *partitionStart(p: Partition): Proc<void> {
    yield* sleep(Math.max(0, p.fromMs - this.sim.nowMs));
    this.sim.emit("apiserver", "Partition", { fromMs: p.fromMs, toMs: p.toMs, mode: p.mode, actors: p.actors ?? null });
    if (p.actors === undefined) this.registry.dropWatches();
    else for (const a of p.actors) this.registry.dropWatches(a);
  }

  /** Whether `actor` reaches the apiserver now (no partition cuts it off). */
  reachable(actor: string): boolean {
    return this.partitionAt(actor, this.sim.nowMs) === undefined;
  }

  private partitionAt(actor: string, ms: number): Partition | undefined {
    return this.partitions.find((p) => ms >= p.fromMs && ms < p.toMs && (p.actors === undefined || p.actors.includes(actor)));
  }

  /**
   * One request as one kernel operation (sim/ops.ts callOp): the network, then `apply` at the
   * server, then the way back. `fields` name the object for the trace; `apply` returns the result
   * and the extra fields to trace with it. The caller yields the operation once and resumes with
   * the result (ActorClient).
   */
  request<T>(actor: string, kind: string, verb: string, path: string, fields: Record<string, unknown>,
    apply: () => [ApiResult<T>, Record<string, unknown>], clientTimeoutMs: number = this.requestTimeoutMs): Op {
    const latency = draw(this.latencyMs, () => this.sim.rng("apiserver"));
    const cut = this.partitionAt(actor, this.sim.nowMs);
    if (cut !== undefined) return this.failInPartition(cut, actor, kind, verb, path, fields, latency, clientTimeoutMs);
    const inMs = Math.floor(latency / 2);
    // A create names its collection; the object it makes is the collection plus the pod's name.
    const created = verb === "POST" && kind === "Create" && typeof fields.pod === "string" ? `${path}/${fields.pod.split("/")[1]}` : path;
    return callOp(inMs, `${verb} ${path}`, () => {
      const [result, extra] = apply();
      this.trace(actor, kind, fields, result.err, extra);
      return callOp(latency - inMs, `${verb} ${path} (response)`, () => result);
    }, objectPath(created));
  }

  private failInPartition(p: Partition, actor: string, kind: string, verb: string, path: string,
    fields: Record<string, unknown>, latency: number, clientTimeoutMs: number): Op {
    const refuse = p.mode === "refuse";
    return callOp(refuse ? latency : clientTimeoutMs, `${verb} ${path} (partitioned)`, () => {
      const err = refuse ? newConnectionRefused(verb, path) : newClientTimeout(verb, path);
      this.trace(actor, kind, fields, err, {});
      return { value: null, err };
    });
  }

  private trace(actor: string, kind: string, fields: Record<string, unknown>, err: StatusError | null,
    extra: Record<string, unknown>): void {
    this.sim.emit("apiserver", kind, {
      actor,
      ...fields,
      ...extra,
      result: err === null ? "ok" : err.reason || "transport",
      ...(err === null ? {} : { code: err.code, error: err.message }),
    });
  }
}

/**
 * The PodsClient of one actor: each method is one request through the server's network, one
 * operation the caller's `yield*` resumes this generator from once.
 */
class ActorClient implements PodsClient {
  constructor(
    private readonly server: ApiServer,
    readonly actor: string,
  ) {}

  *createPod(pod: Pod): Proc<ApiResult<Pod>> {
    const ns = pod.metadata.namespace || "default";
    const fields = { pod: `${ns}/${pod.metadata.name}`, ...this.skipped(ns, pod.metadata.name) };
    return (yield this.server.request(this.actor, "Create", "POST", `/api/v1/namespaces/${ns}/pods`, fields,
      () => withPod(this.server.registry.create(this.server.admitPod === null ? pod : this.server.admitPod(pod))))) as ApiResult<Pod>;
  }

  /** The trace field that marks a request whose pod skips validation (skipApiValidation). */
  private skipped(namespace: string, name: string): Record<string, unknown> {
    return this.server.registry.skipsValidation(`${namespace}/${name}`) ? { apiValidation: "skipped (skipApiValidation)" } : {};
  }

  *getPod(namespace: string, name: string): Proc<ApiResult<Pod>> {
    return (yield this.server.request(this.actor, "Get", "GET", podPath(namespace, name), { pod: `${namespace}/${name}` },
      () => withPod(this.server.registry.get(namespace, name)))) as ApiResult<Pod>;
  }

  *listPods(opts: ListOptions = {}): Proc<ApiResult<PodList>> {
    return (yield this.server.request(this.actor, "List", "GET", "/api/v1/pods", { nodeName: opts.nodeName ?? null }, () => {
      const r = this.server.registry.list(opts);
      return [r, r.value === null ? {} : { resourceVersion: r.value.resourceVersion, count: r.value.items.length }];
    })) as ApiResult<PodList>;
  }

  *watchPods(opts: ListOptions = {}): Proc<ApiResult<WatchInterface>> {
    const fields = { nodeName: opts.nodeName ?? null, fromResourceVersion: opts.resourceVersion ?? "" };
    return (yield this.server.request(this.actor, "Watch", "GET", "/api/v1/pods?watch=1", fields, () => {
      const r = this.server.registry.watch(opts, this.actor);
      return [r, r.value === null ? {} : { watch: r.value.opts.id }];
    })) as ApiResult<WatchInterface>;
  }

  *bindPod(namespace: string, name: string, nodeName: string, uid?: string): Proc<ApiResult<Pod>> {
    const fields = { pod: `${namespace}/${name}`, nodeName, uidPrecondition: uid ?? null };
    return (yield this.server.request(this.actor, "Bind", "POST", `${podPath(namespace, name)}/binding`, fields,
      () => withPod(this.server.registry.bind(namespace, name, nodeName, uid)))) as ApiResult<Pod>;
  }

  *updatePod(pod: Pod): Proc<ApiResult<Pod>> {
    const ns = pod.metadata.namespace || "default";
    const fields = { pod: `${ns}/${pod.metadata.name}`, ...this.skipped(ns, pod.metadata.name) };
    return (yield this.server.request(this.actor, "Update", "PUT", podPath(ns, pod.metadata.name), fields,
      () => withPod(this.server.registry.update(pod)))) as ApiResult<Pod>;
  }

  *patchPodStatus(namespace: string, name: string, status: PodStatus, uid?: string, base?: PodStatus): Proc<ApiResult<Pod>> {
    const fields = { pod: `${namespace}/${name}`, uidPrecondition: uid ?? null, phase: status.phase ?? null };
    return (yield this.server.request(this.actor, "PatchStatus", "PATCH", `${podPath(namespace, name)}/status`, fields,
      () => withPod(this.server.registry.patchStatus(namespace, name, status, uid, base)))) as ApiResult<Pod>;
  }

  *deletePod(namespace: string, name: string, opts: DeleteOptions = {}): Proc<ApiResult<DeleteResult>> {
    const fields = {
      pod: `${namespace}/${name}`,
      gracePeriodSeconds: opts.gracePeriodSeconds ?? null,
      uidPrecondition: opts.preconditions?.uid ?? null,
    };
    return (yield this.server.request(this.actor, "Delete", "DELETE", podPath(namespace, name), fields, () => {
      const r = this.server.registry.delete(namespace, name, opts);
      if (r.value === null) return [r, {}];
      const { pod, deleted } = r.value;
      return [r, { ...describe(pod), deleted, deletionGracePeriodSeconds: pod.metadata.deletionGracePeriodSeconds ?? null }];
    })) as ApiResult<DeleteResult>;
  }
}

function withPod(r: ApiResult<Pod>): [ApiResult<Pod>, Record<string, unknown>] {
  if (r.value === null) return [r, {}];
  const { uid, resourceVersion } = describe(r.value);
  return [r, { uid, resourceVersion }];
}

function podPath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${namespace}/pods/${name}`;
}

function checkSpec(spec: MsSpec, what: string): MsSpec {
  const [lo, hi] = typeof spec === "number" ? [spec, spec] : spec;
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < 0 || hi < lo) throw new RangeError(`${what}: bad duration ${JSON.stringify(spec)}`);
  return spec;
}

/** A fixed duration, or one drawn uniformly from [min, max] (the stream is only touched for a range). */
function draw(spec: MsSpec, rng: () => { int(lo: number, hi: number): number }): number {
  return typeof spec === "number" ? spec : rng().int(spec[0], spec[1]);
}

/** A version-4 UUID from a seeded 32-bit stream, formatted as the apiserver's uuid.NewUUID. */
export function uuidV4(next: () => number): string {
  const hex = [next(), next(), next(), next()].map((w) => (w >>> 0).toString(16).padStart(8, "0")).join("");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The object a request path names, without its subresource or query: the request legs of GET
 * .../pods/web, PATCH .../pods/web/status and DELETE .../pods/web all touch one object (the pos
 * strategy takes them as racing).
 */
export const objectPath: (path: string) => string = perKey((path: string): string => {
  const bare = path.split("?")[0]!;
  return bare.replace(/\/(status|binding|eviction|ephemeralcontainers|log)$/, "");
}, 4096);
