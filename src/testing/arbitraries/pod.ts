// A pod entry of a scenario: an unchanged v1.Pod manifest (1..n containers "c0", "c1", ..., maybe
// an init container "init") with a behaviour for each container. Shrinks toward one container,
// restartPolicy Always, no init container.
import fc from "fast-check";
import { containerBehaviourArb, type BehaviourArbOptions } from "./behaviour.ts";

export type RestartPolicy = "Always" | "OnFailure" | "Never";

export interface PodArbOptions extends BehaviourArbOptions {
  name: string;
  namespace?: string;
  maxContainers?: number;
  /** May the pod have an init container (default true)? */
  initContainers?: boolean;
  restartPolicies?: readonly RestartPolicy[];
  images?: readonly string[];
}

export interface RawPodEntry {
  manifest: Record<string, unknown>;
  behaviour: Record<string, Record<string, unknown>>;
}

/** The container names a pod entry declares, regular ones first. */
export function containerNames(entry: RawPodEntry): { regular: string[]; init: string[] } {
  const spec = entry.manifest["spec"] as { containers: { name: string }[]; initContainers?: { name: string }[] };
  return { regular: spec.containers.map((c) => c.name), init: (spec.initContainers ?? []).map((c) => c.name) };
}

export function podArb(opts: PodArbOptions): fc.Arbitrary<RawPodEntry> {
  const max = opts.maxContainers ?? 2;
  if (!(max >= 1)) throw new RangeError(`podArb: maxContainers must be at least 1`);
  const images = opts.images ?? ["example/app:1", "example/app:2"];
  return fc
    .record({
      count: fc.integer({ min: 1, max }),
      init: (opts.initContainers ?? true) ? fc.boolean() : fc.constant(false),
      restartPolicy: fc.constantFrom(...(opts.restartPolicies ?? (["Always", "OnFailure", "Never"] as const))),
      grace: fc.constantFrom(30, 0, 2, 10),
      image: fc.constantFrom(...images),
      behaviours: fc.array(containerBehaviourArb(opts), { minLength: max, maxLength: max }),
      initExitMs: fc.integer({ min: 0, max: 30 }).map((n) => n * 100),
    })
    .map((d): RawPodEntry => {
      const regular = Array.from({ length: d.count }, (_, i) => `c${i}`);
      const spec: Record<string, unknown> = {
        restartPolicy: d.restartPolicy,
        terminationGracePeriodSeconds: d.grace,
        containers: regular.map((name) => ({ name, image: d.image })),
      };
      const behaviour: Record<string, Record<string, unknown>> = {};
      regular.forEach((name, i) => {
        if (Object.keys(d.behaviours[i]!).length > 0) behaviour[name] = d.behaviours[i]!;
      });
      if (d.init) {
        spec["initContainers"] = [{ name: "init", image: d.image }];
        behaviour["init"] = { exitAfter: `${d.initExitMs}ms`, exitCode: 0 };
      }
      const metadata = { name: opts.name, namespace: opts.namespace ?? "default" };
      return { manifest: { apiVersion: "v1", kind: "Pod", metadata, spec }, behaviour };
    });
}
