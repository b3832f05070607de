// The HTTP binding of `kubelet-sim serve`: node:http on 127.0.0.1, each request handed to the
// server layer (src/server) as plain data and its answer written back. Everything the kubelet's
// endpoints answer is decided there; this file only moves bytes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Request, Response } from "../server/index.ts";
import { UserError } from "./exit.ts";

export interface Listening {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, ends open connections, resolves once the server is closed. */
  close(): Promise<void>;
}

export const SERVE_HOST = "127.0.0.1";

/** Listens on 127.0.0.1:port (0: any free port) and answers every request with `handle`. */
export async function listen(handle: (req: Request) => Response, port: number): Promise<Listening> {
  const server = createServer((req, res) => answer(handle, req, res));
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
