// What driving a run in slices costs the CLI (src/cli/session.ts runInSlices: bounded by virtual
// time and by events, yielding to the event loop between slices so a signal is acted on) against
// one run to its end at once (SimulationHandle.finish): the 110-pod node of src/bench/node.ts, both
// in this one process, alternating, by CPU time; both must give the same trace hash.
// host-time-ok: a measuring tool, like scripts/node-startup.ts.
//
//   node --import tsx scripts/slice-cost.ts [PODS=110] [UNTIL=10m] [ROUNDS=3]
import { nodeScenarioYaml } from "../src/bench/node.ts";
import { loadScenarioText } from "../src/scenario/index.ts";
import { startSimulation } from "../src/simulate.ts";
import { runInSlices } from "../src/cli/session.ts";

async function main(): Promise<void> {
  const pods = Number(process.argv[2] ?? 110);
  const until = process.argv[3] ?? "10m";
  const rounds = Number(process.argv[4] ?? 3);
  const { scenario } = loadScenarioText(nodeScenarioYaml(pods, until), "node.yaml");
  const start = () => startSimulation(scenario, { seed: 1, strategy: { name: "fifo" } });
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const ms = { whole: 0, sliced: 0 };
  const hashes = new Set<string>();
  for (let i = 0; i < rounds; i++) {
    let c = cpu();
    hashes.add(start().finish().run.traceHash);
    ms.whole += cpu() - c;
    c = cpu();
    hashes.add((await runInSlices(start())).run.traceHash);
    ms.sliced += cpu() - c;
  }
  const same = hashes.size === 1 ? "the same trace hash" : `DIFFERENT trace hashes: ${[...hashes].join(", ")}`;
  console.log(`${pods} pods, ${until}, ${rounds} rounds: whole ${ms.whole.toFixed(0)} ms CPU, sliced ${ms.sliced.toFixed(0)} ms CPU, sliced/whole ${(ms.sliced / ms.whole).toFixed(3)}; ${same}`);
}

void main();
