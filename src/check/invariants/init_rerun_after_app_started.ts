// Invariant init-rerun-after-app-started: once a regular container of a pod has started in a
// sandbox, no (regular, non-sidecar) init container of that pod starts again in that sandbox.
// Source: race R21 (#62362, #90271; fixed by PR #96572, "do not rerun init containers if any main
// containers have status"): before it, the garbage collection of an exited init container made
// findNextInitContainerToRun take init for "never ran" and start it next to the running app.
// Simplification: the runtime's records do not name a container's sandbox, so a container is
// attributed to the newest sandbox RunPodSandbox created for its pod key; a new sandbox starts
// the pod over (init containers rightly run again in it).
import type { TraceRecord } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { callStartMs, isOkCall, podSpecsByRuntimeKey, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "init-rerun-after-app-started";

interface SandboxState {
  sandboxId: string;
  /** The first regular container started in this sandbox, and when. */
  appStarted: { name: string; atMs: number } | null;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  RunPodSandbox: ["pod", "result", "newId"],
  StartContainer: ["pod", "result", "container", "tookMs"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** Pod key → its newest sandbox and whether a regular container started in it. */
  private readonly sandboxes = new Map<string, SandboxState>();

  constructor(private readonly specs: Map<string, Pod>) {}

  observe(rec: TraceRecord): Violation | null {
    if (rec.component !== "runtime" || typeof rec.pod !== "string") return null;
    const spec = this.specs.get(rec.pod);
    if (spec === undefined) return null;
    if (isOkCall(rec, "RunPodSandbox")) {
      this.sandboxes.set(rec.pod, { sandboxId: String(rec.newId), appStarted: null });
      return null;
    }
    if (!isOkCall(rec, "StartContainer")) return null;
    const sb = this.sandboxes.get(rec.pod);
    if (sb === undefined) return null;
    const name = String(rec.container);
    if (spec.spec.containers.some((c) => c.name === name)) {
      sb.appStarted ??= { name, atMs: callStartMs(rec) };
      return null;
    }
    if (!isRegularInit(spec, name) || sb.appStarted === null) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod: rec.pod,
      message:
        `init container ${name} started again at ${callStartMs(rec)}ms in sandbox ${sb.sandboxId}, ` +
        `where container ${sb.appStarted.name} had already started at ${sb.appStarted.atMs}ms`,
    };
  }
}

/** An init container that runs to completion (sidecars, restartPolicy Always, restart by design). */
function isRegularInit(pod: Pod, name: string): boolean {
  return (pod.spec.initContainers ?? []).some((c) => c.name === name && c.restartPolicy !== "Always");
}

export const initRerunAfterAppStarted: InvariantInfo = {
  id: ID,
  statement: "Once a regular container of a pod has started in a sandbox, no init container of that pod starts again in that sandbox (sidecars excepted).",
  source: "race R21 (kubernetes issues #62362, #90271; PR #96572)",
  make: (scenario: Scenario) => new Monitor(podSpecsByRuntimeKey(scenario)),
};
