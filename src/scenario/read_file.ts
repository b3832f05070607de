// Reading a file a user named, safely: only a regular file (a FIFO named x.yaml would block the
// reader forever, a device would never end), and never more than a cap, checked before reading.
// Opened without blocking, so a FIFO is refused at once rather than waited on.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

export type FileRead = { ok: true; bytes: Buffer } | { ok: false; why: string };

/**
 * Reads at most maxBytes + 1 bytes of a regular file. `what` names what the file should be ("a
 * scenario file"); `tooLarge` words the refusal of a bigger one.
 */
export function readRegularFile(path: string, what: string, maxBytes: number, tooLarge: (bytes: number) => string): FileRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return { ok: false, why: openError((err as NodeJS.ErrnoException).code) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, why: notRegular(st, what) };
    if (st.size > maxBytes) return { ok: false, why: tooLarge(st.size) };
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let n = 0;
    // Each read returns at least one byte until end of file, so this loop ends within buf.length reads.
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    // The file grew after fstat: read on, up to the cap, to see whether it still fits.
    if (n === buf.length && n <= maxBytes) return readGrown(fd, buf, maxBytes, tooLarge);
    return n > maxBytes ? { ok: false, why: tooLarge(n) } : { ok: true, bytes: buf.subarray(0, n) };
  } catch (err) {
    return { ok: false, why: `cannot read (${(err as NodeJS.ErrnoException).code ?? "error"})` };
  } finally {
    closeSync(fd);
  }
}

function readGrown(fd: number, start: Buffer, maxBytes: number, tooLarge: (bytes: number) => string): FileRead {
  const buf = Buffer.alloc(maxBytes + 1);
  start.copy(buf);
  let n = start.length;
  while (n < buf.length) {
    const got = readSync(fd, buf, n, buf.length - n, null);
    if (got === 0) break;
    n += got;
  }
  return n > maxBytes ? { ok: false, why: tooLarge(n) } : { ok: true, bytes: buf.subarray(0, n) };
}

function openError(code: string | undefined): string {
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES") return "permission denied";
  if (code === "ENXIO") return "not a regular file (a socket or a device with nothing behind it)";
  return `cannot open (${code ?? "error"})`;
}

/** What a path is when it is not a regular file, in words. */
function notRegular(st: Stats, what: string): string {
  if (st.isDirectory()) return `expected ${what}, found a directory`;
  const kind = st.isFIFO() ? "a FIFO (named pipe)" : st.isSocket() ? "a socket" : st.isCharacterDevice() || st.isBlockDevice() ? "a device" : "a special file";
  return `expected ${what}, found ${kind}: only a regular file is read`;
}
