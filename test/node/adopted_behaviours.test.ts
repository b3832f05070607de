import { describe, expect, it } from "vitest";
import { Sim } from "../../src/sim/index.ts";
import { RuntimeCore } from "../../src/cri/core.ts";
import { DEFAULT_RUNTIME_OPTIONS, resolveRuntimeConfig } from "../../src/cri/config.ts";
import { DEFAULT_PROGRAM, program } from "../../src/cri/program.ts";
import { AdoptedBehaviours } from "../../src/node/adopted_behaviours.ts";

const crashing = [program({ run: { kind: "exit", afterMs: 1000, code: 1 } })];
const slow = [program({ run: { kind: "exit", afterMs: 9000, code: 0 } })];

function core(templates?: AdoptedBehaviours): RuntimeCore {
  const sim = new Sim({ seed: 1, strategy: { name: "fifo" } });
  return new RuntimeCore(sim, resolveRuntimeConfig({}), { ...DEFAULT_RUNTIME_OPTIONS, ...(templates === undefined ? {} : { templates }) });
}

describe("the cluster's adopted behaviours, read by every node's runtime", () => {
  it("a replica runs its template's programs on every node that knows the template, from one table", () => {
    const table = new AdoptedBehaviours();
    const nodes = [core(table), core(table)];
    for (const n of nodes) n.setBehaviour("default/web", "app", crashing);
    table.adopt("default/web", "default/web-abcde");
    for (const n of nodes) {
      expect(n.behaviourFor("default/web-abcde", "app")).toBe(crashing);
      // A container the template does not script, and a pod adopted by no one: the default.
      expect(n.behaviourFor("default/web-abcde", "sidecar")).toEqual([DEFAULT_PROGRAM]);
      expect(n.behaviourFor("default/other", "app")).toEqual([DEFAULT_PROGRAM]);
    }
  });

  it("an adoption overrides the pod's own programs, the latest adoption first, as copying them over did", () => {
    const table = new AdoptedBehaviours();
    const rt = core(table);
    rt.setBehaviour("default/a", "app", crashing);
    rt.setBehaviour("default/b", "app", slow);
    rt.setBehaviour("default/b", "side", crashing);
    rt.setBehaviour("default/p", "own", slow);
    table.adopt("default/b", "default/p");
    table.adopt("default/a", "default/p");
    expect(rt.behaviourFor("default/p", "app")).toBe(crashing); // a, adopted last
    expect(rt.behaviourFor("default/p", "side")).toBe(crashing); // only b scripts it
    expect(rt.behaviourFor("default/p", "own")).toBe(slow); // no template scripts it: the pod's own
    table.adopt("default/p", "default/p"); // a pod is never its own template
    expect(table.templatesOf("default/p")).toEqual(["default/b", "default/a"]);
  });

  it("a runtime without a table reads only its own programs (one node)", () => {
    const rt = core();
    rt.setBehaviour("default/web", "app", crashing);
    expect(rt.behaviourFor("default/web", "app")).toBe(crashing);
    expect(rt.behaviourFor("default/web-abcde", "app")).toEqual([DEFAULT_PROGRAM]);
  });
});
