// The simulated node as the cluster sees it: its name, labels, taints and capacity. The kubelet's
// admission (pkg/kubelet/lifecycle/predicate.go) checks each pod against them: node selector and
// required node affinity against the labels, NoExecute taints against the pod's tolerations,
// requests against the capacity. One entry of a later `nodes:` list has this same shape (plus its
// own kubelet and runtime sections), so a one-node scenario and a cluster read alike.
import { z } from "zod";
import { TAINT_EFFECTS, type Taint, type TaintEffect } from "../../k8s/node.ts";
import { parseQuantityMilli } from "../../k8s/quantity.ts";
import { describeValue } from "../found.ts";
import { obj } from "./common.ts";
import type { NodeCapacity, NodeParsed } from "../types/node.ts";

/** Capacity a node has when the scenario says nothing: a kind node on a laptop-sized machine. */
export const DEFAULT_CAPACITY = { cpu: "4", memory: "16Gi", "ephemeral-storage": "100Gi" } as const;

/** A label key or a taint key: an optional DNS prefix and a name (validation.IsQualifiedName, loosely). */
const QUALIFIED_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
/** A label value: empty, or at most 63 alphanumerics, '-', '_' and '.', starting and ending alphanumeric. */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const qualifiedName = (what: string) =>
  z.string().regex(QUALIFIED_NAME, { error: `expected a ${what} such as "disktype" or "example.com/dedicated" (an optional DNS prefix and a name)` });
const labelValue = z.string().max(63).regex(LABEL_VALUE, { error: 'expected a label value such as "ssd" (letters, digits, "-", "_" and ".", at most 63)' });

export const taintSchema = obj({
  key: qualifiedName("taint key").describe("The taint's key."),
  value: labelValue.optional().describe("The taint's value; a toleration with operator Equal must name it."),
  effect: z.enum(TAINT_EFFECTS as unknown as [TaintEffect, ...TaintEffect[]]).describe(
    "NoSchedule, PreferNoSchedule or NoExecute. The kubelet's admission reads only NoExecute taints (from 1.24): a pod " +
      "that does not tolerate one is rejected with reason TaintToleration; static pods are exempt.",
  ),
}).describe("A taint on the node (v1.Taint).");

const NAMED = new Set(["cpu", "memory", "ephemeral-storage"]);

function parseCapacity(value: Record<string, unknown>, ctx: z.core.$RefinementCtx<unknown>): NodeCapacity {
  const merged: Record<string, unknown> = { ...DEFAULT_CAPACITY, ...value };
  const out: NodeCapacity = { cpuMilli: 0, memoryBytes: 0, ephemeralStorageBytes: 0, scalar: {} };
  for (const [name, raw] of Object.entries(merged)) {
    if (name === "pods") {
      ctx.addIssue({ code: "custom", path: [name], message: "the node's pod capacity is kubelet.maxPods (the kubelet sets it from its configuration); set that instead" });
      continue;
    }
    if (!NAMED.has(name) && !(name.includes("/") || name.startsWith("hugepages-"))) {
      ctx.addIssue({ code: "custom", path: [name], message: `expected cpu, memory, ephemeral-storage, a hugepages-<size> or an extended resource such as "example.com/gpu", found "${name}"` });
      continue;
    }
    const text = typeof raw === "number" ? String(raw) : raw;
    const milli = typeof text === "string" ? parseQuantityMilli(text) : undefined;
    if (milli === undefined) {
      ctx.addIssue({ code: "custom", path: [name], message: `expected a quantity such as "${name === "cpu" ? "4" : name === "memory" ? "16Gi" : "2"}", found ${describeValue(raw)}` });
      continue;
    }
    if (name === "cpu") out.cpuMilli = milli;
    else if (name === "memory") out.memoryBytes = Math.floor(milli / 1000);
    else if (name === "ephemeral-storage") out.ephemeralStorageBytes = Math.floor(milli / 1000);
    else out.scalar[name] = Math.floor(milli / 1000);
  }
  return out;
}

const capacity = z
  .record(z.string(), z.unknown())
  .transform(parseCapacity)
  .meta({
    typeName: "map of resource name to quantity",
    description:
      `The node's resources (status.capacity; allocatable is the same, the simulator reserves nothing): cpu (default ` +
      `"${DEFAULT_CAPACITY.cpu}"), memory ("${DEFAULT_CAPACITY.memory}"), ephemeral-storage ("${DEFAULT_CAPACITY["ephemeral-storage"]}"), and any ` +
      'extended resource or hugepages-<size> ("example.com/gpu": 2). A pod whose requests do not fit is rejected with ' +
      "OutOf<resource>; an extended resource the node does not list is not checked (a cluster-level resource). The pod " +
      "count is kubelet.maxPods.",
  });

/** The fields of a node, shared by `node:` and each entry of `nodes:` (schema/nodes.ts). */
export const nodeShape = {
  name: z
    .string()
    .min(1)
    .optional()
    .describe("The node's name, as pods' spec.nodeName says; the same as kubelet.nodeName (give one of them). Default node-1."),
  labels: z
    .record(qualifiedName("label key"), labelValue)
    .default({})
    .describe(
      "Labels besides the kubelet's own (kubernetes.io/hostname: the name, kubernetes.io/os: linux, kubernetes.io/arch: " +
        "amd64 and their beta.kubernetes.io twins, as a kind node has). Setting kubernetes.io/os or /arch says what " +
        "platform the kubelet runs on. A pod's nodeSelector and required node affinity must match them.",
    ),
  taints: z.array(taintSchema).max(100).default([]).describe("The node's taints (spec.taints); none by default, as a kind worker."),
  capacity: capacity.prefault({}),
};

export const nodeSchema = obj(nodeShape).describe("The node the kubelet runs as: the labels, taints and capacity its admission checks pods against.");

export type { NodeCapacity, NodeParsed, Taint };
