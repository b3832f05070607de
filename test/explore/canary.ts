// A planted bug for the exploration tests: a test-only invariant that the kubelet model breaks only
// under particular interleavings of test/explore/fixtures/two-pods.yaml. "The status manager writes
// pods' statuses in the order their pod workers began syncing": when b's worker begins first, the
// first status patch must be b's. Under fifo a's worker begins first, so fifo never breaks it;
// about one random schedule in fifteen does (b's worker first, a's status first).
import type { TraceRecord } from "../../src/sim/index.ts";
import type { InvariantInfo, InvariantMonitor, Violation } from "../../src/check/invariants.ts";

export const CANARY_ID = "canary-status-order-follows-sync-order";

class Canary implements InvariantMonitor {
  readonly id = CANARY_ID;
  private syncFirst: string | null = null;
  private patchFirst: string | null = null;

  observe(rec: TraceRecord): Violation | null {
    if (typeof rec.pod !== "string") return null;
    if (rec.component === "podworker" && rec.kind === "SyncBegin") this.syncFirst ??= rec.pod;
    if (rec.component !== "status" || rec.kind !== "PatchStatus" || this.patchFirst !== null) return null;
    this.patchFirst = rec.pod;
    if (this.syncFirst === "default/b" && this.patchFirst === "default/a") {
      return { invariant: CANARY_ID, t: rec.t, pod: rec.pod, message: "b's pod worker began first, but a's status was patched first" };
    }
    return null;
  }
}

export const canaryInvariant: InvariantInfo = {
  id: CANARY_ID,
  statement: "Status patches follow the order in which pod workers began syncing (a planted bug, tests only).",
  source: "test/explore/canary.ts",
  make: () => new Canary(),
};

export const TWO_PODS = "test/explore/fixtures/two-pods.yaml";
