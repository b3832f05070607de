// `kubelet-sim serve`: the server started in-process on port 0 and queried with fetch, every answer
// compared with the run's own state; then the binary as a child process, stopped by its signals.
import { spawn } from "node:child_process";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAIN } from "../../src/cli/colour.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { startServe, type RunningServe } from "../../src/cli/commands/serve.ts";
import { GetPods, GetRunningPods } from "../../src/kubelet/kubelet_getters.ts";
import { cli, ROOT } from "./helpers.ts";

function captureIo(): { io: CliIo; out: () => string } {
  let out = "";
  const stream = { write: (t: string) => void (out += t), palette: PLAIN };
  return { io: { stdout: stream, stderr: stream }, out: () => out };
}

describe("serve, in-process on port 0", () => {
  let s: RunningServe;
  let printed: () => string;
  const get = (path: string, init?: RequestInit) => fetch(`${s.listening.url}${path}`, init);

  beforeAll(async () => {
    const { io, out } = captureIo();
    printed = out;
    const started = await startServe({ file: "scenarios/default.yaml", at: ["30s", "45s"], port: 0 }, io);
    s = started!;
  });
  afterAll(async () => {
    await s.stop();
  });

  it("prints the replay key first, then the URL and the instant", () => {
    const lines = printed().split("\n");
    expect(lines[0]).toBe(`# replay: kubelet-sim run scenarios/default.yaml --seed 1 --strategy fifo`);
    expect(lines[1]).toBe(`serving the simulated kubelet of scenarios/default.yaml at t=30s on ${s.listening.url}`);
    expect(s.listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.listening.port).toBeGreaterThan(0);
  });

  it("GET /pods is the pod manager's PodList, as the run holds it at 30s", async () => {
    const r = await get("/pods");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    const body = (await r.json()) as { kind: string; apiVersion: string; items: Record<string, unknown>[] };
    expect(body.kind).toBe("PodList");
    expect(body.apiVersion).toBe("v1");
    const k = s.session.handle.node.kubelet!;
    const want = GetPods({ podManager: k.core.podManager, statusManager: k.statusManager }).map(({ apiVersion: _a, kind: _k, ...p }) => p);
    expect(want.length).toBeGreaterThan(0);
    expect(body.items).toEqual(JSON.parse(JSON.stringify(want)));
    expect(body.items.every((p) => !("kind" in p) && !("apiVersion" in p))).toBe(true);
  });

  it("GET /runningpods/ is the runtime cache's pods as ToAPIPod writes them", async () => {
    const body = (await (await get("/runningpods/")).json()) as { items: { metadata: Record<string, unknown>; spec: { containers: unknown[] }; status: unknown }[] };
    const cached = GetRunningPods(s.session.handle.node.kubelet!.core.runtimeCache);
    expect(cached.length).toBeGreaterThan(0);
    expect(body.items.map((p) => p.metadata)).toEqual(cached.map((p) => ({ ...p.metadata, creationTimestamp: null })));
    expect(body.items.map((p) => p.spec.containers)).toEqual(cached.map((p) => p.spec.containers.map((c) => ({ ...c, resources: {} }))));
    expect(body.items.every((p) => JSON.stringify(p.status) === "{}")).toBe(true);
  });

  it("GET /healthz answers ok, lists ping, log and syncloop with ?verbose, and each check alone", async () => {
    expect(await (await get("/healthz")).text()).toBe("ok");
    expect(await (await get("/healthz?verbose")).text()).toBe("[+]ping ok\n[+]log ok\n[+]syncloop ok\nhealthz check passed\n");
    expect(await (await get("/healthz/syncloop")).text()).toBe("ok");
    expect(await (await get("/healthz?verbose&exclude=log")).text()).toContain("[+]log excluded: ok\n");
    expect((await get("/healthz/")).status).toBe(404);
  });

  it("answers other paths as the kubelet's server does: 404, 405, or 501 with a reason", async () => {
    const notFound = await get("/nope");
    expect([notFound.status, await notFound.text()]).toEqual([404, "404 page not found\n"]);
    expect((await get("/spec/")).status).toBe(404);
    for (const path of ["/exec/default/web/app?command=ls", "/attach/default/web/app", "/portForward/default/web", "/containerLogs/default/web/app", "/run/default/web/app", "/stats/summary", "/metrics", "/configz"]) {
      const r = await get(path);
      expect(r.status, path).toBe(501);
      expect((await r.text()).trim().split("\n"), path).toHaveLength(1);
    }
    const post = await get("/pods", { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET"]);
    expect((await get("/-/advance")).status).toBe(405);
  });

  it("POST /-/advance moves to the next --at instant, then by ?by=, and /pods follows the run", async () => {
    const state = (await (await get("/-/")).json()) as { now: string; nextAt: string[]; replay: string; pleg: { healthy: boolean } };
    expect(state).toMatchObject({ now: "30s", nextAt: ["45s"], replay: s.replayKey, pleg: { healthy: true } });
    const next = (await (await get("/-/advance", { method: "POST" })).json()) as { nowMs: number };
    expect(next.nowMs).toBe(45_000);
    const by = (await (await get("/-/advance?by=5s", { method: "POST" })).json()) as { nowMs: number };
    expect(by.nowMs).toBe(50_000);
    expect(s.session.nowMs).toBe(50_000);
    const none = await get("/-/advance", { method: "POST" });
    expect(none.status).toBe(400);
    expect(await none.text()).toMatch(/no --at instant is left and no --step was given/);
    const bad = await get("/-/advance?by=soon", { method: "POST" });
    expect(bad.status).toBe(400);
    const bogus = await get("/-/advance?by=bogus", { method: "POST" });
    expect(bogus.status).toBe(400);
    expect(await bogus.text()).toBe('by=bogus: invalid duration "bogus"; expected e.g. "500ms", "10s", "1m30s", "2h"\n');
    const k = s.session.handle.node.kubelet!;
    const pods = (await (await get("/pods")).json()) as { items: unknown[] };
    const want = GetPods({ podManager: k.core.podManager, statusManager: k.statusManager }).map(({ apiVersion: _a, kind: _k, ...p }) => p);
    expect(pods.items).toEqual(JSON.parse(JSON.stringify(want)));
  });

  it("past the scenario's end the run is over and an advance says so", async () => {
    const r = await get("/-/advance?by=10m", { method: "POST" });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { ended: string }).ended).toBe("until");
    const again = await get("/-/advance?by=1s", { method: "POST" });
    expect(again.status).toBe(409);
    expect(await (await get("/healthz")).text()).toBe("ok");
  });
});

