// The timeline: what the world does to the kubelet at given virtual times. Each step names one
// action; steps at the same time run in file order.
import { z } from "zod";
import { containerName, duration, durationRange, obj, podRef, stringOrObject, trueOrObject } from "./common.ts";
import type { ActionName, Step } from "../types/timeline.ts";

export type { ActionName, Step };

const pod = (what: string) => podRef(`The pod to ${what}.`);
const podOnly = (what: string) =>
  podRef(`The pod to ${what}.`).transform((p) => ({ pod: p }));

const containerTarget = (what: string) =>
  obj({ pod: pod(what), container: containerName(`The container to ${what}.`) });

const imageChange = (what: string) =>
  obj({
    pod: pod(what),
    container: containerName("The container whose image changes."),
    image: z.string().min(1).describe("The new image; the container's spec hash changes, so the kubelet restarts it."),
  });

/** In a cluster (`nodes:`), the node a node-level step happens to; the first node when omitted. */
const onNode = z.string().min(1).optional().describe("In a cluster (`nodes:`), the node this happens to; the first node when omitted.");

/** A cluster step about one node: `cordon: node-b` or `cordon: { node: node-b }`. */
const nodeOnly = (what: string, description: string) =>
  stringOrObject("node", obj({ node: z.string().min(1).describe(`The node (of nodes:) to ${what}.`) }), description);

const downtime = (def: string, what: string) =>
  trueOrObject(obj({ downtime: duration(`How long ${what} stays down.`).prefault(def), node: onNode }), `${what} restarts.`);

