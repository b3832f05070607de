// A value sent on a channel, in a learner's words: read by shape, table-driven.
import { describe, expect, it } from "vitest";
import { describeValue } from "../../src/play/values.ts";
import { stepWords } from "../../src/play/steps.ts";

const pod = { metadata: { name: "web", namespace: "default" } };

describe("describeValue", () => {
  it.each([
    [{ UpdateType: "kill", Pod: pod }, "UpdatePod(kill) for default/web"],
    [{ ID: "541f735e-b86d-4869", Type: "ContainerDied", Data: "c-2" }, "the PLEG event ContainerDied for pod 541f735e"],
    [{ Op: "DELETE", Pods: [pod], Source: "api" }, "DELETE of default/web from api"],
    [{ type: "MODIFIED", object: pod }, "a watch event MODIFIED for default/web"],
    [{ podUID: "abcdef0123", status: {} }, "a status update for pod abcdef01"],
    [{ ContainerID: "containerd://c-1", Result: "Failure", PodUID: "x" }, "the probe result Failure for container containerd:/"],
    [{ imageRef: "example/a:1", err: null, pullDurationMs: 1 }, "the pulled image example/a:1"],
    [true, "a signal"],
    [null, "a signal"],
    ["go", '"go"'],
    [{ other: 1 }, "a value"],
  ])("%j → %s", (value, words) => {
    expect(describeValue(value)).toBe(words);
  });
});

describe("stepWords", () => {
  it("lists the phrases in order, at most four, then how the step ended", () => {
    expect(stepWords(["a", "b"], "then exits")).toBe("a; b; then exits");
    expect(stepWords(["1", "2", "3", "4", "5", "6"], "")).toBe("1; 2; 3; 4; and 2 more");
    expect(stepWords([], "")).toBe("records nothing and lets another goroutine run");
  });
});
