// The generator-frame counter that scripts/call-frames.ts and scripts/probe-frames.ts share, and the
// sandbox and container they both run. Importing this module patches next() on the generators'
// shared prototype, so it must be imported before the measured tree's modules are (a static import
// here, the tree's modules by dynamic import after it): the yield* delegations then call the
// counted method too.
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";

/** The checkout to measure: --tree DIR, or this one. */
export function measuredTree(): string {
  const { values } = parseArgs({ options: { tree: { type: "string" } } });
  return resolve(values.tree ?? join(import.meta.dirname, ".."));
}

const generatorProto = Object.getPrototypeOf(Object.getPrototypeOf((function* () {})()));
const originalNext = generatorProto.next as (this: Generator, v?: unknown) => IteratorResult<unknown>;

/** What is counted: each next() on the caller's generator, and on any other but the helper's. */
export const frames = {
  caller: null as Generator | null,
  /** A script's own frame the caller delegates to: neither the caller nor below it. */
  helper: null as Generator | null,
  counting: false,
  belowCaller: 0,
  callerSteps: 0,
  /** Counts from the caller's next step, the one that makes the call (the counting starts inside it). */
  begin(): void {
    this.belowCaller = 0;
    this.callerSteps = 1;
    this.counting = true;
  },
  end(): { frames: number; steps: number } {
    this.counting = false;
    return { frames: this.belowCaller, steps: this.callerSteps };
  },
};

generatorProto.next = function (this: Generator, v?: unknown) {
  if (frames.counting) {
    if (this === frames.caller) frames.callerSteps++;
    else if (this !== frames.helper) frames.belowCaller++;
  }
  return originalNext.call(this, v);
};

export const sandboxConfig = {
  metadata: { name: "web", namespace: "default", uid: "uid-web", attempt: 0 },
  labels: { "io.kubernetes.pod.name": "web", "io.kubernetes.pod.namespace": "default", "io.kubernetes.pod.uid": "uid-web" },
  annotations: {},
};
export const containerConfig = {
  metadata: { name: "app", attempt: 0 },
  image: { image: "nginx:1.25" },
  labels: { "io.kubernetes.container.name": "app", "io.kubernetes.pod.uid": "uid-web" },
  annotations: { "io.kubernetes.container.restartCount": "0" },
};
