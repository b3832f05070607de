// An order level's ranges: the win's timing becomes the written one, and the swarm section is cut
// down to a step jitter small enough that every timing it allows can be run (src/play/claim.ts),
// and every one of them keeps the invariant under fifo. Latency and apiserver ranges go: their
// knobs would be single values. With no jitter that holds, the level has no timing knob at all.
import { parseDocument } from "yaml";
import { claimSize, claimTimings, MAX_CLAIM_RUNS } from "../../src/play/claim.ts";
import { pinTiming, type TimingValues } from "../../src/play/timing.ts";
import { makeLevel, runAt, type Level } from "./level.ts";

/** The level's text at `values`, its swarm section reduced to a jitter of `jitterMs` (none at 0). */
export function withJitter(level: Level, values: TimingValues, jitterMs: number): string {
  const doc = parseDocument(pinTiming(level.text, level.knobs, values));
  if (jitterMs === 0) doc.delete("swarm");
  else doc.set("swarm", doc.createNode({ jitter: `${jitterMs}ms` }, { flow: true }));
  return doc.toString({ lineWidth: 0 });
}

/** Whether fifo keeps the invariant at every timing the level's knobs allow. */
export function claimHolds(level: Level): boolean {
  return claimTimings(level.knobs).every((values) => !runAt(level, values).broken);
}

/** The widest jitter whose every timing holds (at most MAX_CLAIM_RUNS of them), as an order level. */
export function narrowed(level: Level, values: TimingValues): { level: Level; jitterMs: number } {
  for (let jitterMs = MAX_CLAIM_RUNS - 1; jitterMs > 0; jitterMs = Math.floor(jitterMs / 2)) {
    const candidate = makeLevel(level.race, withJitter(level, values, jitterMs));
    if (claimSize(candidate.knobs) > MAX_CLAIM_RUNS) continue;
    if (claimHolds(candidate)) return { level: candidate, jitterMs };
  }
  return { level: makeLevel(level.race, withJitter(level, values, 0)), jitterMs: 0 };
}
