// pkg/kubelet/runtime.go runtimeErrors: the health checks syncLoop asks before every iteration.
import { describe, expect, it } from "vitest";
import { RuntimeState } from "../../src/kubelet/runtime_state.ts";

describe("runtimeErrors", () => {
  it("is null while every check passes; one failure prints as itself, several as an aggregate", () => {
    const rs = new RuntimeState();
    let pleg = true;
    let evented = true;
    rs.addHealthCheck("PLEG", () => (pleg ? { ok: true, err: null } : { ok: false, err: new Error("pleg was last seen active 3m0s ago; threshold is 3m0s") }));
    rs.addHealthCheck("EventedPLEG", () => (evented ? { ok: true, err: null } : { ok: false, err: new Error("EventedPLEG: pleg event channel capacity is full with 1000 events") }));
    expect(rs.runtimeErrors()).toBeNull();
    pleg = false;
    expect(rs.runtimeErrors()!.message).toBe("PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s");
    evented = false;
    expect(rs.runtimeErrors()!.message).toBe(
      "[PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s, EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with 1000 events]",
    );
  });
});
