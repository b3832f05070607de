// Monitors from outside the registry (extraInvariants) run beside the Checker: the record kinds
// they declare, in either form, are what exploration builds for them; one that declares nothing
// has every record built.
import { describe, expect, it } from "vitest";
import { ExtraMonitors } from "../../src/explore/context.ts";
import type { InvariantMonitor } from "../../src/check/invariants.ts";

const m = (id: string, decl: Partial<Pick<InvariantMonitor, "reads" | "kinds">>): InvariantMonitor => ({ id, observe: () => null, ...decl });

describe("ExtraMonitors", () => {
  it("reads the kinds its monitors declare, as reads or as kinds", () => {
    expect([...new ExtraMonitors([m("a", { reads: { A: ["x"] } }), m("b", { kinds: ["B"] })]).kinds!].sort()).toEqual(["A", "B"]);
  });
  it("reads every kind when one monitor declares nothing", () => {
    expect(new ExtraMonitors([m("a", { reads: { A: [] } }), m("all", {})]).kinds).toBeUndefined();
  });
});
