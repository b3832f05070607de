// Kubelet releases as the models gate behaviour on them. A scenario names a release as "1.22" (its
// .0 release, the code the release branch was cut with) or "1.22.4" (a patch release), so a gate can
// name the exact patch release that shipped a cherry-picked fix: `atLeast(version, "1.22.5")`.
// Every model asks through atLeast; nothing else compares versions.
import { perKey } from "../k8s/memo.ts";

export const MIN_KUBELET_MINOR = 19;
export const MAX_KUBELET_MINOR = 35;
/** Patch numbers accepted: upstream's longest-lived branch (1.22) reached 1.22.17. */
export const MAX_KUBELET_PATCH = 99;

export interface KubeletVersion {
  readonly minor: number;
  readonly patch: number;
}

/** A version as callers hold it: parsed, as text ("1.22.4"), or a bare minor (22: its .0 release). */
export type VersionLike = KubeletVersion | string | number;

const TEXT = /^v?1\.(\d{1,3})(?:\.(\d{1,3}))?$/;

/** "1.22", "v1.22.4" → { minor, patch }; null for anything else (the range is not checked here). */
export function parseKubeletVersion(text: string): KubeletVersion | null {
  const m = TEXT.exec(text.trim());
  if (m === null) return null;
  return { minor: Number(m[1]), patch: m[2] === undefined ? 0 : Number(m[2]) };
}

/** Whether the models have this release: 1.19.0 to 1.35.x. */
export function isSupportedKubeletVersion(v: KubeletVersion): boolean {
  return (
    Number.isInteger(v.minor) && v.minor >= MIN_KUBELET_MINOR && v.minor <= MAX_KUBELET_MINOR &&
    Number.isInteger(v.patch) && v.patch >= 0 && v.patch <= MAX_KUBELET_PATCH
  );
}

/**
 * Parsed version strings: every gate asks `atLeast(v, "1.22.5")` with a literal, many times a run,
 * and a regex per call was 1% of an exploration. The strings are the models' release literals and
 * the few a scenario names, so the bound is never reached in practice.
 */
const parsedString = perKey((v: string): KubeletVersion => {
  const parsed = parseKubeletVersion(v);
  if (parsed === null) throw new RangeError(`not a kubelet version: "${v}" (expected e.g. "1.22" or "1.22.4")`);
  return Object.freeze(parsed);
}, 1024);

export function kubeletVersion(v: VersionLike): KubeletVersion {
  if (typeof v === "number") return { minor: v, patch: 0 };
  if (typeof v === "string") return parsedString(v);
  return v;
}

/** The models' one version comparison: is `v` the release `release` ("1.22.5") or a later one? */
export function atLeast(v: VersionLike, release: string): boolean {
  const a = kubeletVersion(v);
  const b = kubeletVersion(release);
  return a.minor !== b.minor ? a.minor > b.minor : a.patch >= b.patch;
}

/** "1.22.4"; a .0 release prints as "1.22.0". */
export function formatKubeletVersion(v: KubeletVersion): string {
  return `1.${v.minor}.${v.patch}`;
}

/** Throws unless the release is one the models have (for era tables handed a bare number). */
export function checkedKubeletVersion(v: VersionLike, who: string): KubeletVersion {
  const k = kubeletVersion(v);
  if (!isSupportedKubeletVersion(k)) throw new RangeError(`${who}: unsupported kubelet version ${formatKubeletVersion(k)}`);
  return k;
}
