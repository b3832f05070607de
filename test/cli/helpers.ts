// What the CLI tests share: the binary run as a user runs it, and commands run in-process with
// their output captured (for what only a function call can provoke, like a kernel bound).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, onTestFinished } from "vitest";
import { PLAIN } from "../../src/cli/colour.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { reportError } from "../../src/cli/main.ts";

export const ROOT = join(import.meta.dirname, "..", "..");
export const FIXTURES = "test/fixtures/cli";

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** The real binary, from the repository root, with colour off as on any pipe. */
export function cli(args: readonly string[], env: Record<string, string> = {}): Ran {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "kubelet-sim.mjs"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...env },
    // Every format at once (an HTML page, a Trace Event file) is more than spawnSync's 1 MiB default.
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Runs a command function in-process, reporting errors as main() does. */
export function inProcess(command: (io: CliIo) => number): Ran {
  let out = "";
  let err = "";
  const io: CliIo = {
    stdout: { write: (t) => void (out += t), palette: PLAIN },
    stderr: { write: (t) => void (err += t), palette: PLAIN },
  };
  let code: number;
  try {
    code = command(io);
  } catch (e) {
    code = reportError(e, (t) => void (err += t));
  }
  return { code, out, err };
}

/** A fresh folder, removed when the test that asked for it finishes. Call it inside a test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-cli-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+\)?$/m);
