// Invariant never-policy-created-twice: the kubelet creates a container of a restartPolicy Never pod
// at most once per pod UID and sandbox, without a kubelet restart in between. Source:
// pkg/kubelet/container/helpers.go ShouldContainerBeRestarted (Never: "Already ran container, do
// nothing") and race R07 (#23636, "Kubelet sometimes creates a second container when it
// shouldn't"). It counts CreateContainer, not starts: in R07 neither container ever runs (each
// start fails), so never-policy-runs-twice cannot see it.
//
// Read from the runtime's records: CreateContainer (ok) per pod key and container name, attributed
// to the API UID the pod key has (PodView records, as RuntimeContainers does). A new sandbox of the
// pod (RunPodSandbox ok) or a kubelet start begins a new count: a Never pod whose sandbox died may
// legitimately get its containers again only through a new sandbox, and a restarted kubelet has
// lost what it knew (races R14/R22 are about that, with their own checks). Sidecars are exempt.
import type { TraceRecord } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { podSpecsByRuntimeKey, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "never-policy-created-twice";

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  KubeletStart: [],
  PodView: ["pod", "deleted", "uid"],
  RunPodSandbox: ["pod", "result"],
  CreateContainer: ["pod", "result", "container", "newId"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  private readonly uidByPod = new Map<string, string>();
  /** "pod|uid|container" → the first container's ID, since the pod's last sandbox or kubelet start. */
  private readonly created = new Map<string, string>();

  constructor(private readonly specs: Map<string, Pod>) {}

  observe(rec: TraceRecord): Violation | null {
    if (rec.component === "kubelet" && rec.kind === "KubeletStart") {
      this.created.clear();
      return null;
    }
    if (typeof rec.pod !== "string") return null;
    if (rec.component === "apiserver" && rec.kind === "PodView" && rec.deleted !== true && typeof rec.uid === "string") {
      this.uidByPod.set(rec.pod, rec.uid);
      return null;
    }
    if (rec.component !== "runtime" || rec.result !== "ok") return null;
    if (rec.kind === "RunPodSandbox") {
      this.forgetPod(rec.pod);
      return null;
    }
    if (rec.kind !== "CreateContainer" || typeof rec.container !== "string") return null;
    if (!createdOnce(this.specs.get(rec.pod), rec.container)) return null;
    const key = `${rec.pod}|${this.uidByPod.get(rec.pod) ?? ""}|${rec.container}`;
    const first = this.created.get(key);
    const id = String(rec.newId ?? "");
    if (first === undefined) {
      this.created.set(key, id);
      return null;
    }
    return {
      invariant: ID,
      t: rec.t,
      pod: rec.pod,
      message: `a second container ${rec.container} (${id}) was created for a restartPolicy Never pod in the same sandbox; the first was ${first}`,
    };
  }

  private forgetPod(pod: string): void {
    for (const key of [...this.created.keys()]) if (key.startsWith(`${pod}|`)) this.created.delete(key);
  }
}

function createdOnce(spec: Pod | undefined, container: string): boolean {
  if (spec === undefined || spec.spec.restartPolicy !== "Never") return false;
  return !(spec.spec.initContainers ?? []).some((c) => c.name === container && c.restartPolicy === "Always");
}

export const neverPolicyCreatedTwice: InvariantInfo = {
  id: ID,
  statement:
    "The kubelet creates each container of a restartPolicy Never pod at most once per pod UID and sandbox, without a kubelet restart in between (sidecars excepted).",
  source: "pkg/kubelet/container/helpers.go ShouldContainerBeRestarted; race R07 (#23636)",
  make: (scenario: Scenario) => new Monitor(podSpecsByRuntimeKey(scenario)),
};
