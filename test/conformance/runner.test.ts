import { join } from "node:path";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import {
  diffValues,
  equalish,
  kindOf,
  parseVectorFile,
  runVectorFile,
  summarize,
  VectorFileError,
} from "../../src/conformance/index.ts";
import { applyStatusText, defaultScene, SCENE_NOW_MS } from "../../src/conformance/status_scene.ts";
import { outcomeOf } from "../../src/conformance/prober_vectors.ts";

const DIR = join(import.meta.dirname, "..", "fixtures", "oracle");

function mutated(file: string, edit: (doc: { vectors: Record<string, unknown>[] }) => void) {
  const doc = parseYaml(readFileSync(join(DIR, file), "utf8")) as { meta: unknown; vectors: Record<string, unknown>[] };
  edit(doc);
  return runVectorFile({ path: file, kind: kindOf(String((doc.meta as { describes: string }).describes))!, describes: "", vectors: doc.vectors });
}

describe("diff", () => {
  it("treats null, [] and absent alike, and names the differing field", () => {
    expect(equalish(null, [])).toBe(true);
    expect(equalish({ a: null }, { a: [] })).toBe(true);
    expect(diffValues({ a: [1], b: { c: 2 } }, { a: [1], b: { c: 3 } })).toEqual(["b.c: expected 2, got 3"]);
    expect(diffValues({ x: [0, 2] }, { x: null })).toEqual(["x: expected [0,2], got null"]);
  });
});

describe("the runner catches wrong expectations", () => {
  it("a changed computePodActions expectation fails with a readable diff", () => {
    const res = mutated("compute_pod_actions.yaml", (d) => {
      (d.vectors[1]!["expected"] as Record<string, unknown>)["containersToStart"] = [0, 1];
    });
    const bad = res.results[1]!;
    expect(bad.passed).toBe(false);
    expect(bad.diffs).toEqual(["containersToStart: expected [0,1], got [1]"]);
    expect(summarize([res])).toEqual({ passed: res.results.length - 1, failed: 1, partial: 0, error: 0 });
  });

  it("containersToKill is compared as a set", () => {
    const res = mutated("compute_pod_actions.yaml", (d) => {
      const v = d.vectors.find((x) => x["name"] === "Kill and recreate the container if the liveness check has failed")!;
      (v["expected"] as Record<string, unknown>)["containersToKill"] = [
        { containerID: "id2", name: "foo2", specList: "containers", specIndex: 1 },
        { containerID: "id1", name: "foo1", specList: "containers", specIndex: 0 },
      ];
    });
    const bad = res.results.find((r) => r.name === "Kill and recreate the container if the liveness check has failed")!;
    expect(bad.diffs.join("\n")).toMatch(/containersToKill/);
  });

  it("a wrong backoff expectation names the step", () => {
    const res = mutated("backoff.yaml", (d) => {
      ((d.vectors[0]!["steps"] as Record<string, unknown>[])[2]!)["expect"] = 3;
    });
    expect(res.results[0]!.diffs).toEqual(["steps[2] (t=2 Get _idSlow): expected 3, got 1"]);
  });

  it("a wrong prober expectation names the field", () => {
    const res = mutated("prober_worker.yaml", (d) => {
      (d.vectors[2]!["expect"] as Record<string, unknown>)["result"] = "Failure";
    });
    expect(res.results[2]!.diffs).toEqual(['result: expected "Failure", got "Success"']);
  });

  it("a malformed vector is an error, alone", () => {
    const res = mutated("compute_pod_actions.yaml", (d) => {
      d.vectors[0]!["pod"] = "not a pod";
    });
    expect(res.results[0]!.verdict).toBe("error");
    expect(res.results[0]!.error).toMatch(/^malformed vector: pod/);
    expect(res.results.slice(1).every((r) => r.passed)).toBe(true);
  });

  it("a field no check reads makes the vector partial, never ok", () => {
    const res = mutated("backoff.yaml", (d) => {
      (d.vectors[0]! as Record<string, unknown>)["expectSomethingNew"] = 3;
      ((d.vectors[1]!["steps"] as Record<string, unknown>[])[0]!)["expectFoo"] = { bar: [1] };
    });
    expect(res.results[0]!.verdict).toBe("partial");
    expect(res.results[0]!.unread).toEqual(["expectSomethingNew"]);
    expect(res.results[1]!.unread).toEqual(["steps[0].expectFoo.bar[0]"]);
    expect(summarize([res]).partial).toBe(2);
  });

  it("prose fields need no reader", () => {
    const res = mutated("backoff.yaml", (d) => {
      (d.vectors[0]! as Record<string, unknown>)["notes"] = "anything";
      (d.vectors[0]! as Record<string, unknown>)["whyNote"] = "anything";
    });
    expect(res.results[0]!.verdict).toBe("ok");
  });
});

describe("loading", () => {
  it("dispatches on meta.describes", () => {
    expect(kindOf("kubelet kuberuntime computePodActions(pod, runtimePodStatus) -> podActions")).toBe("computePodActions");
    expect(kindOf("kubelet prober worker (pkg/kubelet/prober/worker.go doProbe)")).toBe("proberWorker");
    expect(kindOf("k8s.io/client-go/util/flowcontrol Backoff as used by the kubelet")).toBe("backoff");
    expect(kindOf("something else")).toBeUndefined();
  });
  it.each([
    ["not YAML", "a: [b", /not valid YAML/],
    ["no meta", "vectors: []", /not a vector file: meta/],
    ["unknown kind", "meta: {describes: pizza}\nvectors: []", /names nothing kubelet-sim can check/],
  ])("rejects %s", (_n, text, re) => {
    expect(() => parseVectorFile("x.yaml", text)).toThrow(VectorFileError);
    expect(() => parseVectorFile("x.yaml", text)).toThrow(re);
  });
});

describe("prober prose", () => {
  it.each([
    ["none (pod status not known to the status manager)", { hasStatus: false }],
    ["phase Failed, container running", { phase: "Failed", state: "running" }],
    ["container neither running nor terminated (State.Running=nil)", { state: "waiting" }],
    ["container terminated (State.Running=nil, State.Terminated set)", { state: "terminated" }],
    ["container running, started=false; pod has deletionTimestamp", { started: false, podDeleted: true, state: "running" }],
    ["phase Running; the only container status is for 'otherContainer'", { statusContainerName: "otherContainer", state: "running" }],
    ["same container, StartedAt 100s ago", { startedAtMs: SCENE_NOW_MS - 100_000 }],
    ["new container ID test://newCont_ID", { containerID: "test://newCont_ID" }],
    ["restartable init container terminated", { inInitStatuses: true, restartableInit: true, state: "terminated" }],
  ])("%s", (text, want) => {
    expect(applyStatusText(defaultScene("liveness"), text)).toMatchObject(want);
  });
  it("maps exec results as prober.probe does", () => {
    expect(["Success", "Warning", "Failure", "Unknown", "error", "bogus"].map(outcomeOf)).toEqual([
      "Success",
      "Success",
      "Failure",
      "Failure",
      "error",
      'unknown exec result "bogus"',
    ]);
  });
});
