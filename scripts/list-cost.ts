// What one list call costs end to end, and what its consumers add: a Sim with a SimRuntime holding
// N pods (a sandbox and two running containers each, made through the CRI), then one process that
// makes K calls in a row, timed by CPU. Each line is one kind of call: a bare timer sleep (the
// kernel's own cost of an operation), Version (a CRI call that lists nothing), ListPodSandbox and
// ListContainers with no filter (the relist's), kuberuntime's GetPods(true) and GetPods(false)
// (the relist's and housekeeping's: both calls and the grouping), and the PLEG's whole relist.
// "lazy" builds no record (an exploration's dropped kinds), "records" builds and hashes every one
// (the node line, a full run); "quiet" lists an unchanged runtime, "gen-moved" moves the runtime's
// generation before each call (RuntimeStore.touch: the listing is rebuilt and compared, though no
// record changed). A developer tool (host-time-ok, like scripts/ab-cpu.ts): a loop of one call
// measures it warm and alone, not as a run meets it.
//
//   npm run build && node --import tsx scripts/list-cost.ts [TREE] [--pods 110] [--k 20000] [--reps 5] [--only relist,GetPods(true)]
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { pods: { type: "string", default: "110" }, k: { type: "string", default: "20000" }, reps: { type: "string", default: "5" }, only: { type: "string" } },
});
const tree = resolve(positionals[0] ?? ".");
const dist = (p: string) => import(join(tree, "dist", `${p}.js`));
const { Sim, sleep } = await dist("sim/index");
const { SimRuntime } = await dist("cri/index");
const { KubeGenericRuntimeManager } = await dist("kubelet/kuberuntime/kuberuntime_manager_sync");
const { GenericPLEG } = await dist("kubelet/pleg/generic");
const { Cache } = await dist("kubelet/container/cache");
const N = Number(values.pods);
const K = Number(values.k);

function setup(hash: boolean) {
  const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, hash, sinks: [], bounds: { untilMs: 1e12, maxEvents: 1e12 } });
  const images = { "nginx:1.25": { present: true, pullTime: null, fail: null }, "registry.k8s.io/pause:3.9": { present: true, pullTime: null, fail: null } };
  const rt = new SimRuntime(sim, { images });
  const manager = new KubeGenericRuntimeManager({ sim, runtimeService: rt, imageService: rt, network: rt });
  const cache = new Cache(sim);
  const pleg = new GenericPLEG(sim, manager, cache);
  sim.go("setup", function* () {
    for (let i = 0; i < N; i++) {
      const uid = `uid-${i}`;
      const meta = { name: `p${i}`, namespace: "default", uid, attempt: 0 };
      const labels = { "io.kubernetes.pod.name": meta.name, "io.kubernetes.pod.namespace": "default", "io.kubernetes.pod.uid": uid };
      const sc = { metadata: meta, labels, annotations: {} };
      const sid = yield* rt.RunPodSandbox(sc, "");
      for (const c of ["a", "b"]) {
        const cl = { ...labels, "io.kubernetes.container.name": c };
        const id = yield* rt.CreateContainer(sid, { metadata: { name: c, attempt: 0 }, image: { image: "nginx:1.25" }, labels: cl, annotations: { "io.kubernetes.container.hash": "1" } }, sc);
        yield* rt.StartContainer(id);
      }
    }
    yield* pleg.relist();
  });
  return { sim, rt, manager, pleg };
}

type Body = (env: ReturnType<typeof setup>, touch: boolean) => () => Generator<unknown, void, unknown>;
const bodies: Record<string, Body> = {
  sleep: () => function* () { for (let i = 0; i < K; i++) yield* sleep(10); },
  Version: ({ rt }) => function* () { for (let i = 0; i < K; i++) yield* rt.Version("v1"); },
  ListPodSandbox: ({ rt }, touch) => function* () { for (let i = 0; i < K; i++) { if (touch) rt.store.touch(); yield* rt.ListPodSandbox(null); } },
  ListContainers: ({ rt }, touch) => function* () { for (let i = 0; i < K; i++) { if (touch) rt.store.touch(); yield* rt.ListContainers(null); } },
  "GetPods(true)": ({ rt, manager }, touch) => function* () { for (let i = 0; i < K; i++) { if (touch) rt.store.touch(); yield* manager.GetPods(true); } },
  "GetPods(false)": ({ rt, manager }, touch) => function* () { for (let i = 0; i < K; i++) { if (touch) rt.store.touch(); yield* manager.GetPods(false); } },
  relist: ({ rt, pleg }, touch) => function* () { for (let i = 0; i < K; i++) { if (touch) rt.store.touch(); yield* pleg.relist(); } },
};

function time(name: string, hash: boolean, touch: boolean): number {
  const env = setup(hash);
  const body = bodies[name]!(env, touch);
  let t0 = process.cpuUsage();
  let d = t0;
  env.sim.go("m", function* () {
    yield* sleep(1e9);
    t0 = process.cpuUsage();
    yield* body();
    d = process.cpuUsage(t0);
  });
  const r = env.sim.run();
  if (r.verdict !== "quiescent" && r.verdict !== "completed") throw new Error(`${name} ${r.verdict} ${r.diagnosis}`);
  return ((d.user + d.system) / K);
}

const reps = Number(values.reps);
const names = values.only ? values.only.split(",") : Object.keys(bodies);
for (const hash of [false, true]) {
  for (const touch of [false, true]) {
    if (touch && !hash) continue;
    for (const name of names) {
      if (touch && (name === "sleep" || name === "Version")) continue;
      const xs: number[] = [];
      for (let i = 0; i < reps; i++) xs.push(time(name, hash, touch));
      xs.sort((a, b) => a - b);
      console.log(`${hash ? "records" : "lazy   "} ${touch ? "gen-moved" : "quiet    "} ${name.padEnd(16)} µs/call min ${xs[0]!.toFixed(2)} median ${xs[xs.length >> 1]!.toFixed(2)}`);
    }
  }
}
