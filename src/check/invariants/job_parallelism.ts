// Invariant job-running-at-most-parallelism: a Job never has more than spec.parallelism pods running
// at once in the cluster. Source: the Job docs ("Delayed creation of replacement pods": "when some of
// the Pods are terminating, the number of running Pods for the Jobs can be greater than
// parallelism"), issue #115844 ("Jobs create replacement Pods as soon as a Pod is marked for
// deletion"), KEP-3939 (podReplacementPolicy: Failed) and pkg/controller/job/job_controller.go
// (manageJob's `diff := wantActive - terminating - active`). Race R27.
//
// "Running" is what the runtimes say: a pod runs while a container of it started (the CRI
// StartContainer that succeeded) and has not exited, on whichever node. A Job's pods are the
// entry's pod and the pods named <job>-<5 characters> (its controller's generateName).
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";
import { RuntimeContainers } from "./runtime_containers.ts";

const ID = "job-running-at-most-parallelism";

interface JobInfo {
  key: string;
  parallelism: number;
  matches: (pod: string) => boolean;
}

/** The Jobs of a scenario's workload entries, with how to tell their pods. */
export function jobsOf(scenario: Scenario): JobInfo[] {
  const out: JobInfo[] = [];
  for (const p of scenario.pods) {
    if (p.job === undefined) continue;
    const ref = p.manifest.metadata.ownerReferences?.find((r) => r.controller === true);
    const name = ref?.kind === "Job" ? ref.name : p.name;
    const generated = new RegExp(`^${p.namespace.replace(/[.]/g, "\\.")}/${name.replace(/[.]/g, "\\.")}-[a-z0-9]{5}$`);
    out.push({ key: `${p.namespace}/${name}`, parallelism: p.job.parallelism, matches: (pod) => pod === p.key || generated.test(pod) });
  }
  return out;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts); one object for every run, so the dispatch table compiled from it is kept. */
const READS: RecordReads = {
  StartContainer: ["pod", "id", "result", "node", "container"],
  ContainerExited: ["pod", "id", "node"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads: RecordReads = READS;
  /** The Jobs' running containers. */
  private readonly containers = new RuntimeContainers();

  constructor(private readonly jobs: readonly JobInfo[]) {}

  observe(rec: TraceRecord): Violation | null {
    if (this.jobs.length === 0) return null;
    const started = this.containers.follow(rec);
    if (started === null) return null;
    const job = this.jobs.find((j) => j.matches(started.pod));
    if (job === undefined) return null;
    this.containers.keep(started);
    const pods = new Map<string, { node: string; id: string; container: string; startedAtMs: number }>();
    for (const c of this.containers.running.values()) if (job.matches(c.pod) && !pods.has(c.pod)) pods.set(c.pod, c);
    if (pods.size <= job.parallelism) return null;
    const list = [...pods].map(([pod, c]) => `${pod}${c.node === "" ? "" : ` on ${c.node}`} (container ${c.container} ${c.id} started at ${c.startedAtMs}ms)`).join(", ");
    return {
      invariant: ID,
      t: rec.t,
      pod: started.pod,
      message: `Job ${job.key} (parallelism ${job.parallelism}) runs ${pods.size} pods at once: ${list}`,
    };
  }
}

export const jobRunningAtMostParallelism: InvariantInfo = {
  id: ID,
  statement: "A Job never has more than spec.parallelism pods running at once in the cluster (a pod runs while a container of it runs).",
  source: "Job docs, Delayed creation of replacement pods; issue #115844; KEP-3939; pkg/controller/job/job_controller.go manageJob; race R27",
  make: (scenario) => new Monitor(jobsOf(scenario)),
};
