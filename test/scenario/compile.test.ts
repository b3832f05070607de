// A scenario's behaviour compiles into the runtime's per-attempt programs.
import { describe, expect, it } from "vitest";
import { programForAttempt as criProgramForAttempt, probeAnswerAt } from "../../src/cri/index.ts";
import { compileBehaviour } from "../../src/scenario/compile.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";

const behaviourOf = (yaml: string) =>
  loadScenarioText(`name: c
pods:
  - manifest:
      metadata: { name: w }
      spec:
        containers:
          - name: app
            image: i
            livenessProbe: { exec: { command: ["true"] } }
            lifecycle: { preStop: { exec: { command: ["true"] } } }
    behaviour:
      app:
${yaml.replace(/^/gm, "        ")}
`).scenario.pods[0]!.behaviour.app!;

describe("compileBehaviour", () => {
  it("maps a default container to one repeating forever program", () => {
    const programs = compileBehaviour(behaviourOf("{}"));
    expect(programs).toEqual([
      { run: { kind: "forever" }, startError: null, onSigterm: { kind: "exit", afterMs: 0, code: 143 }, oomAtMs: null, probes: {}, hooks: {} },
    ]);
  });

  it("maps runs to attempts 0, 1, ... and repeats the container's own program", () => {
    const programs = compileBehaviour(
      behaviourOf(`runs:
  - { exitAfter: 1s, exitCode: 1 }
  - { failStart: "no such file" }
onSigterm: { ignore: true }
preStop: { duration: 5s }
`),
    );
    expect(programs).toHaveLength(3);
    expect(criProgramForAttempt(programs, 0).run).toEqual({ kind: "exit", afterMs: 1000, code: 1 });
    expect(criProgramForAttempt(programs, 1).startError).toBe("no such file");
    expect(criProgramForAttempt(programs, 2).run).toEqual({ kind: "forever" });
    expect(criProgramForAttempt(programs, 9).onSigterm).toEqual({ kind: "ignore" });
    expect(criProgramForAttempt(programs, 9).hooks).toEqual({ preStop: { durationMs: 5000, error: null } });
  });

  it("applies attempt-specific probe answers to their attempt only", () => {
    const programs = compileBehaviour(
      behaviourOf(`probes:
  liveness:
    - { attempt: 2, from: 30s, result: failure }
    - { from: 0s, to: 5s, result: timeout }
`),
    );
    expect(programs).toHaveLength(3);
    const live = (attempt: number, t: number) => probeAnswerAt(criProgramForAttempt(programs, attempt).probes.liveness, t);
    expect([live(0, 1000), live(0, 40_000)]).toEqual(["timeout", "success"]);
    expect([live(1, 1000), live(1, 40_000)]).toEqual(["timeout", "failure"]);
    expect([live(2, 1000), live(5, 40_000)]).toEqual(["timeout", "success"]);
  });
});
