// A cluster's nodes: `nodes:` lists them, each with the shape of `node:` (name, labels, taints,
// capacity) plus, optionally, its own kubelet and runtime sections, so a cluster mid-upgrade (some
// kubelets at one release, some at another) is one file. Without `nodes:` a scenario is one node.
import { z } from "zod";
import { obj } from "./common.ts";
import { kubeletSchema, releaseVersion } from "./kubelet.ts";
import { nodeShape } from "./node.ts";
import { runtimeSchema } from "./runtime.ts";
import type { ClusterNodeParsed } from "../types/node.ts";
import type { ControlPlaneParsed } from "../types/scenario.ts";

/** Kubernetes' supported maximum is 5,000 nodes; a scenario file holds at most this many. */
export const MAX_NODES = 5000;

/** Typed by its output only (an interface): its declaration would otherwise spell the kubelet and runtime sections out. */
export const clusterNodeSchema: z.ZodType<ClusterNodeParsed, unknown> = obj({
  ...nodeShape,
  name: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/, {
      error: 'expected a node name (a DNS subdomain: lower-case letters, digits, "-" and "."), such as "node-a"',
    })
    .max(253)
    .describe("The node's name, as pods' spec.nodeName says. Names are unique in the cluster."),
  kubelet: kubeletSchema
    .optional()
    .describe(
      "This node's own kubelet section, written in full (it replaces the top-level `kubelet:` for this node, it is not " +
        "merged with it): a node at another release is one `kubelet: {version: ...}`. Its nodeName must be absent or the node's name.",
    ),
  runtime: runtimeSchema
    .optional()
    .describe("This node's own runtime section, written in full (it replaces the top-level `runtime:` for this node)."),
}).describe("One node of the cluster: the node's labels, taints and capacity, and optionally its own kubelet and runtime.");

/** Typed by its output only: the declaration of the scenario's type would otherwise spell the kubelet section twice (TS7056). */
export const nodesSchema: z.ZodOptional<z.ZodType<ClusterNodeParsed[], unknown>> = z
  .array(clusterNodeSchema)
  .min(1)
  .max(MAX_NODES, { error: `expected at most ${MAX_NODES} nodes (Kubernetes' supported maximum)` })
  .superRefine((nodes, ctx) => {
    const seen = new Map<string, number>();
    nodes.forEach((n, i) => {
      // The raw list's entries may be anything a YAML file holds (see `when` below).
      const name = (n as { name?: unknown } | null)?.name;
      if (typeof name !== "string") return;
      const first = seen.get(name);
      if (first !== undefined) {
        ctx.addIssue({ code: "custom", path: [i, "name"], message: `expected a name no other node has, found "${name}", the name of nodes[${first}]` });
      } else seen.set(name, i);
    });
    // `when`: run even when another field of a node is wrong (zod skips a refinement of a list with
    // issues by default), so a duplicate name is reported with the rest in one pass.
  }, { when: (payload) => Array.isArray(payload.value) })
  .optional()
  .describe(
    "The cluster's nodes, each with its own kubelet on one apiserver, a scheduler stand-in placing the pods that name " +
      "no node (docs/cluster.md). Without it the scenario is the one node of `node:`; give one or the other.",
  );

export type { ClusterNodeParsed };

/** `controlPlane:` of a cluster: the release its apiserver, scheduler stand-in and controllers follow. */
export const controlPlaneSchema: z.ZodOptional<z.ZodType<ControlPlaneParsed, unknown>> = obj({
  version: releaseVersion("control plane").meta({
    typeName: "string",
    description:
      "The release of the cluster's control plane (kube-apiserver, the scheduler stand-in and the controllers): what their " +
      "release-gated behaviour follows, e.g. the node monitor grace period (50 s from 1.32) or the Job controller's " +
      "podReplacementPolicy (1.29). Quote it. A kubelet newer than it, or more than three minors older (two before 1.28), " +
      "is outside the supported version skew: the run goes ahead with a warning.",
  }),
})
  .optional()
  .describe("In a cluster: the control plane's release. Without it the control plane runs the first node's kubelet release.");
