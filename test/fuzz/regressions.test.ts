// Counterexamples the fuzz property found (shrunk), kept as fixed cases: each was a stack trace,
// an internal error (exit 3) or an unlocated refusal, and each is now a located exit 2.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./property.ts";

const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-fuzz-regressions-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(command: string, text: string): Promise<{ code: number; err: string }> {
  const file = join(dir, `${command}.yaml`);
  writeFileSync(file, text);
  const r = await runCli(command === "run" ? ["run", file, "--format", "events"] : [command, file]);
  expect(r.err).not.toMatch(/\n\s+at .+:\d+:\d+\)?$/m);
  return { code: r.code, err: r.err.replaceAll(file, "F") };
}

const scenario = (extra: string) => `name: regress
until: 1m
${extra}
pods:
  - manifest: { metadata: { name: web }, spec: { containers: [{ name: app, image: "nginx:1" }] } }
    behaviour: { app: { exitAfter: 1s, exitCode: 1 } }
timeline:
  - { at: 0s, create: web }
`;

describe("fuzz counterexamples", () => {
  it("a zero relist period was a panic in the PLEG (exit 3); now a refused period", async () => {
    const r = await cli("run", scenario("kubelet: { plegRelistPeriod: 0s }"));
    expect(r.code).toBe(2);
    expect(r.err).toContain('F:3:30: kubelet.plegRelistPeriod: expected a duration greater than 0s (a period the kubelet repeats), found "0s"');
  });

  it("a back-off cap below the first back-off was a panic in NewBackOff (exit 3); now refused at the field", async () => {
    const r = await cli("run", scenario("kubelet: { maxContainerBackOff: 0s }"));
    expect(r.code).toBe(2);
    expect(r.err).toContain("F:3:33: kubelet.maxContainerBackOff: expected maxContainerBackOff >= backOffPeriod (10s), found 0s");
  });

  it("an unknown invariant id was refused without a place; now at the expectation", async () => {
    const r = await cli("run", `${scenario("")}expect:\n  - never: ${"a".repeat(300)}\n`);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^kubelet-sim: F:10:12: expect\[0\]\.never: unknown invariant "a{300}"; known: /m);
  });

  it("an actions snapshot with a list for a container name was refused without a place; now at the field", async () => {
    const snapshot = `pod:
  name: web
  namespace: default
  uid: u1
  restartPolicy: Always
  containers:
    - { name: app, image: "nginx:1" }
status:
  sandboxes: []
  containers:
    - { name: [[[app]]], id: c1, state: running, hash: matches }
`;
    const r = await cli("actions", snapshot);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^kubelet-sim: F:11:15: not a pod snapshot: status\.containers\.0\.name: /m);
  });
});
