// The simulator's own endpoints, under /-/ (no kubelet path starts so): where the virtual clock is,
// and POST /-/advance to move it. Not part of the kubelet's server.
import { formatDuration, parseDuration } from "../sim/index.ts";
import { KubeletServer } from "./kubelet_server.ts";
import { httpError, json, type Request, type Response } from "./response.ts";
import type { ServeSession } from "./session.ts";
import type { SimNode } from "../node/node.ts";

/** The whole server: the simulator's control endpoints, then the kubelet's (of `nodeName` in a cluster; else the first node's). */
export function serveHandler(session: ServeSession, replayKey: string, nodeName?: string): (req: Request) => Response {
  const node = (nodeName === undefined ? undefined : session.handle.cluster.node(nodeName)) ?? session.handle.node;
  const kubelet = new KubeletServer({
    kubelet: () => node.kubelet,
    nowMs: () => session.nowMs,
    syncFrequencyMs: node.settings.syncFrequencyMs,
  });
  return (req) => {
    if (req.path === "/-/" || req.path === "/-") return req.method === "GET" ? json(200, state(session, replayKey, node)) : methodNotAllowed("GET");
    if (req.path === "/-/advance") return req.method === "POST" ? advance(session, replayKey, req.query.get("by"), node) : methodNotAllowed("POST");
    return kubelet.handle(req);
  };
}

function methodNotAllowed(allowed: string): Response {
  return httpError(405, "Method Not Allowed", { Allow: allowed });
}

function advance(session: ServeSession, replayKey: string, by: string | null, node: SimNode): Response {
  let byMs: number | null = null;
  if (by !== null) {
    try {
      byMs = parseDuration(by);
    } catch (err) {
      return httpError(400, `by=${by}: ${(err as Error).message}`);
    }
    if (byMs <= 0) return httpError(400, `by=${by}: the virtual clock only moves forward`);
  }
  const r = session.advance(byMs);
  if (!r.ok) return httpError(r.status, r.message);
  return json(200, state(session, replayKey, node));
}

/** Where the run stands: the virtual time, whether it ended, what --at instants remain, the PLEG's health. */
export function state(session: ServeSession, replayKey: string, node: SimNode = session.handle.node): Record<string, unknown> {
  const k = node.kubelet;
  const pleg = k?.pleg.Healthy();
  return {
    now: formatDuration(session.nowMs),
    nowMs: session.nowMs,
    ended: session.verdict,
    idle: session.wentIdle,
    nextAt: session.nextInstantsMs.map((ms) => formatDuration(ms)),
    kubeletRunning: k !== null,
    // The PLEG's Healthy(), which upstream feeds to runtimeState (and so to syncLoop), not to /healthz.
    pleg: k === null || pleg === undefined ? null : { healthy: pleg.ok, relistTimeMs: k.pleg.relistTimeMs, error: pleg.err?.message ?? null },
    replay: replayKey,
  };
}
