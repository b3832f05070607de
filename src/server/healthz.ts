// Models k8s.io/apiserver/pkg/server/healthz (InstallHandler, handleRootHealth, adaptCheckToHandler,
// PingHealthz, LogHealthz) and the kubelet's syncloop check (SyncLoopHealthCheck, kubelet.go), the
// checks the kubelet server installs on /healthz (server.go InstallAuthNotRequiredHandlers).
//
// The kubelet's PLEG check left /healthz in 1.6 (#37865): since then the PLEG's health is one of
// runtimeState's checks, and a PLEG that is not healthy stops syncLoop's iterations ("skipping pod
// synchronization"), which the syncloop check reports once no iteration began for
// max(2 × syncFrequency, 5 min).
import { httpError, text, type Request, type Response } from "./response.ts";

export interface HealthChecker {
  readonly name: string;
  /** The check's error, or null when healthy. */
  check(): string | null;
}

/** healthz.PingHealthz: always healthy. */
export const PingHealthz: HealthChecker = { name: "ping", check: () => null };

/** healthz.LogHealthz: unhealthy when logging is blocked, which a simulated kubelet's never is. */
export const LogHealthz: HealthChecker = { name: "log", check: () => null };

/** SyncLoopHealthCheck: the loop must have begun an iteration within max(2 × resync, 5 min). */
export function syncLoopHealthCheck(latestLoopEntryMs: () => number | null, resyncIntervalMs: number, nowMs: () => number): HealthChecker {
  const durationMs = Math.max(resyncIntervalMs * 2, 5 * 60_000);
  return {
    name: "syncloop",
    check: () => {
      const enterLoopMs = latestLoopEntryMs();
      if (enterLoopMs !== null && nowMs() > enterLoopMs + durationMs) return "sync Loop took longer than expected";
      return null;
    },
  };
}

/** The handlers healthz.InstallHandler registers: /healthz and /healthz/<name>; null for other paths. */
export function healthz(req: Request, checks: readonly HealthChecker[]): Response | null {
  if (req.path === "/healthz") return rootHealth(req, checks);
  const one = checks.find((c) => req.path === `/healthz/${c.name}`);
  if (one === undefined) return null;
  const err = one.check();
  return err === null ? text(200, "ok") : httpError(500, `internal server error: ${err}`);
}

/** handleRootHealth: "ok", or every check's line; always verbose on failure, with reasons withheld. */
function rootHealth(req: Request, checks: readonly HealthChecker[]): Response {
  const excluded = new Set(req.query.getAll("exclude"));
  const lines: string[] = [];
  let failed = false;
  for (const c of checks) {
    if (excluded.delete(c.name)) {
      lines.push(`[+]${c.name} excluded: ok`);
      continue;
    }
    // The error stays out of the answer, since this endpoint is public.
    if (c.check() !== null) {
      lines.push(`[-]${c.name} failed: reason withheld`);
      failed = true;
    } else lines.push(`[+]${c.name} ok`);
  }
  if (excluded.size > 0) {
    const names = [...excluded].sort().map((n) => `"${n}"`).join(",");
    lines.push(`warn: some health checks cannot be excluded: no matches for ${names}`);
  }
  const list = lines.map((l) => `${l}\n`).join("");
  if (failed) return httpError(500, `${list}healthz check failed`);
  if (!req.query.has("verbose")) return text(200, "ok");
  return text(200, `${list}healthz check passed\n`);
}
