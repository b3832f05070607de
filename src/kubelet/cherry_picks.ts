// A fix that reached several release branches: merged upstream in one minor's .0 release and
// cherry-picked into patch releases of older branches (CHANGELOG-1.x.md names each patch). A model
// gate names every release the fix shipped in: fixedIn(v, "1.22.9", "1.23.6", "1.24.0").
import { kubeletVersion, type VersionLike } from "./version.ts";

/**
 * Whether the release `v` has the fix: a release of a branch the fix was picked into has it from
 * that patch on; a branch newer than every listed one has it (the fix merged before it was cut);
 * a branch older than the newest listed one, and not listed itself, never got it.
 */
export function fixedIn(v: VersionLike, ...releases: string[]): boolean {
  if (releases.length === 0) throw new RangeError("fixedIn: name at least one release");
  const k = kubeletVersion(v);
  const picks = releases.map((r) => kubeletVersion(r));
  const same = picks.find((p) => p.minor === k.minor);
  if (same !== undefined) return k.patch >= same.patch;
  const newest = Math.max(...picks.map((p) => p.minor));
  return k.minor > newest;
}
