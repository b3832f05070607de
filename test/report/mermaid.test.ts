// The Mermaid sequence diagram: golden over the lifecycle, a line-by-line check against the grammar
// subset the renderer emits (no script, no browser: regular expressions), escaping, caps, filters.
import { describe, expect, it } from "vitest";
import { mermaidText, render } from "../../src/report/index.ts";
import { lifecycle, trace } from "./fixture.ts";
import { grammarProblems, MESSAGE, NOTE } from "./mermaid_grammar.ts";

const MERMAID = [
  "sequenceDiagram",
  "    %% kubelet-sim scenario web-lifecycle seed 7 strategy fifo",
  "    actor user",
  "    participant apiserver",
  "    participant config",
  "    participant kubelet",
  "    participant podworker",
  "    participant prober",
  "    participant status",
  "    participant kuberuntime",
  "    participant runtime",
  "    participant pleg",
  "    user->>apiserver: POST web",
  "    Note over apiserver: web Pending 0/1",
  "    apiserver-->>config: watch ADDED web",
  "    config->>kubelet: ADD web",
  "    kubelet->>podworker: UpdatePod create",
  "    podworker->>+kubelet: SyncPod",
  "    kubelet->>kuberuntime: SyncPod",
  "    kuberuntime->>runtime: RunPodSandbox",
  "    kuberuntime->>+runtime: PullImage nginx:1.25",
  "    runtime-->>-kuberuntime: PullImage nginx:1.25 returns after 2.00s",
  "    kuberuntime->>runtime: CreateContainer app",
  "    kuberuntime->>runtime: StartContainer app",
  "    kubelet-->>-podworker: SyncPod done after 2.14s",
  "    status->>apiserver: PATCH status (Pending)",
  "    Note over apiserver: web ContainerCreating 0/1",
  "    pleg->>kubelet: ContainerStarted c-1",
  "    prober->>status: readiness app Success",
  "    status->>apiserver: PATCH status (Running)",
  "    Note over apiserver: web Running 1/1",
  "    user->>apiserver: DELETE web grace 30s",
  "    Note over apiserver: web Terminating 1/1",
  "    apiserver-->>config: watch MODIFIED web",
  "    config->>kubelet: DELETE web",
  "    kubelet->>podworker: UpdatePod kill",
  "    Note over podworker: termination requested (deleted)",
  "    podworker->>+kubelet: SyncTerminatingPod",
  "    kuberuntime->>+runtime: StopContainer app",
  "    Note over runtime: app exited (code 0)",
  "    runtime-->>-kuberuntime: StopContainer app returns after 1.50s",
  "    kubelet-->>-podworker: SyncTerminatingPod done after 1.51s",
  "    pleg->>kubelet: ContainerDied c-1 (code 0)",
  "    status->>apiserver: PATCH status (Running)",
  "    Note over apiserver: web Terminating 0/1",
  "    status->>apiserver: DELETE grace 0",
  "    Note over apiserver: web deleted",
];

const lines = (s: string): string[] => s.split("\n").slice(0, -1);

const hostile = 'exit; rm -rf # <br> & 100% "quoted"\nsecond line';

describe("mermaid sequence diagram", () => {
  it("draws the lifecycle", () => {
    expect(lines(render("mermaid", lifecycle))).toEqual(MERMAID);
  });

  it("starts with sequenceDiagram and every line matches the grammar subset", () => {
    expect(grammarProblems(render("mermaid", lifecycle))).toEqual([]);
    expect(grammarProblems(render("mermaid", lifecycle, { events: true, maxMessages: 7 }))).toEqual([]);
  });

  it("the grammar check catches what GitHub would choke on", () => {
    expect(grammarProblems("sequenceDiagram\n    participant a\n    a->>a: one; two\n")).toHaveLength(1);
    expect(grammarProblems("sequenceDiagram\n    participant a\n    a->>b: hi\n")).toEqual(["undeclared b at 3"]);
    expect(grammarProblems("graph TD\n")).toHaveLength(1);
  });

  it("escapes text so no character ends or reshapes a line", () => {
    expect(mermaidText(hostile)).toBe("exit#59; rm -rf #35; #lt;br#gt; #amp; 100#37; #quot;quoted#quot; second line");
    expect(mermaidText("  ")).toBe("-");
    expect(mermaidText("x".repeat(150))).toBe(`${"x".repeat(97)}...`);
    const records = trace([
      [0, "runtime", "PullImage", { pod: "default/web", image: "nginx", tookMs: 5, error: hostile }],
      [1, "kuberuntime", "Event", { pod: "default/web", type: "Warning", reason: "Failed", message: hostile }],
      [2, "apiserver", "PodView", { pod: "default/web", uid: "u", ready: "0/1", status: "Err;#", restarts: "0" }],
    ]);
    const out = render("mermaid", records, { events: true });
    expect(grammarProblems(out)).toEqual([]);
    expect(lines(out).slice(4)).toEqual([
      "    kuberuntime-xruntime: PullImage nginx → exit#59; rm -rf #35; #lt;br#gt; #amp; 100#37; #quot;quoted#quot; second line",
      "    Note over kuberuntime: Warning Failed: exit#59; rm -rf #35; #lt;br#gt; #amp; 100#37; #quot;quoted#quot; second line",
      "    Note over apiserver: web Err#59;#35; 0/1",
    ]);
  });

  it("caps the number of messages and says how many were left out", () => {
    const steps = MERMAID.filter((l) => MESSAGE.test(l) || NOTE.test(l)).length;
    const out = lines(render("mermaid", lifecycle, { maxMessages: 5 }));
    const drawn = out.filter((l) => MESSAGE.test(l) || NOTE.test(l));
    expect(drawn).toHaveLength(6);
    expect(drawn.slice(0, 5)).toEqual(MERMAID.filter((l) => MESSAGE.test(l) || NOTE.test(l)).slice(0, 5));
    expect(drawn[5]).toBe(`    Note over user,podworker: ${steps - 5} more step(s) not shown (maxMessages 5)`);
  });

  it("filters by pod and draws only changes of a probe result", () => {
    const probe = (t: number, pod: string, result: string) =>
      [t, "prober", "ProbeResult", { pod, container: "app", probeType: "liveness", result }] as const;
    const records = trace([probe(0, "default/a", "Success"), probe(1, "default/b", "Success"), probe(2, "default/a", "Success"), probe(3, "default/a", "Failure")]);
    expect(lines(render("mermaid", records, { pod: "a" })).slice(1)).toEqual([
      "    participant kubelet",
      "    participant prober",
      "    prober->>kubelet: liveness app Success",
      "    prober->>kubelet: liveness app Failure",
    ]);
  });

  it("sends syncLoop's arrows to a syncloop lane when the trace has one", () => {
    const records = trace([
      [0, "syncloop", "SyncLoopADD", { pod: "default/a" }],
      [1, "podworker", "UpdatePod", { pod: "default/a", updateType: "create" }],
    ]);
    expect(lines(render("mermaid", records))).toContain("    syncloop->>podworker: UpdatePod create");
  });
});
