// The HTTP binding of `kubelet-sim serve`: node:http on 127.0.0.1, each request handed to the
// server layer (src/server) as plain data and its answer written back. Everything the kubelet's
// endpoints answer is decided there; this file only moves bytes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Request, Response } from "../server/index.ts";
import { hostAllowed, hostRefusal } from "../server/host.ts";
import { UserError } from "./exit.ts";

export interface Listening {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, ends open connections, resolves once the server is closed. */
  close(): Promise<void>;
}

export const SERVE_HOST = "127.0.0.1";

export interface ListenOptions {
  /** Host names answered besides the loopback ones ("*": any); see server/host.ts. */
  allowHosts?: readonly string[];
  /** The flag that adds a name, for the refusal to mention (null: the command has none). */
  allowHostOption?: string | null;
}

/**
 * Listens on 127.0.0.1:port (0: any free port) and answers every request with `handle`, unless
 * its Host names something other than this machine's loopback (a DNS-rebinding page): a 403.
 */
export async function listen(handle: (req: Request) => Response, port: number, opts: ListenOptions = {}): Promise<Listening> {
  // A flag's word reaches here as a string (main.ts puts it back for the message); node would take it for a pipe's path.
  if (!(typeof port === "number" && Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new UserError(`--port ${String(port)}: expected a port number from 0 to 65535`);
  }
  const allowed = opts.allowHosts ?? [];
  const guarded = (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host;
    if (hostAllowed(host, allowed)) return answer(handle, req, res);
    const body = `${hostRefusal(host ?? "", opts.allowHostOption ?? null)}\n`;
    req.resume();
    res.writeHead(403, { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff", "Content-Length": Buffer.byteLength(body) });
    res.end(req.method === "HEAD" ? undefined : body);
  };
  const server = createServer(guarded);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE") reject(new UserError(`port ${port} on ${SERVE_HOST} is in use; pass --port 0 for a free one`));
      else if (err.code === "EACCES") reject(new UserError(`port ${port} on ${SERVE_HOST} needs privileges; pass --port 0 for a free one`));
      else reject(err);
    });
    server.listen(port, SERVE_HOST, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return { url: `http://${SERVE_HOST}:${bound}`, port: bound, close: () => closeServer(server) };
}

function answer(handle: (req: Request) => Response, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", `http://${SERVE_HOST}`);
  let out: Response;
  try {
    out = handle({ method: req.method ?? "GET", path: url.pathname, query: url.searchParams });
  } catch (err) {
    out = { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" }, body: `kubelet-sim: internal error: ${(err as Error).message}\n` };
  }
  // The request body (a POST's) is not read; drain it so the connection can be reused.
  req.resume();
  res.writeHead(out.status, { ...out.headers, "Content-Length": Buffer.byteLength(out.body) });
  res.end(req.method === "HEAD" ? undefined : out.body);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
