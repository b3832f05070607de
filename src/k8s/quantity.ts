// Models k8s.io/apimachinery/pkg/api/resource (Quantity), reduced to what the kubelet compares:
// parsing to thousandths of a unit. Simplified: only the suffixes people write for cpu and memory;
// exponents ("1e3") are refused.

const BINARY: Readonly<Record<string, number>> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
const DECIMAL: Readonly<Record<string, number>> = { "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
const QUANTITY = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/;

/** Parses a quantity to thousandths of a unit (cpu "250m" → 250), or undefined when malformed. */
export function parseQuantityMilli(text: string): number | undefined {
  const m = QUANTITY.exec(text.trim());
  if (!m) return undefined;
  const value = Number(m[1]);
  const suffix = m[2] ?? "";
  if (suffix === "m") return Math.round(value);
  const scale = BINARY[suffix] ?? DECIMAL[suffix];
  return scale === undefined ? undefined : Math.round(value * scale * 1000);
}
