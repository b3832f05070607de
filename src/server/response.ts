// A response of the kubelet server, as plain data: the HTTP binding (cli/serve_http.ts) writes it;
// nothing in server/ knows HTTP itself.

export interface Response {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** A request as the server's handlers read it. */
export interface Request {
  method: string;
  /** The path, without the query ("/pods"). */
  path: string;
  query: URLSearchParams;
}

const TEXT = { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } as const;

/** http.Error: the message and a newline, as text/plain. */
export function httpError(status: number, message: string, extra: Record<string, string> = {}): Response {
  return { status, headers: { ...TEXT, ...extra }, body: `${message}\n` };
}

/** fmt.Fprint(w, text) with the text/plain headers the healthz handler sets. */
export function text(status: number, body: string): Response {
  return { status, headers: TEXT, body };
}

/** writeJSONResponse: the encoded object as application/json. */
export function json(status: number, value: unknown): Response {
  return { status, headers: { "Content-Type": "application/json" }, body: JSON.stringify(value) };
}

/** http.NotFound, as Go's ServeMux answers a path nothing is registered for. */
export function notFound(): Response {
  return httpError(404, "404 page not found");
}
