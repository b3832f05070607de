// Random process programs for property tests of the kernel: a few processes doing sleeps, sends,
// receives, selects and scheduling points over a few channels. Deadlocks are allowed: they are
// deterministic outcomes too.
import fc from "fast-check";
import {
  Sim, MemorySink, point, recv, recvCase, select, send, sendCase, sleep, ChoiceLog,
  type RunResult, type StrategySpec, type Proc,
} from "../../src/sim/index.ts";

export type Step =
  | { op: "sleep"; ms: number }
  | { op: "send"; ch: number }
  | { op: "recv"; ch: number }
  | { op: "select"; chs: number[]; sendMask: number; dflt: boolean }
  | { op: "point" }
  | { op: "draw" };

export interface Program {
  capacities: number[];
  procs: Step[][];
}

export function programArb(): fc.Arbitrary<Program> {
  return fc.integer({ min: 1, max: 3 }).chain((nChans) => {
    const ch = fc.integer({ min: 0, max: nChans - 1 });
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ op: fc.constant("sleep" as const), ms: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ op: fc.constant("send" as const), ch }),
      fc.record({ op: fc.constant("recv" as const), ch }),
      fc.record({
        op: fc.constant("select" as const),
        chs: fc.array(ch, { minLength: 1, maxLength: 3 }),
        sendMask: fc.integer({ min: 0, max: 7 }),
        dflt: fc.boolean(),
      }),
      fc.record({ op: fc.constant("point" as const) }),
      fc.record({ op: fc.constant("draw" as const) }),
    );
    return fc.record({
      capacities: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: nChans, maxLength: nChans }),
      procs: fc.array(fc.array(step, { maxLength: 8 }), { minLength: 2, maxLength: 5 }),
    });
  });
}

export interface ProgramRun {
  result: RunResult;
  records: string[];
}

/** Runs a program; with `pausesMs`, runUntil stops at each of those instants before run() finishes. */
export function runProgram(prog: Program, seed: number, strategy: StrategySpec, label?: string, pausesMs: readonly number[] = [], sliceEvents: readonly number[] = []): ProgramRun {
  const sink = new MemorySink();
  const sim = new Sim({
    seed,
    strategy,
    sinks: [sink],
    bounds: { maxEvents: 20_000 },
    runInfo: label === undefined ? {} : { strategy: label },
  });
  const chans = prog.capacities.map((c, i) => sim.chan<number>(`c${i}`, c));
  prog.procs.forEach((steps, pi) => {
    sim.go(`p${pi}`, () => body(sim, pi, steps, chans));
  });
  for (const ms of pausesMs) sim.runUntil(ms);
  for (const n of sliceEvents) sim.runSlice(Number.POSITIVE_INFINITY, n);
  const result = sim.run();
  return { result, records: sink.records.map((r) => JSON.stringify(r)) };
}

function* body(sim: Sim, pi: number, steps: Step[], chans: ReturnType<Sim["chan"]>[]): Proc<void> {
  for (const [si, s] of steps.entries()) {
    switch (s.op) {
      case "sleep":
        yield* sleep(s.ms);
        break;
      case "send":
        yield* send(chans[s.ch]!, pi * 100 + si);
        break;
      case "recv":
        sim.emit("test", "recv", { p: pi, v: (yield* recv(chans[s.ch]!)).value ?? null });
        break;
      case "select": {
        const cases = s.chs.map((c, k) =>
          (s.sendMask >> k) & 1 ? sendCase(chans[c]!, pi * 100 + si) : recvCase(chans[c]!),
        );
        const r = yield* select(cases, { default: s.dflt });
        sim.emit("test", "select", { p: pi, index: r.index, v: (r.value as number | undefined) ?? null });
        break;
      }
      case "point":
        yield* point();
        break;
      case "draw":
        sim.emit("test", "draw", { p: pi, v: sim.rng(`model/p${pi}`).below(1000) });
        break;
    }
  }
}

export function replayOf(run: ProgramRun): StrategySpec {
  return { name: "replay", tape: ChoiceLog.decode(run.result.choices.encode()), whenExhausted: "diverge" };
}
