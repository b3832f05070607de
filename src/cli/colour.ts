// Colour for the CLI's own lines (the replay key, PASS/FAIL, the verdict), only on a terminal and
// never when NO_COLOR is set (https://no-color.org). The renderers stay plain; no dependency.

export interface Palette {
  readonly enabled: boolean;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const ON: Palette = {
  enabled: true,
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  dim: sgr(2, 22),
  bold: sgr(1, 22),
};

const same = (text: string) => text;
export const PLAIN: Palette = { enabled: false, red: same, green: same, yellow: same, dim: same, bold: same };

/** Colour when the stream is a terminal and NO_COLOR is unset or empty (as no-color.org defines it). */
export function paletteFor(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): Palette {
  const noColor = env["NO_COLOR"];
  if (noColor !== undefined && noColor !== "") return PLAIN;
  return stream.isTTY === true ? ON : PLAIN;
}
