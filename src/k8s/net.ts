// Models k8s.io/utils/net (ParseIPSloppy, IsIPv4, IsIPv6, IPFamilyOf) and Go's net.IP.String,
// which the kubelet uses to re-format the IPs a runtime reports and to order them by family.

/** A parsed IP: 4 bytes for IPv4 (and IPv4-mapped IPv6, as Go's To4 sees it), 16 for IPv6. */
export interface IP {
  readonly bytes: readonly number[];
}

/**
 * ParseIPSloppy: net.ParseIP, but IPv4 parts may have leading zeros, read as decimal (Go's
 * pre-1.17 behaviour). Returns null for anything that is not an IP (a CIDR "10.0.0.1/24" too).
 */
export function ParseIPSloppy(text: string): IP | null {
  if (text.includes(":")) return parseIPv6(text);
  const v4 = parseIPv4(text);
  return v4 === null ? null : { bytes: v4 };
}

function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

function parseIPv6(text: string): IP | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string): number[] | null => {
    if (s === "") return [];
    const out: number[] = [];
    const parts = s.split(":");
    for (const [i, p] of parts.entries()) {
      if (i === parts.length - 1 && p.includes(".")) {
        const v4 = parseIPv4(p);
        if (v4 === null) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) out.push(parseInt(p, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (head === null || tail === null) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  // To4: an IPv4-mapped address (::ffff:a.b.c.d) is an IPv4 address to Go.
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return { bytes: mapped ? bytes.slice(12) : bytes };
}

export function IsIPv4(ip: IP | null): boolean {
  return ip !== null && ip.bytes.length === 4;
}

export function IsIPv6(ip: IP | null): boolean {
  return ip !== null && ip.bytes.length === 16;
}

/** utilnet.IPFamilyOfString: "4", "6", or "" for a string that is not an IP. */
export function IPFamilyOfString(text: string): "4" | "6" | "" {
  const ip = ParseIPSloppy(text);
  return IsIPv4(ip) ? "4" : IsIPv6(ip) ? "6" : "";
}

/** net.IP.String: dotted IPv4, or RFC 5952 IPv6 (lower case, the longest run of 2+ zero groups as "::"). */
export function ipString(ip: IP): string {
  if (ip.bytes.length === 4) return ip.bytes.join(".");
  const groups = Array.from({ length: 8 }, (_, i) => (ip.bytes[2 * i]! << 8) | ip.bytes[2 * i + 1]!);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    if (j > i) i = j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(":");
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}
