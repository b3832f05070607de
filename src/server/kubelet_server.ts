// Models pkg/kubelet/server/server.go: the kubelet's HTTP endpoints, answered from the simulated
// kubelet at a virtual instant. The server is the one with the debugging handlers on (the
// KubeletConfiguration default, enableDebuggingHandlers: true) and no authentication, so
// /runningpods/ is served; the real read-only port (10255) turns them off and answers 405 there.
//
// What is served: /healthz (ping, log, syncloop), /pods, /runningpods/. What upstream serves but
// the simulator cannot (streaming, exec, logs, stats, metrics, profiling, configuration) answers
// 501 with a one-line reason. /spec/ belonged to the cAdvisor JSON endpoints: off by default from
// 1.18 (#87440), gone in 1.21 (#99236), and the simulated node has no cAdvisor machine info, so it
// answers 404 as those kubelets do. Any other path is a 404, as Go's ServeMux answers.
import type { Pod } from "../k8s/pod.ts";
import { GetPods, GetRunningPods } from "../kubelet/kubelet_getters.ts";
import type { KubeletInstance } from "../node/kubelet_instance.ts";
import { healthz, LogHealthz, PingHealthz, syncLoopHealthCheck, type HealthChecker } from "./healthz.ts";
import { httpError, json, notFound, type Request, type Response } from "./response.ts";

/** What the server reads: the kubelet process (null while it is down) and the virtual clock. */
export interface KubeletHost {
  kubelet(): KubeletInstance | null;
  nowMs(): number;
  /** KubeletConfiguration.syncFrequency (the resync interval the syncloop check doubles). */
  readonly syncFrequencyMs: number;
}

/** Path prefixes upstream serves that the simulator does not, with why. */
const NOT_SIMULATED: readonly [prefix: string, reason: string][] = [
  ["/run/", "running a command in a container is not simulated: the simulated runtime has no processes to exec into"],
  ["/exec/", "exec is a streaming handler; the simulated runtime has no container to stream from"],
  ["/attach/", "attach is a streaming handler; the simulated runtime has no container to stream from"],
  ["/portForward/", "port forwarding is a streaming handler; the simulated pods have no network"],
  ["/containerLogs/", "container logs are not simulated: the simulated containers write no output"],
  ["/logs/", "node logs are not simulated"],
  ["/checkpoint/", "container checkpoints are not simulated"],
  ["/stats/", "the stats summary (cAdvisor and CRI metrics) is not simulated"],
  ["/metrics", "Prometheus metrics are not simulated"],
  ["/configz", "the kubelet's configuration endpoint is not simulated; the scenario's kubelet section is what it would show"],
  ["/debug/", "profiling and debug flag handlers are not simulated"],
  ["/statusz", "the component status page is not simulated"],
  ["/flagz", "the component flags page is not simulated"],
];

/** The kubelet server's routes, for one simulated node. */
export class KubeletServer {
  constructor(private readonly host: KubeletHost) {}

  handle(req: Request): Response {
    if (req.path === "/healthz" || req.path.startsWith("/healthz/")) return this.withKubelet((k) => healthz(req, this.checks(k)) ?? notFound());
    if (req.path === "/pods" || req.path === "/pods/") return getOnly(req, () => this.withKubelet((k) => json(200, podList(GetPods({ podManager: k.core.podManager, statusManager: k.statusManager })))));
    if (req.path === "/runningpods/" || req.path === "/runningpods") return getOnly(req, () => this.withKubelet((k) => json(200, podList(GetRunningPods(k.core.runtimeCache).map(goZeroFields)))));
    const unsupported = NOT_SIMULATED.find(([prefix]) => req.path === prefix.replace(/\/$/, "") || req.path.startsWith(prefix));
    if (unsupported !== undefined) return httpError(501, `${unsupported[1]} (kubelet-sim serves read-only views of a virtual instant)`);
    return notFound();
  }

  /** healthz.PingHealthz, healthz.LogHealthz, and the named syncloop check, in upstream's order. */
  private checks(k: KubeletInstance): HealthChecker[] {
    const loop = k.syncLoop;
    return [PingHealthz, LogHealthz, syncLoopHealthCheck(() => loop?.LatestLoopEntryTime() ?? null, this.host.syncFrequencyMs, () => this.host.nowMs())];
  }

  /** The kubelet process is down (a restart's downtime, or runOnce ended): its server is too. */
  private withKubelet(f: (k: KubeletInstance) => Response): Response {
    const k = this.host.kubelet();
    if (k === null) return httpError(503, `the simulated kubelet is not running at t=${this.host.nowMs()}ms (it is restarting, or was never started)`);
    return f(k);
  }
}

/** GETOnlyRestfulFilter: another method is a 405 that names the allowed one. */
function getOnly(req: Request, f: () => Response): Response {
  if (req.method === "GET" || req.method === "HEAD") return f();
  return httpError(405, "Method Not Allowed", { Allow: "GET" });
}

/**
 * encodePods: a v1 PodList. The items carry no kind or apiVersion (the kubelet's pods come from
 * informers, whose objects have none); an empty list is null, as Go encodes a nil slice.
 */
export function podList(pods: readonly Pod[]): unknown {
  const items = pods.map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
  return { kind: "PodList", apiVersion: "v1", metadata: {}, items: items.length === 0 ? null : items };
}

/**
 * A ToAPIPod pod as Go's encoder writes it: the zero creationTimestamp is null, and the structs
 * without omitempty effect (a container's resources, the pod's status) are empty objects.
 */
function goZeroFields(p: Pod): Pod {
  return {
    metadata: { ...p.metadata, creationTimestamp: null },
    spec: { ...p.spec, containers: p.spec.containers.length === 0 ? null : p.spec.containers.map((c) => ({ ...c, resources: {} })) },
    status: {},
  } as Pod;
}
