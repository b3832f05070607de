// The Mermaid diagrams draw steps when they happened and who made them: a call's arrow at its
// start (its record is written when it returns), long calls as activations, a container's exit as
// the runtime's own note, a call made outside the kubelet from the outside actor, the violation as
// a note over the records it names, and what the message names but no arrow draws (the relist
// that saw nothing) as a note. Then, over every race of the catalog, the full and the narrowed
// diagrams of the buggy run parse, keep their activations balanced and end in the violation.
import { describe, expect, it } from "vitest";
import { render, type KernelView } from "../../src/report/index.ts";
import { renderNarrowMermaid } from "../../src/report/mermaid_narrow.ts";
import { narrowedBlock, raceDiagram } from "../../src/races/diagrams.ts";
import { trace } from "./fixture.ts";
import { grammarProblems } from "./mermaid_grammar.ts";
import { RACES, raceRun } from "./timeline_fixture.ts";

const pod = "default/web";
const body = (s: string) => s.split("\n").filter((l) => !/^(sequenceDiagram|    (participant|actor|%%) )/.test(l) && l !== "");

describe("Mermaid: when and who", () => {
  const records = trace([
    [0, "sim", "run", { scenario: "x", seed: 1, strategy: "fifo", version: "0" }],
    [10_000, "apiserver", "Delete", { actor: "user", pod, gracePeriodSeconds: null, result: "ok" }],
    [40_500, "runtime", "PullImage", { pod, image: "big:1", tookMs: 40_000, result: "ok" }],
    [40_600, "runtime", "CreateContainer", { pod, container: "app", tookMs: 100, result: "ok" }],
    [41_000, "runtime", "ContainerExited", { pod, container: "app", id: "c-1", exitCode: 0 }],
    [42_000, "runtime", "RemoveContainer", { pod, container: "app", id: "c-1", tookMs: 50, result: "ok" }],
    [43_000, "pleg", "relist", { durationMs: 4, pods: 0, events: 0 }],
    [43_000, "check", "InvariantViolated", { invariant: "x-missed", pod, message: "container app (c-1) exited at 41000ms; the relist that began at 42996ms reported no event" }],
  ]);
  /** The kernel's view: the RemoveContainer (seq 5) was made by a goroutine outside the kubelet. */
  const kernel: KernelView = {
    procs: [
      { id: 1, name: "podworker/default/web", group: "kubelet", daemon: true, parent: null, startMs: 0, endMs: null, end: null },
      { id: 2, name: "scenario/timeline", group: "", daemon: false, parent: null, startMs: 0, endMs: null, end: null },
    ],
    recordProc: [0, 2, 1, 1, 0, 2, 1, 1],
    calls: [], activities: [], handoffs: [], choices: [], dropped: 0,
  };
  const lines = body(render("mermaid", records, {}, kernel));

  it("draws a call where it began, a long one as an activation closed when it returned", () => {
    expect(lines.slice(0, 4)).toEqual([
      "    kuberuntime->>+runtime: PullImage big:1",
      "    user->>apiserver: DELETE web",
      "    runtime-->>-kuberuntime: PullImage big:1 returns after 40.0s",
      "    kuberuntime->>runtime: CreateContainer app",
    ]);
  });

  it("draws a container's exit as the runtime's note and an outside call from the outside actor", () => {
    expect(lines).toContain("    Note over runtime: ⚠ app exited (code 0)");
    expect(lines.some((l) => /->>pleg|pleg: app exited/.test(l))).toBe(false);
    expect(lines).toContain("    user->>runtime: RemoveContainer app (not the kubelet)");
    expect(render("mermaid", records, {}, kernel)).toContain("    actor user\n");
  });

  it("draws the record the message names that no arrow draws, and the violation over the two", () => {
    expect(lines.slice(-2)).toEqual([
      "    Note over pleg: ⚠ relist: 0 pod(s), 0 event(s)",
      "    Note over runtime,pleg: ❌ x-missed violated: container app (c-1) exited at 41000ms#59; the relist that began at 42996ms reported no event",
    ]);
    expect(grammarProblems(render("mermaid", records, {}, kernel))).toEqual([]);
  });

  it("without the kernel's view, every CRI call is the kubelet's", () => {
    expect(render("mermaid", records)).toContain("kuberuntime->>runtime: RemoveContainer app\n");
  });
});

describe.each(RACES.map((r) => [r.id, r] as const))("the diagrams of race %s", (_id, race) => {
  it("full diagrams parse, with balanced activations, on both sides", () => {
    for (const side of ["buggy", "fixed"] as const) {
      const diagram = raceDiagram(race, side).replace(/^```mermaid\n/, "").replace(/```$/, "");
      expect(grammarProblems(diagram), side).toEqual([]);
    }
  });

  it("the narrowed diagram: a few goroutines, the records the violation names, the violation last", () => {
    const diagram = renderNarrowMermaid(raceRun(race), { invariant: race.invariant, pod: race.pod, fromMs: race.diagramFromMs ?? 0, ...(race.actors === undefined ? {} : { actors: race.actors }) });
    const participants = diagram.split("\n").filter((l) => /^ {4}(participant|actor) a\d+ as /.test(l));
    expect(participants.length).toBeGreaterThanOrEqual(1);
    expect(participants.length).toBeLessThanOrEqual(4);
    expect(grammarProblems(diagram.replace(/\ba(\d+)\b/g, "a$1"))).toEqual([]);
    expect(diagram).toMatch(/⚠/);
    expect(body(diagram).at(-1)).toMatch(new RegExp(`^ {4}Note over a1(,a\\d)?: ❌ \\S+ ${race.invariant} violated: `));
    expect(narrowedBlock(race)).toContain(`(images/${race.id.toLowerCase()}-buggy.png)`);
  });
});
