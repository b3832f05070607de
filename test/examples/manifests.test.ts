// The bundled corpus examples/manifests/: every file runs from the CLI with no edits, its pods
// reach Ready (or Succeeded, for a Job's), and what kubelet-sim assumed is said on stderr.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runRequest } from "../../src/cli/commands/run.ts";
import { executeRun } from "../../src/cli/session.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { cli, inProcess, ROOT, tempDir } from "../cli/helpers.ts";

const DIR = "examples/manifests";
const FILES = readdirSync(join(ROOT, DIR)).filter((f) => f.endsWith(".yaml")).sort();

const run = (file: string, args: Record<string, unknown> = {}) =>
  inProcess((io) => executeRun(runRequest({ file, verbosity: "normal", explain: false, json: false, ...args } as Parameters<typeof runRequest>[0]), io).exitCode);

describe("examples/manifests", () => {
  it("holds the shapes the corpus promises", () => {
    expect(FILES).toEqual([
      "cronjob.yaml", "daemonset.yaml", "helm-rendered-nulls.yaml", "job-owned-pod.yaml", "job.yaml", "kubectl-get-pod.yaml",
      "nginx-deployment.yaml", "node-affinity-pod.yaml", "sidecar-probes-pod.yaml", "statefulset.yaml", "static-pod-mirror.yaml",
      "two-nodes-list.yaml",
    ]);
  });

  /** The file whose pod a node refuses: it shows the kubelet's admission, not a pod that runs. */
  const REJECTED = "node-affinity-pod.yaml";

  it.each(FILES.filter((f) => f !== REJECTED))("%s runs to Ready or Succeeded", (name) => {
    const file = join(DIR, name);
    const r = run(file, { format: ["pods"] });
    expect(r.code).toBe(0);
    expect(r.err).toMatch(new RegExp(`^note: ${file.replace(/\./g, "\\.")} is a manifest, not a scenario: kubelet-sim built one around it`));
    const { scenario } = loadScenarioFile(file);
    const wants = scenario.expect.map((e) => (e.condition.phase === "Succeeded" ? /phase=Succeeded/ : /Ready=True/));
    expect(wants.length).toBeGreaterThan(0);
    for (const want of wants) expect(r.out).toMatch(new RegExp(`  PASS .*${want.source}`));
    expect(r.err).not.toMatch(/^warning:/m);
  });

  it("node-affinity-pod.yaml: the default node lacks the label, so its kubelet rejects the pod at admission (exit 1, said why)", () => {
    const r = run(join(DIR, REJECTED), { format: ["events"] });
    expect(r.code).toBe(1);
    expect(r.out).toContain("Warning  NodeAffinity");
    expect(r.err).toContain("warning: default/fast-disk-cache never ran: the kubelet rejected it at admission (NodeAffinity: Predicate NodeAffinity failed)");
    // On a node with the label, the same file runs: the scenario docs/manifests.md shows, as it is.
    const page = readFileSync(join(ROOT, "docs", "manifests.md"), "utf8");
    const shown = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((t) => t.startsWith("name: ssd-node"))!;
    const scenario = join(tempDir(), "ssd-node.yaml");
    writeFileSync(scenario, shown.replace("../examples/manifests/", `${join(ROOT, DIR)}/`));
    expect(run(scenario).code).toBe(0);
  });

  it("helm-rendered-nulls.yaml: every explicit null is read as unset, as the apiserver reads it", () => {
    const { scenario } = loadScenarioFile(join(DIR, "helm-rendered-nulls.yaml"));
    const c = scenario.pods[0]!.manifest.spec.containers[0]!;
    expect(c.resources).toEqual({ requests: { cpu: "100m", memory: "128Mi" } });
    expect([c.env, c.command, scenario.pods[0]!.manifest.spec.tolerations]).toEqual([undefined, undefined, undefined]);
    expect(scenario.pods[0]!.manifest.spec.terminationGracePeriodSeconds).toBe(30);
  });

  it("job-owned-pod.yaml: a Job's pod copied from a cluster runs to completion: its sleep 20 exits, the pod is expected to succeed", () => {
    const { scenario } = loadScenarioFile(join(DIR, "job-owned-pod.yaml"));
    expect(scenario.expect.map((e) => e.condition)).toEqual([{ pod: "shop/db-migrate-7xkqp", phase: "Succeeded" }]);
    expect(scenario.pods[0]!.behaviour.migrate!.then).toMatchObject({ exitAfterMs: 20_000, exitCode: 0 });
  });

  it("says what became of the fields `kubectl get -o yaml` adds, in one note line, and takes the pod's node", () => {
    const r = run(join(DIR, "kubectl-get-pod.yaml"), { format: ["pods"] });
    const notes = r.err.split("\n").filter((l) => l.startsWith("note: fields set by a cluster"));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/status: discarded .*metadata\.resourceVersion: dropped .*metadata\.managedFields: dropped/);
    expect(r.err).toContain("note: node: the kubelet runs as node worker-3");
  });

  it("runs a static pod copied from a control-plane node as the static pod, not as an orphaned mirror", () => {
    const r = run(join(DIR, "static-pod-mirror.yaml"), { format: ["events"] });
    expect(r.out).toContain("Name:       kube-scheduler-control-plane\nNamespace:  kube-system\n");
    expect(r.out).toContain("Started container kube-scheduler");
  });
  it("nginx-deployment.yaml (replicas 3) runs its three pods, as a cluster of one node; two-nodes-list.yaml runs each pod on its node", () => {
    const deploy = run(join(DIR, "nginx-deployment.yaml"), { format: ["pods"] });
    expect(deploy.err).toContain("note:   cluster: Deployment nginx-deployment (3 pods) run by its controller: runs as a cluster of one node, node-1");
    const running = new Set([...deploy.out.matchAll(/^(nginx-deployment-\S+) +1\/1 +Running/gm)].map((m) => m[1]));
    expect(running.size).toBe(3);
    const list = run(join(DIR, "two-nodes-list.yaml"), { format: ["pods"] });
    expect(list.err).toContain("runs as a cluster of 2 nodes, worker-a, worker-b");
    expect(list.out).toMatch(/^web-a +1\/1 +Running .* worker-a$/m);
    expect(list.out).toMatch(/^web-b +1\/1 +Running .* worker-b$/m);
  });

  it("runs from the binary, and --print-scenario writes a scenario that runs the same", () => {
    const file = join(DIR, "statefulset.yaml");
    const direct = cli(["run", file, "--json"]);
    expect(direct.code).toBe(0);
    const printed = cli(["run", file, "--print-scenario"]);
    expect(printed.code).toBe(0);
    expect(printed.out).toMatch(/^# Built by kubelet-sim around the manifest examples\/manifests\/statefulset.yaml/);
    const out = join(tempDir(), "statefulset-scenario.yaml");
    writeFileSync(out, printed.out);
    const again = cli(["run", out, "--json"]);
    const a = JSON.parse(direct.out) as { traceHash: string; events: number; ok: boolean };
    const b = JSON.parse(again.out) as { traceHash: string; events: number; ok: boolean };
    // The trace names the file it ran; everything else is the same run.
    expect([b.ok, b.events]).toEqual([a.ok, a.events]);
  });

  it("explore takes a manifest too", () => {
    const r = cli(["explore", join(DIR, "job.yaml"), "--runs", "3", "--json", "--no-shrink", "--out", tempDir()]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ runs: 3, violations: 0 });
  });
});
