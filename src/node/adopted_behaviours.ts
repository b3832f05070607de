// The cluster's table of adopted behaviours (no upstream file: on a real cluster a pod's containers
// do what their image does). A workload's replica runs its containers as the scenario says its
// template pod's run (controllers/manager.ts). A replica may be placed on any node, and each node's
// runtime knows its template's programs already (its plan's behaviours, node/plan.ts), so the
// cluster keeps one table of replica → template, shared by every node's runtime and read when the
// runtime creates a container (cri/core.ts behaviourFor). Copying the programs into every node's
// runtime instead cost nodes × pods × containers map entries (2.2 million at 100 × 110 × 2) and as
// many string keys, made at each pod's creation.
import type { BehaviourTemplates } from "../cri/program.ts";

export class AdoptedBehaviours implements BehaviourTemplates {
  /** By replica pod key: its templates in the order adopted (almost always one). */
  private readonly templates = new Map<string, string[]>();

  /** Pod `podKey` runs its containers as pod `templateKey`'s run (a workload's replica). */
  adopt(templateKey: string, podKey: string): void {
    if (templateKey === podKey) return;
    const known = this.templates.get(podKey);
    if (known === undefined) this.templates.set(podKey, [templateKey]);
    else known.push(templateKey);
  }

  templatesOf(podKey: string): readonly string[] | undefined {
    return this.templates.get(podKey);
  }
}
