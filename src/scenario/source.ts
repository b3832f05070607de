// Reading a scenario file safely: only a regular file, a size cap checked before reading, and
// refusal of binary content (NUL bytes, invalid UTF-8) and of empty files, each with a clear message.
import { checkText, fileIssue, MAX_FILE_BYTES, tooLarge, type SourceResult } from "./source_text.ts";
import { readRegularFile } from "./read_file.ts";

export { checkText, MAX_FILE_BYTES, type SourceResult } from "./source_text.ts";

/** Reads at most MAX_FILE_BYTES + 1 bytes, so a huge file costs no more than a small one. */
export function readSource(path: string): SourceResult {
  const read = readRegularFile(path, "a scenario file", MAX_FILE_BYTES, tooLarge);
  if (!read.ok) return fileIssue(path, read.why);
  return decodeSource(read.bytes, path);
}

/** Checks bytes are UTF-8 text without NUL bytes, and not empty; strips a byte-order mark. */
export function decodeSource(bytes: Uint8Array, file: string): SourceResult {
  if (bytes.length > MAX_FILE_BYTES) return fileIssue(file, tooLarge(bytes.length));
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    const { line, col } = lineColOfByte(bytes, nul);
    return fileIssue(file, "binary content: a NUL byte; a scenario is a UTF-8 YAML text file", line, col);
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    const { line, col } = lineColOfByte(bytes, bad);
    return fileIssue(file, `binary content: invalid UTF-8 at byte ${bad}; a scenario is a UTF-8 YAML text file`, line, col);
  }
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8");
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  return checkText(text, file);
}

function lineColOfByte(bytes: Uint8Array, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      start = i + 1;
    }
  }
  // Columns count characters, so continuation bytes of multi-byte characters are skipped.
  let col = 1;
  for (let i = start; i < offset; i++) if ((bytes[i]! & 0xc0) !== 0x80) col++;
  return { line, col };
}

/** The offset of the first byte that is not valid UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    const b1 = bytes[i + 1] ?? 0;
    // Overlong three/four-byte forms, UTF-16 surrogates and code points above U+10FFFF.
    if ((b === 0xe0 && b1 < 0xa0) || (b === 0xed && b1 > 0x9f) || (b === 0xf0 && b1 < 0x90) || (b === 0xf4 && b1 > 0x8f)) {
      return i;
    }
    i += need + 1;
  }
  return -1;
}
