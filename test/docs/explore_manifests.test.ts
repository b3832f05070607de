// The two engines docs/exploring.md shows running exploration shards: a Kubernetes Indexed Job
// (examples/explore/indexed-job.yaml) and a CI matrix (examples/explore/github-actions-matrix.yml).
// There is no cluster here, so the Job's shape is checked against a schema of the fields it uses
// (JobSpec field names strictly, the pod template with the project's Pod schema) and its shell
// scripts with `sh -n`; the shard arithmetic must cover shards 1..n of n.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments, parse } from "yaml";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { podSchema } from "../../src/k8s/pod_schema.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const JOB = join(ROOT, "examples/explore/indexed-job.yaml");
const MATRIX = join(ROOT, "examples/explore/github-actions-matrix.yml");

const dnsLabel = z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/).max(63);
const metadata = z.object({ name: dnsLabel, labels: z.record(z.string(), z.string()).optional() }).strict();
/** batch/v1 JobSpec: every field name Kubernetes knows (so a typo fails), the used ones typed. */
const jobSpec = z.object({
  activeDeadlineSeconds: z.number().int().positive().optional(),
  backoffLimit: z.number().int().min(0).optional(),
  backoffLimitPerIndex: z.number().int().min(0).optional(),
  completionMode: z.enum(["NonIndexed", "Indexed"]).optional(),
  completions: z.number().int().positive().optional(),
  managedBy: z.string().optional(),
  manualSelector: z.boolean().optional(),
  maxFailedIndexes: z.number().int().optional(),
  parallelism: z.number().int().positive().optional(),
  podFailurePolicy: z.unknown().optional(),
  podReplacementPolicy: z.enum(["TerminatingOrFailed", "Failed"]).optional(),
  selector: z.unknown().optional(),
  successPolicy: z.unknown().optional(),
  suspend: z.boolean().optional(),
  ttlSecondsAfterFinished: z.number().int().min(0).optional(),
  template: z.object({
    metadata: z.object({ labels: z.record(z.string(), z.string()) }).strict().optional(),
    spec: z.looseObject({ restartPolicy: z.enum(["Never", "OnFailure"]) }),
  }).strict(),
}).strict();
const job = z.object({ apiVersion: z.literal("batch/v1"), kind: z.literal("Job"), metadata, spec: jobSpec }).strict();
const pvc = z.object({
  apiVersion: z.literal("v1"),
  kind: z.literal("PersistentVolumeClaim"),
  metadata,
  spec: z.object({ accessModes: z.array(z.enum(["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"])), resources: z.object({ requests: z.object({ storage: z.string() }) }) }).strict(),
}).strict();

type Job = z.output<typeof job>;
interface Container { name: string; image: string; command?: string[]; args?: string[]; volumeMounts?: { name: string; mountPath: string }[] }
interface PodSpec { containers: Container[]; volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[] }

function docs(): unknown[] {
  const all = parseAllDocuments(readFileSync(JOB, "utf8"));
  for (const d of all) expect(d.errors).toEqual([]);
  return all.map((d) => d.toJSON());
}

/** The pod template's spec, checked as the spec of a Pod by the project's Pod schema, with its references resolved. */
function podSpec(j: Job, claim: string): PodSpec {
  expect(podSchema.safeParse({ apiVersion: "v1", kind: "Pod", metadata: { name: "template" }, spec: j.spec.template.spec }).success).toBe(true);
  const spec = j.spec.template.spec as unknown as PodSpec;
  for (const c of spec.containers) {
    expect(c.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    for (const m of c.volumeMounts ?? []) expect(spec.volumes?.map((v) => v.name)).toContain(m.name);
  }
  for (const v of spec.volumes ?? []) expect(v.persistentVolumeClaim?.claimName).toBe(claim);
  return spec;
}

/** `sh -n`: the script parses. */
function shellParses(script: string): void {
  const r = spawnSync("sh", ["-n", "-c", script], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
}

describe("the Indexed Job of examples/explore", () => {
  it("is a PVC, an Indexed Job of n shards and a merge Job, each of a valid shape", () => {
    const [claim, explore, merge] = docs();
    const c = pvc.parse(claim);
    const j = job.parse(explore);
    const m = job.parse(merge);
    expect(j.spec.completionMode).toBe("Indexed");
    const n = j.spec.completions!;
    expect(j.spec.parallelism).toBe(n);
    const script = podSpec(j, c.metadata.name).containers[0]!.args![0]!;
    shellParses(script);
    // Shard i/n from JOB_COMPLETION_INDEX (0..n-1), one --out folder per shard on the shared volume.
    expect(script).toContain("SHARD=$((JOB_COMPLETION_INDEX + 1))");
    expect(script).toContain(`--shard "$SHARD/${n}"`);
    expect(script).toContain('--out "/results/shard-$SHARD"');
    const mergeScript = podSpec(m, c.metadata.name).containers[0]!.args![0]!;
    shellParses(mergeScript);
    expect(mergeScript).toContain(`merge ${Array.from({ length: n }, (_, i) => `/results/shard-${i + 1}`).join(" ")}`);
  });

  it("names a bundled scenario, and a finding (exit 1) does not fail the pod", () => {
    const j = job.parse(docs()[1]);
    const script = (j.spec.template.spec as unknown as PodSpec).containers[0]!.args![0]!;
    const scenario = /explore (\S+\.yaml)/.exec(script)![1]!;
    expect(() => readFileSync(join(ROOT, scenario))).not.toThrow();
    for (const code of [0, 1, 2, 3]) {
      const r = spawnSync("sh", ["-c", script.replace(/node bin\/kubelet-sim\.mjs explore[^;]*;/, `(exit ${code});`)]);
      expect(r.status === 0, `exit ${code}`).toBe(code <= 1);
    }
  });
});

describe("the CI matrix of examples/explore", () => {
  it("runs shards 1..n of n, one artifact each, and merges them all", () => {
    const wf = parse(readFileSync(MATRIX, "utf8")) as { jobs: { shard: { strategy: { matrix: { shard: number[] } }; steps: { run?: string }[] }; merge: { needs: string; steps: { run?: string }[] } } };
    const shards = wf.jobs.shard.strategy.matrix.shard;
    const n = shards.length;
    expect(shards).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const explore = wf.jobs.shard.steps.map((s) => s.run ?? "").find((r) => r.includes(" explore "))!;
    expect(explore).toContain(`--shard \${{ matrix.shard }}/${n}`);
    expect(explore).toContain("--out shards/shard-${{ matrix.shard }}");
    expect(wf.jobs.merge.needs).toBe("shard");
    const merge = wf.jobs.merge.steps.map((s) => s.run ?? "").find((r) => r.includes(" merge "))!;
    expect(merge).toContain(`merge ${shards.map((i) => `shards/shard-${i}`).join(" ")}`);
  });

  it("is what docs/exploring.md shows", () => {
    const doc = readFileSync(join(ROOT, "docs/exploring.md"), "utf8");
    expect(doc).toContain("examples/explore/indexed-job.yaml");
    expect(doc).toContain("examples/explore/github-actions-matrix.yml");
  });
});
