// The taint eviction controller's decision (processPodOnNode): which pods go, and when.
import { describe, expect, it } from "vitest";
import { evictionDecision, noExecuteTaints } from "../../src/controllers/taint_eviction.ts";
import type { Toleration } from "../../src/k8s/node.ts";
import type { NodeTaint } from "../../src/k8s/node_api.ts";
import { defaultTolerationSeconds, DEFAULT_UNREACHABLE_TOLERATION_SECONDS } from "../../src/apiserver/admission/default_toleration_seconds.ts";
import type { Pod } from "../../src/k8s/pod.ts";

const unreachable: NodeTaint = { key: "node.kubernetes.io/unreachable", effect: "NoExecute" };
const outOfService: NodeTaint = { key: "node.kubernetes.io/out-of-service", value: "nodeshutdown", effect: "NoExecute" };
const tol = (key: string, seconds?: number): Toleration => ({ key, operator: "Exists", effect: "NoExecute", ...(seconds === undefined ? {} : { tolerationSeconds: seconds }) });

describe("evictionDecision", () => {
  it.each<[string, NodeTaint[], Toleration[], ReturnType<typeof evictionDecision>]>([
    ["no taints: cancel", [], [tol("x", 5)], { kind: "cancel" }],
    ["an untolerated taint: now", [unreachable], [], { kind: "now" }],
    ["tolerated for 300 s: after 300 s", [unreachable], [tol(unreachable.key, 300)], { kind: "after", afterMs: 300_000 }],
    ["tolerated forever: cancel", [unreachable], [tol(unreachable.key)], { kind: "cancel" }],
    ["two taints, the least tolerationSeconds wins", [unreachable, { key: "b", effect: "NoExecute" }], [tol(unreachable.key, 300), tol("b", 60)], { kind: "after", afterMs: 60_000 }],
    ["one of two untolerated: now", [unreachable, outOfService], [tol(unreachable.key, 300)], { kind: "now" }],
    ["negative tolerationSeconds counts as 0", [unreachable], [tol(unreachable.key, -5)], { kind: "after", afterMs: 0 }],
    ["an empty key with Exists tolerates everything", [unreachable, outOfService], [{ operator: "Exists" }], { kind: "cancel" }],
  ])("%s", (_what, taints, tols, want) => {
    expect(evictionDecision(taints, tols)).toEqual(want);
  });

  it("reads only NoExecute taints", () => {
    expect(noExecuteTaints([{ key: "a", effect: "NoSchedule" }, unreachable])).toEqual([unreachable]);
  });
});

describe("DefaultTolerationSeconds", () => {
  const pod = (tolerations?: Toleration[]): Pod => ({ metadata: { name: "p" }, spec: { containers: [], ...(tolerations === undefined ? {} : { tolerations }) } }) as unknown as Pod;
  it.each<[string, Toleration[] | undefined, string[]]>([
    ["none: both added", undefined, ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"]],
    ["not-ready tolerated: unreachable added", [tol("node.kubernetes.io/not-ready", 10)], ["node.kubernetes.io/unreachable"]],
    ["an empty-key toleration tolerates both: none added", [{ operator: "Exists" }], []],
    ["a NoSchedule toleration does not count", [{ key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoSchedule" }], ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"]],
  ])("%s", (_what, tols, added) => {
    const before = tols?.length ?? 0;
    const out = defaultTolerationSeconds(pod(tols)).spec.tolerations ?? [];
    expect(out.slice(before).map((t) => t.key)).toEqual(added);
    for (const t of out.slice(before)) expect([t.operator, t.effect, t.tolerationSeconds]).toEqual(["Exists", "NoExecute", DEFAULT_UNREACHABLE_TOLERATION_SECONDS]);
  });
});
