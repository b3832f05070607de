// How many generator frames a CRI call or an apiserver request resumes, in this tree or another
// checkout: the figure docs/kernel.md quotes ("Calls: one operation each").
//
//   node --import tsx scripts/call-frames.ts [--tree DIR]
//
// Every generator's next() is counted (scripts/frame_count.ts, patched on the generators' shared
// prototype before any generator exists, so the yield* delegations call the counted method too). A caller process
// whose own frame is the only model frame makes each call in turn; for each call the script
// prints the generator frames entered below the caller (each next() on one of the call's own
// generators, when the call starts and every time the caller is resumed until it returns), and
// how many times the caller's own generator was resumed for it (the step that makes the call
// counts as one).
import { containerConfig, frames, measuredTree, sandboxConfig } from "./frame_count.ts";
import { join } from "node:path";

const tree = measuredTree();

const { Sim } = await import(join(tree, "src/sim/index.ts"));
const { SimRuntime, uniformLatency } = await import(join(tree, "src/cri/index.ts"));
const { ApiServer } = await import(join(tree, "src/apiserver/index.ts"));

const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, bounds: { untilMs: 3_600_000 } });
const images = { "nginx:1.25": { present: true, pullTime: null, fail: null }, "busybox:1.36": { present: false, pullTime: { minMs: 100, maxMs: 100 }, fail: null } };
const rt = new SimRuntime(sim, { images, latency: uniformLatency(10) });
const api = new ApiServer(sim, {});
const user = api.client("kubelet");
const pod = { metadata: { name: "web", namespace: "default" }, spec: { nodeName: "node-1", containers: [{ name: "app", image: "nginx:1.25" }] } };

const rows: { call: string; frames: number; steps: number }[] = [];
const begin = (): void => frames.begin();
function end(call: string): void {
  rows.push({ call, ...frames.end() });
}
function failIf(what: string, r: unknown): void {
  if (r !== null && typeof r === "object" && "code" in r && "message" in r && !("metadata" in r)) throw new Error(`${what} failed: ${String((r as { message: unknown }).message)}`);
}

function* body(): Generator<unknown, void, unknown> {
  begin(); const v = yield* rt.Version("v1"); end("cri Version"); failIf("Version", v);
  begin(); const sb = yield* rt.RunPodSandbox(sandboxConfig, ""); end("cri RunPodSandbox"); failIf("RunPodSandbox", sb);
  begin(); yield* rt.PodSandboxStatus(sb); end("cri PodSandboxStatus");
  begin(); yield* rt.ListPodSandbox(null); end("cri ListPodSandbox");
  begin(); yield* rt.ImageStatus({ image: "nginx:1.25" }); end("cri ImageStatus");
  begin(); const pulled = yield* rt.PullImage({ image: "busybox:1.36" }, null, sandboxConfig); end("cri PullImage (100 ms pull)"); failIf("PullImage", pulled);
  begin(); const c = yield* rt.CreateContainer(sb, containerConfig, sandboxConfig); end("cri CreateContainer"); failIf("CreateContainer", c);
  begin(); failIf("StartContainer", yield* rt.StartContainer(c)); end("cri StartContainer");
  begin(); yield* rt.ContainerStatus(c); end("cri ContainerStatus");
  begin(); yield* rt.ListContainers(null); end("cri ListContainers");
  begin(); failIf("StopContainer", yield* rt.StopContainer(c, 0)); end("cri StopContainer (waits for the exit)");
  begin(); yield* rt.RemoveContainer(c); end("cri RemoveContainer");
  begin(); yield* rt.StopPodSandbox(sb); end("cri StopPodSandbox");
  begin(); yield* rt.RemovePodSandbox(sb); end("cri RemovePodSandbox");
  begin(); failIf("createPod", (yield* user.createPod(pod)).err); end("apiserver createPod");
  begin(); failIf("getPod", (yield* user.getPod("default", "web")).err); end("apiserver getPod");
  begin(); failIf("patchPodStatus", (yield* user.patchPodStatus("default", "web", { phase: "Running" })).err); end("apiserver patchPodStatus");
  begin(); failIf("deletePod", (yield* user.deletePod("default", "web", { gracePeriodSeconds: 0 })).err); end("apiserver deletePod");
}

frames.caller = body();
sim.go("caller", () => frames.caller!);
const r = sim.run();
if (r.verdict !== "completed" && r.verdict !== "quiescent") throw new Error(`run ended ${r.verdict}: ${r.diagnosis}`);
if (rows.length !== 18) throw new Error(`only ${rows.length} of 18 calls returned`);

process.stdout.write(`tree: ${tree}\n`);
process.stdout.write("call                                     generator frames entered below the caller  caller resumptions\n");
for (const row of rows) {
  process.stdout.write(`${row.call.padEnd(40)} ${String(row.frames).padStart(42)}  ${String(row.steps).padStart(18)}\n`);
}
const range = (xs: number[]) => `${Math.min(...xs)}-${Math.max(...xs)}`;
const cri = rows.filter((x) => x.call.startsWith("cri"));
const apiserver = rows.filter((x) => x.call.startsWith("apiserver"));
process.stdout.write(`frames entered below the caller per call: CRI ${range(cri.map((x) => x.frames))}, apiserver ${range(apiserver.map((x) => x.frames))}\n`);
process.stdout.write(`caller resumptions per call: CRI ${range(cri.map((x) => x.steps))}, apiserver ${range(apiserver.map((x) => x.steps))}\n`);
