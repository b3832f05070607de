// Virtual time as the timeline prints it: "12.345s", "1m02.000s", "1h02m03.000s" (always to the
// millisecond, so lines sort and align by eye).

/** The timeline's clock text of virtual ms (no padding). */
export function formatClock(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0) return String(ms);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const frac = String(ms % 1000).padStart(3, "0");
  if (h > 0) return `${h}h${pad2(m)}m${pad2(s)}.${frac}s`;
  if (m > 0) return `${m}m${pad2(s)}.${frac}s`;
  return `${s}.${frac}s`;
}

/** The narrowest clock column the timeline uses ("  12.345s" and "1m02.000s" are 9 wide). */
export const CLOCK_MIN_WIDTH = 9;

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}
