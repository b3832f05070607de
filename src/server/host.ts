// Which Host a request may name. The server listens on 127.0.0.1 only, but a web page elsewhere can
// still reach it through DNS rebinding: its own name resolved first to its server, then to
// 127.0.0.1, so the browser sends that page's requests here with the page's name as Host. Only
// the loopback names are answered unless the user names others (`serve --allow-host`).

/** The names of this machine's loopback that a browser or curl sends in Host. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** The host part of a Host header, without the port, lower-cased and without a trailing dot. */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  const name = h.startsWith("[") ? h.slice(0, h.indexOf("]") + 1) : h.replace(/:\d*$/, "");
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

/**
 * Whether a request with this Host header is answered. A request without one (HTTP/1.0, a raw
 * socket) is: a browser always sends Host, and the browser is what rebinding turns against us.
 * `allowed` holds names as the user gave them; "*" allows any.
 */
export function hostAllowed(header: string | undefined, allowed: readonly string[]): boolean {
  if (header === undefined || header === "") return true;
  if (allowed.includes("*")) return true;
  const name = hostName(header);
  return LOOPBACK_HOSTS.includes(name) || allowed.some((a) => hostName(a) === name);
}

/** Why a request was refused, with the way to allow its name. */
export function hostRefusal(header: string, option: string | null): string {
  const how = option === null ? "" : `; to serve it by that name, start the server with ${option} ${hostName(header)}`;
  return `kubelet-sim answers requests for ${LOOPBACK_HOSTS.join(", ")} only, not for ${JSON.stringify(header.slice(0, 200))} (a guard against DNS rebinding)${how}`;
}
