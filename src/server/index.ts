// The kubelet's HTTP endpoints over a simulated node (kubelet-sim serve): plain request-to-response
// functions above node/; the HTTP binding itself is the CLI's (cli/serve_http.ts).
export { KubeletServer, podList, type KubeletHost } from "./kubelet_server.ts";
export { ServeSession, type ServeSessionOptions, type AdvanceResult } from "./session.ts";
export { serveHandler, state } from "./control.ts";
export { healthz, syncLoopHealthCheck, PingHealthz, LogHealthz, type HealthChecker } from "./healthz.ts";
export type { Request, Response } from "./response.ts";
