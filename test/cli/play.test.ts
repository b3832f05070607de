// `kubelet-sim play` from the real binary: a race id writes a self-contained page (with the source
// index its options show the model's code from); an unknown race or a bad file is one located line,
// exit 2, no stack trace and no page; --serve answers on 127.0.0.1 and stops on SIGTERM with exit 0;
// --levels lists every level with what its stored shortest win changes, ten or more of them won by
// order alone.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, noStackTrace, tempDir } from "./helpers.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe("kubelet-sim play", () => {
  it("writes the page of a race's level, with the simulator and the level in it", () => {
    const out = join(tempDir(), "r05.html");
    const r = cli(["play", "r05", "--out", out]);
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(r.out).toContain(`wrote ${out} (${statSync(out).size} bytes)`);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("<title>Play R05: ");
    expect(html).toContain('"scenarioFile":"scenarios/races/play/r05-play.yaml"');
    expect(html).toContain("default-src 'none'");
    const sources = JSON.parse(/<script type="application\/json" id="play-sources">(.*?)<\/script>/s.exec(html)![1]!) as { files: { path: string }[]; gen: number[]; mark: number };
    expect(sources.files.map((f) => f.path)).toContain("src/kubelet/pod_workers_legacy.ts");
    expect(sources.gen.length % 3).toBe(0);
    expect(sources.mark).toBeGreaterThan(0);
  });

  it("t0 writes the first level, the one that teaches the controls", () => {
    const out = join(tempDir(), "t0.html");
    expect(cli(["play", "t0", "--out", out]).code).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("<title>Play T0: Learn the controls");
    expect(html).toMatch(/"lesson":\["Read the options/);
  });

  it("--levels --json prints one line per level: its race and its shortest win's timing changes and choices away from fifo", () => {
    const r = cli(["play", "--levels", "--json"]);
    expect([r.code, r.err]).toEqual([0, ""]);
    const lines = r.out.trim().split("\n").map((l) => JSON.parse(l) as { race: string; mode: string; timingChanges: number; deviations: number; choices: number });
    expect(lines.map((l) => l.race)).toEqual(Array.from({ length: 27 }, (_, i) => `R${String(i + 1).padStart(2, "0")}`));
    const byOrder = lines.filter((l) => l.deviations >= 1 && l.timingChanges === 0);
    expect(byOrder.length).toBeGreaterThanOrEqual(10);
    expect(byOrder.every((l) => l.mode === "order")).toBe(true);
    const text = cli(["play", "--levels"]);
    expect(text.out).toContain(`${byOrder.length} won by order alone`);
  });

  it.each([
    [["play", "--levels", "r05"], /--levels lists the levels/],
    [["play", "--json"], /name a level|--json goes with --levels/],
    [["play"], /name a level/],
  ])("%j: a usage error, exit 2", (args, message) => {
    const r = cli(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    noStackTrace(r.err);
  });

  it.each([
    ["r99", /^kubelet-sim: r99: no such race \(races: R01, R02, /],
    ["no/such/file.yaml", /^kubelet-sim: no\/such\/file\.yaml: no such race or scenario file/],
  ])("%s: one line, exit 2, no page", (arg, message) => {
    const out = join(tempDir(), "page.html");
    const r = cli(["play", arg, "--out", out]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    noStackTrace(r.err);
    expect(existsSync(out)).toBe(false);
  });

  it("a scenario with an error is reported where it is, and no page is written", () => {
    const dir = tempDir();
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "name: [\n");
    const out = join(dir, "page.html");
    const r = cli(["play", bad, "--out", out]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^kubelet-sim: ${bad.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:\\d+:\\d+: `));
    noStackTrace(r.err);
    expect(existsSync(out)).toBe(false);
  });

  it("--serve serves the page on 127.0.0.1 and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, [join(ROOT, "bin", "kubelet-sim.mjs"), "play", "r05", "--serve", "--port", "0"], { cwd: ROOT });
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
        if (m !== null) resolve(m[1]!);
      });
      child.on("exit", () => reject(new Error(`play --serve exited: ${out}`)));
    });
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>Play R05: ");
    expect((await fetch(`${url}/other`)).status).toBe(404);
    const code = await new Promise<number | null>((resolve) => {
      child.on("exit", (c) => resolve(c));
      child.kill("SIGTERM");
    });
    expect(code).toBe(0);
  });
});
