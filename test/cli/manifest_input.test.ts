// Bad input at the CLI: a file that is neither a scenario nor a manifest, or a kind without a pod
// template, is one located error on stderr, exit 2, nothing run and nothing written.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, noStackTrace } from "./helpers.ts";

describe("kubelet-sim run and validate on what is not a runnable manifest", () => {
  const d = mkdtempSync(join(tmpdir(), "kubelet-sim-cli-"));
  afterAll(() => rmSync(d, { recursive: true, force: true }));
  const service = join(d, "service.yaml");
  writeFileSync(service, "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports: [{ port: 80 }]\n");
  const neither = join(d, "notes.yaml");
  writeFileSync(neither, "title: my notes\nitems: [a, b]\n");

  it.each([
    [service, `${service}:2:7: kind: Service has no pod template; kubelet-sim runs pods: expected a Pod, Deployment, `],
    [neither, `${neither}:1:1: expected a kubelet-sim scenario (a mapping with name, pods, timeline, ...) or a Kubernetes manifest (apiVersion and kind: `],
  ])("run %s: exit 2, one located error, no output file", (file, error) => {
    const out = join(d, "out.txt");
    const r = cli(["run", file, "--out", out]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    const lines = r.err.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]!.startsWith(error)).toBe(true);
    expect(lines[1]).toBe(`kubelet-sim: ${file} has 1 error; nothing was run (see docs/scenarios.md)`);
    expect(existsSync(out)).toBe(false);
    noStackTrace(r.err);
  });

  it("validate says the same, exit 2", () => {
    const r = cli(["validate", service]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${service}:2:7: kind: Service has no pod template`);
  });

  it("--print-scenario on a bad file prints nothing to stdout and exits 2", () => {
    const r = cli(["run", service, "--print-scenario"]);
    expect([r.code, r.out]).toEqual([2, ""]);
    expect(r.err).toContain("nothing was printed");
  });
});
