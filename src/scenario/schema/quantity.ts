// resource.Quantity for node allocatable: "4", "3500m", "16Gi", "512M".
// The parsing is k8s/quantity.ts's (only the suffixes people write; exponents are refused).
import { z } from "zod";
import { describeValue } from "../found.ts";
import { parseQuantityMilli } from "../../k8s/quantity.ts";

export { parseQuantityMilli };

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
