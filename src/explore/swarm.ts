// Swarm testing (as TigerBeetle's VOPR draws each run's fault settings from its seed): when a
// scenario declares `swarm`, each run gets its own CRI latencies, faults and timeline jitter,
// drawn from the run's seed within the declared ranges. The result is a plain scenario (the
// `swarm` key removed), so the run and its repro file need nothing but the scenario.
import { Rng, streamSeed } from "../sim/rng.ts";
import { parseDuration } from "../sim/duration.ts";
import { CRI_METHODS } from "../scenario/index.ts";
import type { Scenario } from "../scenario/index.ts";
import { cloneRaw, isRecord, rawList, type RawScenario } from "./raw.ts";

const ms = (n: number) => `${n}ms`;

/** The run's scenario: `base` with knobs drawn from `seed` within `scenario.swarm`. */
export function applySwarm(base: RawScenario, scenario: Scenario, seed: number): RawScenario {
  const swarm = scenario.swarm;
  const out = cloneRaw(base);
  delete out["swarm"];
  if (swarm === undefined) return out;
  const rng = new Rng("explore-swarm", streamSeed(seed, "explore-swarm"));
  const runtime = isRecord(out["runtime"]) ? out["runtime"] : {};
  const latency = isRecord(runtime["latency"]) ? { ...runtime["latency"] } : {};
  // A fixed method order, so a draw never depends on the file's key order.
  for (const method of CRI_METHODS) {
    const bounds = swarm.latency[method];
    if (bounds === undefined) continue;
    const a = rng.int(bounds.minMs, bounds.maxMs);
    const b = rng.int(a, bounds.maxMs);
    latency[method] = { min: ms(a), max: ms(b) };
  }
  const rawFaults = isRecord(base["swarm"]) ? rawList(base["swarm"] as RawScenario, "faults") : [];
  const faults = rawList(runtime, "faults");
  swarm.faults.forEach((f, i) => {
    const entry = rawFaults[i];
    if (rng.below(100) < f.percent && isRecord(entry)) faults.push(structuredClone(entry["fault"]));
  });
  out["runtime"] = { ...runtime, latency, faults };
  if (swarm.jitterMs > 0) out["timeline"] = jitterSteps(rawList(out, "timeline"), swarm.jitterMs, scenario.untilMs, rng);
  if (swarm.apiserverLatency !== undefined) {
    // Drawn after every other knob, so adding it leaves the other draws of a seed as they were.
    const a = rng.int(swarm.apiserverLatency.minMs, swarm.apiserverLatency.maxMs);
    const b = rng.int(a, swarm.apiserverLatency.maxMs);
    out["apiserver"] = { ...(isRecord(out["apiserver"]) ? out["apiserver"] : {}), latency: { min: ms(a), max: ms(b) } };
  }
  return out;
}

/**
 * Each step later by a draw in [0, jitter], never past `until`. Steps at 0s stay: they describe
 * the node as the kubelet finds it at boot (node/timeline.ts). Steps written at one instant move
 * together (one draw per instant, in file order): they are one action of the story, such as a
 * delete and the create that replaces the pod, and run in file order.
 */
function jitterSteps(steps: unknown[], jitterMs: number, untilMs: number, rng: Rng): unknown[] {
  const delayByAt = new Map<number, number>();
  return steps.map((step) => {
    if (!isRecord(step) || typeof step["at"] !== "string") return step;
    const at = parseDuration(step["at"]);
    if (at === 0) return step;
    let delay = delayByAt.get(at);
    if (delay === undefined) {
      delay = rng.int(0, Math.max(0, Math.min(jitterMs, untilMs - 1 - at)));
      delayByAt.set(at, delay);
    }
    return { ...step, at: ms(at + delay) };
  });
}
