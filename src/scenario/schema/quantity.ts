// resource.Quantity for node allocatable: "4", "3500m", "16Gi", "512M".
// Simplified: only the suffixes people write for cpu and memory; exponents ("1e3") are refused.
import { z } from "zod";
import { describeValue } from "../found.ts";

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

/** A quantity parsed to an integer in `unit` (1 = whole units, 1000 = milli-units). */
export function quantity(description: string, perUnit: 1 | 1000, example: string) {
  return z
    .unknown()
    .transform((value, ctx): number => {
      const text = typeof value === "number" ? String(value) : value;
      const milli = typeof text === "string" ? parseQuantityMilli(text) : undefined;
      if (milli === undefined) {
        ctx.addIssue({ code: "custom", message: `expected a quantity such as "${example}", found ${describeValue(value)}` });
        return z.NEVER;
      }
      return perUnit === 1000 ? milli : Math.floor(milli / 1000);
    })
    .meta({ description, typeName: "quantity" });
}
