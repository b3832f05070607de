// A stand-in for kube-scheduler (no upstream file: the scheduler is not modelled). It does the one
// thing race R11 needs of it: its node resource accounting counts a pod in a terminal phase as
// gone (the scheduler's NodeInfo drops Succeeded and Failed pods), so as soon as its watch shows
// the pod that held the room Succeeded or Failed, it binds the pod that was waiting for that room.
// Simplified: the waiting pod is created already bound (spec.nodeName set), which the kubelet sees
// exactly as a pod bound by the scheduler; there is no filtering, scoring or queue.
import { recv, sleep, type Proc, type Sim } from "../sim/index.ts";
import { drawMs } from "../cri/config.ts";
import type { WatchEvent } from "../apiserver/index.ts";
import type { Binding } from "../scenario/types/scenario.ts";
import type { SimNode } from "./node.ts";

const COMPONENT = "scheduler";

/** Starts the stand-in when the scenario declares bindings; a no-op otherwise. */
export function startScheduler(sim: Sim, node: SimNode, bindings: readonly Binding[]): void {
  if (bindings.length === 0) return;
  const client = node.api.client(COMPONENT);
  const rng = sim.rng(COMPONENT);
  const pending = bindings.map((b) => ({ ...b, fired: false }));
  sim.go("scheduler/watch", function* (): Proc<void> {
    const w = yield* client.watchPods({});
    if (w.err !== null) {
      sim.emit(COMPONENT, "WatchFailed", { err: w.err.message });
      return;
    }
    // Bounded by the watch: it ends when the apiserver closes it.
    for (;;) {
      const { value, ok } = yield* recv(w.value.resultChan);
      if (!ok) return;
      for (const b of pending) {
        if (b.fired || !showsTerminal(value!, b.whenTerminal)) continue;
        b.fired = true;
        const latencyMs = drawMs(rng, b.latency);
        sim.emit(COMPONENT, "SawTerminal", { pod: b.whenTerminal, phase: value!.object!.status!.phase, bind: b.bind, latencyMs });
        sim.go(`scheduler/bind/${b.bind}`, () => bind(sim, node, b.bind, latencyMs));
      }
      if (pending.every((b) => b.fired)) {
        w.value.stop();
        return;
      }
    }
  }, { daemon: true });
}

function showsTerminal(e: WatchEvent, key: string): boolean {
  const pod = e.object;
  if (pod === null || (e.type !== "MODIFIED" && e.type !== "ADDED")) return false;
  if (`${pod.metadata.namespace ?? "default"}/${pod.metadata.name}` !== key) return false;
  return pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
}

function* bind(sim: Sim, node: SimNode, key: string, latencyMs: number): Proc<void> {
  if (latencyMs > 0) yield* sleep(latencyMs, "scheduling");
  const r = yield* node.api.client(COMPONENT).createPod(node.manifestFor(key));
  sim.emit(COMPONENT, "Bind", { pod: key, node: node.settings.nodeName, ...(r.err === null ? { uid: r.value.metadata.uid } : { err: r.err.message }) });
}
