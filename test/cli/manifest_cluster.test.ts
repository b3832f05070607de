// At the command line, manifests as a cluster treats them: an apiVersion the cluster does not
// serve is exit 2 and one located error; the fields nothing models are one counted line from
// `run` and located lines from `validate`; --node picks a node of a multi-node dump and is part of
// the replay key; exec probes fold like httpGet ones, and an exec hook's line says it is a hook.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runRequest } from "../../src/cli/commands/run.ts";
import { renderValidation } from "../../src/cli/commands/validate.ts";
import { executeRun } from "../../src/cli/session.ts";
import { checkScenarioFile } from "../../src/scenario/index.ts";
import { cli, inProcess, noStackTrace, tempDir } from "./helpers.ts";

const run = (file: string, args: Record<string, unknown> = {}) =>
  inProcess((io) => executeRun(runRequest({ file, verbosity: "normal", explain: false, json: false, ...args } as Parameters<typeof runRequest>[0]), io).exitCode);

function write(name: string, text: string): string {
  const file = join(tempDir(), name);
  writeFileSync(file, text);
  return file;
}

const CRONJOB = `apiVersion: batch/v1beta1
kind: CronJob
metadata:
  name: cleanup
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  startingDeadlineSeconds: 200
  jobTemplate:
    spec:
      backoffLimit: 2
      ttlSecondsAfterFinished: 600
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: cleanup
            image: busybox:1.36
            command: [sh, -c, "rm -rf /tmp/cache/*"]
`;

describe("kubelet-sim run and validate on manifests a cluster would judge", () => {
  it("an apiVersion the release no longer serves: exit 2, one located error naming the replacement, nothing run", () => {
    const file = write("cron.yaml", CRONJOB);
    const r = cli(["run", file]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err.split("\n")[0]).toBe(
      `${file}:1:13: apiVersion: no matches for kind "CronJob" in version "batch/v1beta1": the apiserver no longer serves batch/v1beta1 CronJob from Kubernetes 1.25 (this scenario's kubelet is 1.30); use batch/v1`,
    );
    noStackTrace(r.err);
    // Under a release that serves it, it runs (and completes: its command exits).
    expect(run(file, { kubeletVersion: "1.24", format: ["pods"] }).code).toBe(0);
  });

  it("workload fields nothing models: `run` says them in one counted line, `validate` where each is", () => {
    const file = write("cron.yaml", CRONJOB.replace("batch/v1beta1", "batch/v1"));
    const r = run(file, { format: ["pods"] });
    expect(r.code).toBe(0);
    const notes = r.err.split("\n").filter((l) => l.includes("accepted but not modelled"));
    expect(notes).toEqual([
      `note: 4 manifest field(s) accepted but not modelled: CronJob spec.concurrencyPolicy, CronJob spec.jobTemplate.spec.backoffLimit, CronJob spec.jobTemplate.spec.ttlSecondsAfterFinished, CronJob spec.startingDeadlineSeconds (\`kubelet-sim validate ${file}\` says where)`,
    ]);
    const v = renderValidation([{ file, result: checkScenarioFile(file) }], { quiet: false, print: false });
    const located = v.stdout.split("\n").filter((l) => l.startsWith("  CronJob ")).map((l) => l.trim().split(/ +/).join(" "));
    expect(located).toEqual([
      `CronJob spec.concurrencyPolicy ${file}:7:3`,
      `CronJob spec.jobTemplate.spec.backoffLimit ${file}:11:7`,
      `CronJob spec.jobTemplate.spec.ttlSecondsAfterFinished ${file}:12:7`,
      `CronJob spec.startingDeadlineSeconds ${file}:8:3`,
    ]);
  });

  it("a dump of pods on two nodes runs as a cluster of both, said on stderr; --node runs one node's pods, and the replay key carries it", () => {
    const pod = (name: string, node: string) => `- apiVersion: v1\n  kind: Pod\n  metadata: { name: ${name}, namespace: shop }\n  spec: { nodeName: ${node}, containers: [{ name: c, image: "nginx:1.27" }] }\n`;
    const file = write("pods.yaml", `apiVersion: v1\nkind: List\nitems:\n${pod("api", "worker-1")}${pod("db", "worker-2")}`);
    const both = run(file, { format: ["pods"] });
    expect(both.code).toBe(0);
    expect(both.err).toContain("note:   cluster: the pods are bound to 2 nodes: runs as a cluster of 2 nodes, worker-1, worker-2 (nodes:, docs/cluster.md)");
    expect(both.out).toMatch(/^api +1\/1 +Running .* worker-1$/m);
    expect(both.out).toMatch(/^db +1\/1 +Running .* worker-2$/m);
    const r = run(file, { node: "worker-2", format: ["pods"] });
    expect(r.code).toBe(0);
    expect(r.err).toContain("note:   skipped Pod api (line 4): bound to node worker-1, not worker-2");
    expect(r.out).toMatch(/^# replay: kubelet-sim run \S+ --seed 1 --strategy fifo --node worker-2$/m);
    expect(r.out).toContain("PASS");
    expect(r.out).not.toContain("shop/api");
    expect(cli(["validate", file, "--node", "worker-1"]).code).toBe(0);
  });

  it("an exec probe folds like an httpGet probe; an exec postStart hook's line says it is a hook", () => {
    const file = write("exec.yaml", `apiVersion: v1
kind: Pod
metadata: { name: api }
spec:
  containers:
  - name: api
    image: python:3.12
    lifecycle:
      postStart:
        exec: { command: [sh, -c, "touch /tmp/ready"] }
    livenessProbe:
      exec: { command: [cat, /tmp/ready] }
      periodSeconds: 3
`);
    const r = run(file, { format: ["text"] });
    expect(r.code).toBe(0);
    const execLines = r.out.split("\n").filter((l) => l.includes("ExecSync"));
    expect(execLines).toHaveLength(1);
    expect(execLines[0]).toMatch(/CRI ExecSync api \(c-\d+\) in \d+ms: postStart hook \[sh -c touch \/tmp\/ready\]$/);
    expect(r.out.split("\n").filter((l) => l.includes("liveness probe of api: Success"))).toHaveLength(1);
    // Every probe run is still in the trace: `--verbosity all` shows it, named as a probe.
    const all = run(file, { format: ["text"], verbosity: "all" });
    expect(all.out.split("\n").filter((l) => /ExecSync .*: liveness probe \[cat \/tmp\/ready\]$/.test(l)).length).toBeGreaterThan(10);
  });
});