/** A request with the Host header as given (fetch does not let a caller set Host). */
function getWithHost(url: string, path: string, host: string, method = "GET"): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers: { Host: host } }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("serve answers only its loopback names (a DNS-rebinding page gets a 403)", () => {
  let s: RunningServe;
  beforeAll(async () => {
    s = (await startServe({ file: "scenarios/default.yaml", at: ["10s"], port: 0, allowHost: ["kubelet.test"] }, captureIo().io))!;
  });
  afterAll(async () => {
    await s.stop();
  });

  it.each(["localhost", "127.0.0.1", "[::1]", "LOCALHOST", "localhost."])("answers Host %s, with or without the port", async (host) => {
    expect((await getWithHost(s.listening.url, "/healthz", host)).status).toBe(200);
    expect((await getWithHost(s.listening.url, "/healthz", `${host}:${s.listening.port}`)).status).toBe(200);
  });

  it("refuses any other name with 403 and says how to allow it; a name given with --allow-host is answered", async () => {
    const evil = await getWithHost(s.listening.url, "/-/advance", `attacker.example:${s.listening.port}`, "POST");
    expect(evil.status).toBe(403);
    expect(evil.body).toBe(
      `kubelet-sim answers requests for localhost, 127.0.0.1, [::1] only, not for "attacker.example:${s.listening.port}" (a guard against DNS rebinding); to serve it by that name, start the server with --allow-host attacker.example\n`,
    );
    expect((await getWithHost(s.listening.url, "/pods", "127.0.0.1.attacker.example")).status).toBe(403);
    expect((await getWithHost(s.listening.url, "/pods", "kubelet.test")).status).toBe(200);
    // The run was not moved by the refused POST.
    expect(s.session.nowMs).toBe(10_000);
  });
});

describe("serve, as a child process", () => {
  /** Starts the binary, resolves with the URL once it prints it. */
  function start(args: string[]) {
    const child = spawn(process.execPath, [join(ROOT, "bin", "kubelet-sim.mjs"), "serve", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const url = new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code} before serving: ${out}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    return { child, url, exited, out: () => out };
  }

  it.each(["SIGTERM", "SIGINT"] as const)("stops cleanly on %s: exit 0 and a last line", async (signal) => {
    const p = start(["scenarios/default.yaml", "--at", "20s", "--port", "0"]);
    const url = await p.url;
    expect(await (await fetch(`${url}/healthz`)).text()).toBe("ok");
    p.child.kill(signal);
    expect(await p.exited).toBe(0);
    expect(p.out()).toMatch(/# stopped; the run was at t=20s\n$/);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it("reports bad flags and scenarios with exit 2 and no stack trace", () => {
    const late = cli(["serve", "scenarios/default.yaml", "--at", "99h", "--port", "0"]);
    expect(late.code).toBe(2);
    expect(late.err).toMatch(/^kubelet-sim: --at 99h: after the scenario's end/);
    const port = cli(["serve", "scenarios/default.yaml", "--port", "70000"]);
    expect(port.code).toBe(2);
    expect(port.err).not.toMatch(/\n\s+at /);
    const missing = cli(["serve", "nope.yaml"]);
    expect(missing.code).toBe(2);
    const word = cli(["serve", "scenarios/default.yaml", "--port", "abc"]);
    expect(word.code).toBe(2);
    expect(word.err).toBe("kubelet-sim: --port abc: expected a port number from 0 to 65535\n");
  });
});
