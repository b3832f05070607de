// Models github.com/liggitt/tabwriter (text/tabwriter plus RememberWidths), the aligner behind
// kubectl's tables, restricted to what the renderers feed it: lines of tab-terminated cells.
//
// A line is an array of cells; every cell but the last is tab-terminated and belongs to a column,
// the last one is the text before the newline and never pads. A column block is a run of
// consecutive lines that have a cell in that column; its width is max(minwidth, cell + padding).
// With rememberWidths, a column never shrinks below the widest it has been in an earlier flush,
// which is how `kubectl get -w` keeps rows aligned with the header it printed first.

export interface TabWriterOptions {
  minwidth: number;
  padding: number;
  rememberWidths: boolean;
}

export class TabWriter {
  private lines: string[][] = [];
  private readonly maxwidths: number[] = [];
  private readonly out: string[] = [];

  constructor(private readonly opts: TabWriterOptions) {}

  /** Buffers one line; `cells` are the line's text split at its tabs. */
  line(cells: readonly string[]): void {
    if (cells.length === 0) throw new Error("tabwriter: a line has at least one cell");
    this.lines.push([...cells]);
  }

  /** Formats every buffered line and appends it to the output. */
  flush(): void {
    this.format(0, this.lines.length, []);
    this.lines = [];
  }

  /** Everything flushed so far, each line ending in "\n". */
  text(): string {
    return this.out.join("");
  }

  private format(line0: number, line1: number, widths: number[]): void {
    const column = widths.length;
    let start = line0;
    for (let cur = line0; cur < line1; cur++) {
      if (column >= this.lines[cur]!.length - 1) continue;
      // A block of lines with a cell in this column begins here.
      this.write(start, cur, widths);
      start = cur;
      let width = this.opts.minwidth;
      for (; cur < line1; cur++) {
        const line = this.lines[cur]!;
        if (column >= line.length - 1) break;
        width = Math.max(width, cellWidth(line[column]!) + this.opts.padding);
      }
      width = this.remember(column, width);
      this.format(start, cur, [...widths, width]);
      start = cur;
      // The loop's cur++ skips the line that ended the block, as upstream's does: that line has no
      // cell in this column, so it would be skipped anyway.
    }
    this.write(start, line1, widths);
  }

  /** RememberWidths: a column is as wide as the widest it has ever been. */
  private remember(column: number, width: number): number {
    if (!this.opts.rememberWidths) return width;
    const prev = this.maxwidths[column];
    if (prev === undefined) {
      this.maxwidths[column] = width;
      return width;
    }
    if (prev > width) return prev;
    this.maxwidths[column] = width;
    return width;
  }

  private write(line0: number, line1: number, widths: readonly number[]): void {
    for (let i = line0; i < line1; i++) {
      const line = this.lines[i]!;
      let text = "";
      line.forEach((cell, j) => {
        text += cell;
        if (j < widths.length && j < line.length - 1) text += " ".repeat(widths[j]! - cellWidth(cell));
      });
      this.out.push(text + "\n");
    }
  }
}

/** The width of a cell in runes, as tabwriter counts it (utf8.RuneCount). */
function cellWidth(cell: string): number {
  let n = 0;
  for (const _ of cell) n++;
  return n;
}

/** Aligns lines in one flush (kubectl describe's tabbedString: minwidth 0, padding 2). */
export function alignOnce(lines: readonly (readonly string[])[], opts: TabWriterOptions): string {
  const w = new TabWriter(opts);
  for (const l of lines) w.line(l);
  w.flush();
  return w.text();
}
