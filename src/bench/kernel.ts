// Kernel benchmarks: no-op processes sleeping in a loop through the kernel, against a bare
// binary-heap + generator loop doing the same work; channel ping-pong; a select-heavy workload.
import { Sim, recv, recvCase, select, send, sleep } from "../sim/index.ts";
import { best } from "./timing.ts";
import { bareLoop, kernelLoop } from "./workloads.ts";

export interface BenchLine {
  name: string;
  [k: string]: string | number;
}

export function benchKernel(): BenchLine {
  const bare = best(3, () => bareLoop());
  const kern = best(3, () => kernelLoop({ Sim, sleep }));
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
