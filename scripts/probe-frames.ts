// How many generator frames one probe resumes, in this tree or another checkout: the figure
// docs/BENCHMARKS.md quotes for the probe path ("The probe path (engine-probe)").
//
//   node --import tsx scripts/probe-frames.ts [--tree DIR]
//
// The counting is scripts/frame_count.ts's, as for scripts/call-frames.ts (every generator's next() counted on the generators'
// shared prototype). A caller process probes a running container of the simulated runtime through
// the kubelet's Prober and criProbeRunner as the prober worker's doProbe does: in a tree with
// Prober.probeOp, by yielding the operation it returns; in an older tree, with
// `yield* prober.probe(...)`. For an exec probe and an HTTP probe, each answering at once and
// after 3 errored attempts (a container gone: ExecSync fails, retried maxProbeRetries times), it
// prints the generator frames entered below the caller and how many times the caller was resumed.
import { containerConfig, frames, measuredTree, sandboxConfig } from "./frame_count.ts";
import { join } from "node:path";

const tree = measuredTree();

const { Sim } = await import(join(tree, "src/sim/index.ts"));
const { SimRuntime, uniformLatency } = await import(join(tree, "src/cri/index.ts"));
const { Prober, criProbeRunner } = await import(join(tree, "src/kubelet/prober/index.ts"));

const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, bounds: { untilMs: 3_600_000 } });
const images = { "nginx:1.25": { present: true, pullTime: null, fail: null } };
const rt = new SimRuntime(sim, { images, latency: uniformLatency(10) });
const prober = new Prober(sim, criProbeRunner(rt, rt));
const execProbe = { exec: { command: ["true"] }, timeoutSeconds: 1, periodSeconds: 10 };
const httpProbe = { httpGet: { path: "/", port: 80 }, timeoutSeconds: 1, periodSeconds: 10 };
const pod = { metadata: { name: "web", namespace: "default", uid: "uid-web" }, spec: { containers: [{ name: "app" }] } };

const rows: { probe: string; frames: number; steps: number; outcome: unknown }[] = [];
const oneOperation = typeof prober.probeOp === "function";

/** The probe as doProbe makes it in this tree: one yielded operation, or the generator chain. */
function* probe(what: string, spec: object, containerID: string): Generator<unknown, void, unknown> {
  const container = { name: "app", readinessProbe: spec };
  frames.begin();
  let outcome: unknown;
  if (oneOperation) {
    const op = prober.probeOp("readiness", pod, {}, container, containerID);
    outcome = typeof op === "string" ? op : yield op;
  } else {
    outcome = yield* prober.probe("readiness", pod, {}, container, containerID);
  }
  rows.push({ probe: what, ...frames.end(), outcome });
}

function* body(): Generator<unknown, void, unknown> {
  const sb = yield* rt.RunPodSandbox(sandboxConfig, "");
  const c = yield* rt.CreateContainer(sb, containerConfig, sandboxConfig);
  yield* rt.StartContainer(c);
  for (const [what, spec, id] of [
    ["exec, answered", execProbe, `containerd://${c}`],
    ["http, answered", httpProbe, `containerd://${c}`],
    ["exec, errored 3 times", execProbe, "containerd://gone"],
    ["http, refused at once", httpProbe, "containerd://gone"],
  ] as const) {
    frames.helper = probe(what, spec, id);
    yield* frames.helper;
  }
}

frames.caller = body();
sim.go("caller", () => frames.caller!);
const r = sim.run();
if (r.verdict !== "completed") throw new Error(`run ended ${r.verdict}: ${r.diagnosis}`);

process.stdout.write(`tree: ${tree} (${oneOperation ? "Prober.probeOp, yielded once" : "yield* Prober.probe"})\n`);
process.stdout.write("probe                    outcome   generator frames entered below the caller  caller resumptions\n");
for (const row of rows) {
  process.stdout.write(`${row.probe.padEnd(24)} ${String(row.outcome).padEnd(9)} ${String(row.frames).padStart(42)}  ${String(row.steps).padStart(18)}\n`);
}
