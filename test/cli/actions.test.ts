import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "kubelet-sim.mjs"), ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("kubelet-sim actions", () => {
  it("explains kills and starts for the bundled example, one line per action", () => {
    const r = cli("actions", "examples/actions/liveness-failed.yaml");
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n")).toEqual([
      "kill container app (id c1): Container app failed liveness probe, will be restarted",
      "kill container sidecar-log (id c2): Container sidecar-log definition changed, will be restarted",
      "start container app: replaces the container killed above",
      "start container sidecar-log: replaces the container killed above",
      "start container cache: exited with code 1; restartPolicy Always",
    ]);
  });

  it("explains a dead sandbox", () => {
    const r = cli("actions", "examples/actions/sandbox-dead.yaml");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^kill pod \(every container and sandbox sb-2\): No ready sandbox/m);
    expect(r.out).toMatch(/^create sandbox \(attempt 2\): /m);
    expect(r.out).toMatch(/^start init container fetch: /m);
  });

  it("explains a sidecar that failed its startup probe", () => {
    const r = cli("actions", "examples/actions/sidecar-startup.yaml");
    expect(r.out.trim().split("\n")).toEqual([
      "kill container proxy (id p1): Init container proxy failed startup probe",
      "start init container proxy: replaces the container killed above",
    ]);
  });

  it("accepts a one-vector file, ignores `expected`, and says when nothing is to be done", () => {
    const dir = mkdtempSync(join(tmpdir(), "ksim-actions-"));
    const file = join(dir, "steady.yaml");
    writeFileSync(
      file,
      [
        "meta: {describes: snapshot}",
        "vectors:",
        "- pod: {containers: [{name: a, image: x}]}",
        "  status:",
        "    sandboxes: [{id: s, state: READY, attempt: 0, network: {ip: 10.0.0.1}}]",
        "    containers: [{name: a, id: a1, state: running, hash: matches}]",
        "  expected: {killPod: true}",
        "",
      ].join("\n"),
    );
    const r = cli("actions", file);
    expect(r.code).toBe(0);
    expect(r.out).toBe("nothing to do: the pod runs as specified\n");
  });

  it("a new pod gets a sandbox and all its containers", () => {
    const dir = mkdtempSync(join(tmpdir(), "ksim-actions-"));
    const file = join(dir, "new.yaml");
    writeFileSync(file, "pod: {containers: [{name: a, image: x}, {name: b, image: y}]}\nstatus: {sandboxes: [], containers: []}\n");
    expect(cli("actions", file).out.trim().split("\n")).toEqual([
      "kill pod (every container and sandbox): No sandbox for pod can be found. Need to start a new one; everything is recreated",
      "create sandbox (attempt 0): No sandbox for pod can be found. Need to start a new one",
      "start container a: the new sandbox starts from the beginning",
      "start container b: the new sandbox starts from the beginning",
    ]);
  });

  it("exits 2 with a message for a file that is not a snapshot", () => {
    const dir = mkdtempSync(join(tmpdir(), "ksim-actions-"));
    const file = join(dir, "bad.yaml");
    writeFileSync(file, "pod: {}\n");
    const r = cli("actions", file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^kubelet-sim: .*bad\.yaml:\d+:\d+: not a pod snapshot: pod\.containers/);
  });

  it("has --help with examples", () => {
    const r = cli("actions", "--help");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Examples:/);
  });
});