/** Every action a step can take. The YAML key is the action's name. */
export const ACTIONS = {
  create: podOnly("create through the apiserver (a pod with source: api)").describe(
    "Create the pod in the apiserver; the kubelet sees it through its watch. Again after a delete, it is a new pod with a new UID.",
  ),
  delete: stringOrObject(
    "pod",
    obj({
      pod: pod("delete gracefully"),
      gracePeriodSeconds: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe("DeleteOptions.gracePeriodSeconds; the pod's terminationGracePeriodSeconds when omitted."),
      uid: z.string().min(1).optional().describe("DeleteOptions.preconditions.uid: delete only if the pod has this UID."),
      target: z
        .enum(["workload", "pod"])
        .optional()
        .describe("In a cluster, for a workload entry: `workload` (the default) deletes the workload and its pods (kubectl delete job); `pod` deletes only the pod that carries the entry's name (kubectl delete pod), which its controller replaces."),
    }),
    "Delete the pod through the apiserver with a grace period (kubectl delete pod).",
  ),
  forceDelete: podOnly("force-delete").describe(
    "Delete with grace period 0 and force (kubectl delete --force --grace-period=0): the object is gone at once.",
  ),
  setImage: imageChange("update").describe("Update a container's image in the apiserver (kubectl set image)."),
  setLabels: obj({
    pod: pod("update"),
    labels: z
      .record(z.string().min(1), z.string().nullable())
      .describe("Labels to set; null removes one. The spec hash does not change, so no container restarts."),
  }).describe("Update the pod's labels in the apiserver: an UPDATE the kubelet sees, without a spec change."),
  staticAdd: podOnly("add as a static pod file (a pod with source: file)").describe(
    "Write the static pod's manifest file. Re-adding an unchanged manifest gives the same UID, as the file source hashes it.",
  ),
  staticUpdate: imageChange("edit").describe("Edit the static pod's manifest file: a new image, hence a new UID."),
  staticRemove: podOnly("remove from the static pod directory").describe("Remove the static pod's manifest file."),
  restartKubelet: downtime("0s", "the kubelet").describe(
    "Restart the kubelet process: all in-memory state (pod workers, probe results, status cache, back-off) is lost.",
  ),
  rebootNode: downtime("10s", "the node").describe(
    "Reboot the node: the kubelet and runtime restart, sandboxes and running containers die; exited records remain.",
  ),
  restartRuntime: downtime("0s", "the runtime").describe("Restart the container runtime; running containers keep running."),
  partition: obj({
    for: duration("How long the apiserver is unreachable."),
    mode: z
      .enum(["fail", "timeout"])
      .default("fail")
      .describe("fail: requests fail at once (connection refused); timeout: they hang until the client times out."),
    node: onNode,
  }).describe("Cut the kubelet off from the apiserver for a while; requests fail and watches break."),
  watchDelay: obj({
    for: duration("How long watch events are delayed."),
    delay: durationRange("The delay of each watch event."),
    node: onNode,
  }).describe("Deliver the kubelet's watch events late for a while."),
  watchDrop: obj({ for: duration("How long watch events are lost."), node: onNode }).describe(
    "Lose watch events for a while, without the kubelet noticing until it re-lists.",
  ),
  watchGone: z
    .literal(true)
    .transform(() => ({}))
    .describe(
    "The kubelet's watch ends with 410 Gone: its reflector must re-list pods from the apiserver.",
  ),
  killSandbox: podRef("The pod whose sandbox dies.").transform((p) => ({ pod: p })).describe("The pod's sandbox dies behind the kubelet's back (its containers die too)."),
  removeSandbox: podRef("The pod whose sandbox is removed.").transform((p) => ({ pod: p })).describe(
    "The runtime removes the pod's newest sandbox and every container in it behind the kubelet's back (crictl rmp -f, a garbage collector): the pod vanishes from the runtime's listing.",
  ),
  removeContainer: containerTarget("remove").describe(
    "The runtime removes the container's latest record behind the kubelet's back (garbage collection, a crictl rm).",
  ),
  oomKill: containerTarget("OOM-kill").describe("The OOM killer kills the running container: exit 137, reason OOMKilled."),
  exitContainer: obj({
    pod: podRef("The pod whose container exits."),
    container: containerName("The container that exits."),
    exitCode: z.number().int().min(0).max(255).default(1).describe("Its exit code."),
  }).describe("The running container exits now, whatever its program says."),
  evict: stringOrObject(
    "pod",
    obj({
      pod: pod("evict"),
      gracePeriodSeconds: z.number().int().min(0).optional().describe("The eviction's grace period; the pod's own when omitted."),
      reason: z.string().min(1).default("Evicted").describe("The status reason the kubelet writes."),
      message: z.string().default("").describe("The status message the kubelet writes."),
    }),
    "A kubelet-internal eviction: the kubelet kills the pod itself and marks it Failed (like the eviction manager).",
  ),
  taintNode: obj({
    node: z.string().min(1).describe("The node (of nodes:) to taint."),
    key: z.string().min(1).describe("The taint's key, e.g. node.kubernetes.io/out-of-service."),
    value: z.string().optional().describe("The taint's value."),
    effect: z.enum(["NoSchedule", "PreferNoSchedule", "NoExecute"]).describe("The taint's effect."),
  }).describe(
    "In a cluster: add a taint to the node's Node object (kubectl taint nodes NODE key=value:effect); one of the same key and effect is replaced. The scheduler and the taint eviction controller act on it.",
  ),
  untaintNode: obj({
    node: z.string().min(1).describe("The node (of nodes:) to untaint."),
    key: z.string().min(1).describe("The key of the taints to remove."),
    effect: z.enum(["NoSchedule", "PreferNoSchedule", "NoExecute"]).optional().describe("Only the taint of this effect; every effect when omitted."),
  }).describe("In a cluster: remove the node's taints of this key (kubectl taint nodes NODE key[:effect]-)."),
  cordon: nodeOnly(
    "cordon",
    "In a cluster: mark the node unschedulable (kubectl cordon NODE: a PATCH of the Node's spec.unschedulable to true). " +
      "The scheduler places no new pod there (the node lifecycle controller adds the node.kubernetes.io/unschedulable:NoSchedule " +
      "taint, which DaemonSet pods tolerate); the pods already running there keep running. A node already cordoned is left as it is.",
  ),
  uncordon: nodeOnly(
    "uncordon",
    "In a cluster: mark the node schedulable again (kubectl uncordon NODE: spec.unschedulable back to false); the taint comes off " +
      "and pods waiting for room are tried again.",
  ),
  deleteNode: nodeOnly(
    "delete",
    "In a cluster: delete the node's Node object (kubectl delete node NODE). Its Lease goes with it (the garbage collector, its owner " +
      "gone); the pod garbage collector force-deletes the pods bound to it once it has been gone 40 s; its kubelet keeps running, " +
      "failing its status updates, and registers the Node again only when it restarts.",
  ),
} as const;

export const ACTION_NAMES = Object.keys(ACTIONS) as ActionName[];

/** A step as the schema makes it, action by action: test/types/schema_types.test.ts checks it is types/timeline.ts's Step. */
export type SchemaStep = {
  [K in keyof typeof ACTIONS]: { atMs: number; kind: K } & z.output<(typeof ACTIONS)[K]>;
}[keyof typeof ACTIONS];

const actionFields = Object.fromEntries(ACTION_NAMES.map((k) => [k, ACTIONS[k].optional()])) as {
  [K in ActionName]: z.ZodOptional<(typeof ACTIONS)[K]>;
};

export const stepSchema = z
  .strictObject({
    at: duration("When the step happens, in virtual time since the start."),
    ...actionFields,
  })
  .superRefine((step, ctx) => {
    const given = ACTION_NAMES.filter((k) => step[k] !== undefined);
    if (given.length === 0) {
      ctx.addIssue({ code: "custom", message: `expected one action (${ACTION_NAMES.join(", ")}), found none` });
    }
    for (const extra of given.slice(1)) {
      ctx.addIssue({
        code: "custom",
        path: [extra],
        message: `expected one action per step, found both ${given[0]} and ${extra}; split them into two steps at the same time`,
      });
    }
  })
  .transform((step): Step => {
    const kind = ACTION_NAMES.find((k) => step[k] !== undefined)!;
    return { atMs: step.at, kind, ...(step[kind] as object) } as Step;
  })
  .describe("One step: `at` plus exactly one action key.");
