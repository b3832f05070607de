// The model switches a scenario may set under kubelet.variants: behaviours the kubelet version
// alone does not select (a planted historical bug, a proposed upstream fix). A name no model knows
// is refused before the run starts. docs/control-loops.md lists them.

export interface VariantInfo {
  name: string;
  /** What turning it on changes, and the upstream reference. */
  description: string;
}

export const VARIANTS: readonly VariantInfo[] = [
  {
    name: "plegSetCurrentKeepsMissingPods",
    description:
      "PLEG keeps the last record of a pod that vanished from the runtime listing, so a container that exits and is removed between two relists produces no event (the pre-v1.2.0 bug of race R08, PR #22155).",
  },
];

export class UnknownVariantError extends Error {
  override name = "UnknownVariantError";
}

/** Refuses variant names no model knows; the message lists the known ones. */
export function checkVariants(variants: Readonly<Record<string, boolean>>): void {
  const known = new Set(VARIANTS.map((v) => v.name));
  const unknown = Object.keys(variants).filter((n) => !known.has(n)).sort();
  if (unknown.length === 0) return;
  throw new UnknownVariantError(
    `unknown kubelet variant${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n}"`).join(", ")}; known: ${[...known].sort().join(", ")}`,
  );
}
