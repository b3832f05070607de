// Where a command writes: stdout and stderr, each with the palette it may colour with. Commands take
// this as a value, so tests run them in-process and read what they wrote.
import { paletteFor, type Palette } from "./colour.ts";

export interface OutStream {
  write(text: string): void;
  readonly palette: Palette;
}

export interface CliIo {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
}

/** The process's own streams; colour only where the stream is a terminal and NO_COLOR is unset. */
export function processIo(): CliIo {
  return {
    stdout: { write: (t) => void process.stdout.write(t), palette: paletteFor(process.stdout, process.env) },
    stderr: { write: (t) => void process.stderr.write(t), palette: paletteFor(process.stderr, process.env) },
  };
}
