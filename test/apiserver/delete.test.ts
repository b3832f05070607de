// rest.BeforeDelete and podStrategy.CheckGracefulDelete, table-driven.
import { describe, expect, it } from "vitest";
import { beforeDelete, checkGracefulDelete } from "../../src/apiserver/delete.ts";
import { formatRFC3339 } from "../../src/apiserver/index.ts";
import type { Pod } from "../../src/k8s/pod.ts";

function pod(meta: Partial<Pod["metadata"]> = {}, spec: Partial<Pod["spec"]> = {}, phase?: "Succeeded" | "Failed" | "Running"): Pod {
  return {
    metadata: { name: "web", namespace: "default", uid: "uid-a", resourceVersion: "7", ...meta },
    spec: { nodeName: "node-1", terminationGracePeriodSeconds: 30, containers: [{ name: "app" }], ...spec },
    ...(phase === undefined ? {} : { status: { phase } }),
  };
}

describe("CheckGracefulDelete", () => {
  it.each([
    ["the request's grace", pod(), 10, 10],
    ["the pod's terminationGracePeriodSeconds when unset", pod(), undefined, 30],
    ["0 for an unscheduled pod", pod({}, { nodeName: "" }), 10, 0],
    ["0 for a Succeeded pod", pod({}, {}, "Succeeded"), 10, 0],
    ["0 for a Failed pod", pod({}, {}, "Failed"), undefined, 0],
    ["1 for a negative grace", pod(), -5, 1],
    ["0 without any grace at all", pod({}, { terminationGracePeriodSeconds: null }), undefined, 0],
  ])("uses %s", (_what, p, grace, want) => {
    expect(checkGracefulDelete(p, grace === undefined ? {} : { gracePeriodSeconds: grace })).toBe(want);
  });
});

describe("BeforeDelete", () => {
  const now = 100_000;
  const deleting = (grace: number | null, atMs = 130_000) => pod({ deletionTimestamp: formatRFC3339(atMs), deletionGracePeriodSeconds: grace });

  it("a first delete sets deletionTimestamp = now + grace and the grace", () => {
    expect(beforeDelete(pod(), {}, now)).toEqual({
      kind: "graceful", deletionTimestamp: formatRFC3339(130_000), deletionGracePeriodSeconds: 30, deleteNow: false,
    });
  });

  it("grace 0 (force delete) marks and removes at once", () => {
    expect(beforeDelete(pod(), { gracePeriodSeconds: 0 }, now)).toMatchObject({ kind: "graceful", deletionGracePeriodSeconds: 0, deleteNow: true });
  });

  it("a second delete may only shorten the grace, moving the timestamp back by the difference", () => {
    expect(beforeDelete(deleting(30), { gracePeriodSeconds: 10 }, 105_000)).toEqual({
      kind: "graceful", deletionTimestamp: formatRFC3339(110_000), deletionGracePeriodSeconds: 10, deleteNow: false,
    });
  });

  it.each([
    ["a longer grace", { gracePeriodSeconds: 60 }],
    ["an equal grace", { gracePeriodSeconds: 30 }],
    ["no grace", {}],
  ])("a second delete with %s changes nothing (gracefulPending)", (_w, opts) => {
    expect(beforeDelete(deleting(30), opts, now)).toEqual({ kind: "pending" });
  });

  it("a second delete with grace 0 shortens to 0 and deletes now", () => {
    expect(beforeDelete(deleting(30), { gracePeriodSeconds: 0 }, now)).toMatchObject({ kind: "graceful", deletionGracePeriodSeconds: 0, deleteNow: true });
  });

  it.each([[0], [null]])("an object already marked with grace %s is deleted now", (g) => {
    expect(beforeDelete(deleting(g), {}, now)).toEqual({ kind: "now" });
  });

  it("a UID precondition that does not match is a 409 Conflict with upstream's message", () => {
    const d = beforeDelete(pod(), { gracePeriodSeconds: 0, preconditions: { uid: "uid-b" } }, now);
    expect(d.kind).toBe("error");
    if (d.kind !== "error") return;
    expect(d.err.code).toBe(409);
    expect(d.err.reason).toBe("Conflict");
    expect(d.err.message).toBe(
      'Operation cannot be fulfilled on Pod "web": the UID in the precondition (uid-b) does not match the UID in record (uid-a). The object might have been deleted and then recreated',
    );
  });

  it("a resourceVersion precondition that does not match is a 409 Conflict", () => {
    const d = beforeDelete(pod(), { preconditions: { resourceVersion: "6" } }, now);
    expect(d.kind === "error" && d.err.message.includes("the ResourceVersion in the precondition (6) does not match the ResourceVersion in record (7)")).toBe(true);
  });

  it("a matching UID precondition passes", () => {
    expect(beforeDelete(pod(), { gracePeriodSeconds: 0, preconditions: { uid: "uid-a" } }, now).kind).toBe("graceful");
  });
});
