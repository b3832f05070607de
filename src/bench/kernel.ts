// Kernel benchmarks: no-op processes sleeping in a loop through the kernel, against a bare
// binary-heap + generator loop doing the same work; channel ping-pong; a select-heavy workload.
import { Sim, recv, recvCase, select, send, sleep } from "../sim/index.ts";
import { TimerHeap } from "../sim/heap.ts";
import { best } from "./timing.ts";

export interface BenchLine {
  name: string;
  [k: string]: string | number;
}

const PROCS = 1000;
const WAKES_PER_PROC = 2000;

/** The same work without the kernel: a heap of (due, seq) and generators yielding sleep times. */
function bareLoop(): number {
  interface E { dueMs: number; seq: number; cancelled: boolean; gen: Generator<number, void, unknown> }
  const heap = new TimerHeap<E>();
  let seq = 0;
  let events = 0;
  for (let i = 0; i < PROCS; i++) {
    const gen = (function* (period: number) {
      for (let k = 0; k < WAKES_PER_PROC; k++) yield period;
    })(1 + (i % 7));
    heap.push({ dueMs: 0, seq: seq++, cancelled: false, gen });
  }
  for (let e = heap.pop(); e !== undefined; e = heap.pop()) {
    const r = e.gen.next();
    events++;
    if (r.done !== true) heap.push({ dueMs: e.dueMs + r.value, seq: seq++, cancelled: false, gen: e.gen });
  }
  return events;
}

function kernelLoop(): number {
  const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, hash: false });
  for (let i = 0; i < PROCS; i++) {
    const period = 1 + (i % 7);
    sim.go(`sleeper/${i}`, function* () {
      for (let k = 0; k < WAKES_PER_PROC; k++) yield* sleep(period);
    });
  }
  return sim.run().events;
}

export function benchKernel(): BenchLine {
  const bare = best(3, bareLoop);
  const kern = best(3, kernelLoop);
  const bareRate = bare.value / bare.seconds;
  const rate = kern.value / kern.seconds;
  return {
    name: "kernel",
    eventsPerSec: Math.round(rate),
    bareLoopEventsPerSec: Math.round(bareRate),
    ratioToBareLoop: round2(rate / bareRate),
    events: kern.value,
  };
}

export function benchPingPong(): BenchLine {
  const rounds = 500_000;
  const run = () => {
    const sim = new Sim({ seed: 1, strategy: { name: "random" }, hash: false });
    const ping = sim.chan<number>("ping");
    const pong = sim.chan<number>("pong");
    sim.go("ping", function* () {
      for (let i = 0; i < rounds; i++) {
        yield* send(ping, i);
        yield* recv(pong);
      }
    });
    sim.go("pong", function* () {
      for (let i = 0; i < rounds; i++) yield* send(pong, (yield* recv(ping)).value!);
    });
    return sim.run().verdict;
  };
  const t = best(3, run);
  return { name: "channel-ping-pong", opsPerSec: Math.round((4 * rounds) / t.seconds), rounds };
}

export function benchSelect(): BenchLine {
  const producers = 8;
  const perProducer = 50_000;
  const run = () => {
    const sim = new Sim({ seed: 1, strategy: { name: "random" }, hash: false });
    const chans = Array.from({ length: producers }, (_, i) => sim.chan<number>(`c${i}`, 4));
    const cases = chans.map((c) => recvCase(c));
    chans.forEach((c, i) =>
      sim.go(`producer/${i}`, function* () {
        for (let k = 0; k < perProducer; k++) {
          yield* send(c, k);
          if (k % 16 === 0) yield* sleep(1);
        }
      }),
    );
    sim.go("selector", function* () {
      for (let k = 0; k < producers * perProducer; k++) yield* select(cases);
    });
    return sim.run().verdict;
  };
  const t = best(3, run);
  return { name: "select-heavy", selectsPerSec: Math.round((producers * perProducer) / t.seconds), cases: producers };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
