// Models staging/src/k8s.io/apiserver/pkg/storage/names/generate.go (SimpleNameGenerator),
// k8s.io/apimachinery/pkg/util/rand (String, SafeEncodeString) and pkg/controller's ComputeHash.
//
// Where upstream draws randomness (the five characters GenerateName appends), kubelet-sim derives
// them from the object itself: an FNV-1a hash of what is being named, spelled in rand.String's
// alphabet. Not from the run's seed, on purpose: a pod's name must stay the same under `--seed`,
// so that timeline steps, expectations and `--pod` keep naming the same pod in every run.
//
// ComputeHash upstream hashes a spew dump of the Go PodTemplateSpec; that dump cannot be
// reproduced outside Go, so the hash here is FNV-32a over the template's canonical JSON (keys
// sorted). Same form (the decimal digits of a uint32, safe-encoded), different value.

/** rand.alphanums: no vowels, "to reduce the chances of bad words being formed". */
const ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

/** names.maxNameLength and randomLength. */
const MAX_NAME_LENGTH = 63;
const RANDOM_LENGTH = 5;
export const MAX_GENERATED_NAME_LENGTH = MAX_NAME_LENGTH - RANDOM_LENGTH;

/** FNV-1a, 32 bits (hash/fnv New32a), over the UTF-8 bytes of a string. */
export function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString: each character mapped into the alphabet by its code point. */
export function safeEncodeString(s: string): string {
  let out = "";
  for (const ch of s) out += ALPHANUMS[ch.codePointAt(0)! % ALPHANUMS.length];
  return out;
}

/** controller.ComputeHash(template, collisionCount=nil), over canonical JSON (see the file comment). */
export function computeHash(template: unknown): string {
  return safeEncodeString(String(fnv32a(canonicalJson(template))));
}

/**
 * SimpleNameGenerator.GenerateName: the base cut to 58 characters plus five characters. The five
 * come from the hash of `identity` (what upstream would draw at random), read five times.
 */
export function generateName(base: string, identity: string): string {
  const prefix = base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base;
  let h = fnv32a(`${identity}\u0000${prefix}`);
  let suffix = "";
  for (let i = 0; i < RANDOM_LENGTH; i++) {
    suffix += ALPHANUMS[h % ALPHANUMS.length];
    h = (Math.floor(h / ALPHANUMS.length) ^ fnv32a(`${i}${suffix}`)) >>> 0;
  }
  return prefix + suffix;
}

/** A UID for an owner the controller would have read from the apiserver: 8-4-4-4-12 hex, from its identity. */
export function ownerUid(identity: string): string {
  const hex = [0, 1, 2, 3].map((i) => fnv32a(`${i}\u0000${identity}`).toString(16).padStart(8, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** JSON with object keys sorted at every level, so equal values hash alike whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
