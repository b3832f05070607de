// The scheduler stand-in: kube-scheduler is not modelled, but a race may need its one reaction that
// matters to a kubelet (race R11): binding a waiting pod to the node as soon as the apiserver shows
// that another pod, whose resources it needed, reached a terminal phase.
import { z } from "zod";
import { durationRange, obj, podRef } from "./common.ts";
import type { Binding } from "../types/scenario.ts";

export type { Binding };

export const bindingSchema = obj({
  bind: podRef("The waiting pod (source: api) the scheduler binds to this node."),
  whenTerminal: podRef("The pod whose Succeeded or Failed phase in the apiserver frees the room the waiting pod needs."),
  latency: durationRange(
    "From the watch event that shows the terminal phase to the bound pod in the apiserver (scheduling cycle and " +
      "binding); a range {min, max} is drawn per run from the run's seed.",
  ).prefault("0s"),
}).describe("One binding: when `whenTerminal` shows a terminal phase, `bind` is created bound to the node.");

export const schedulerSchema = z
  .array(bindingSchema)
  .max(100)
  .default([])
  .describe(
    "A stand-in for kube-scheduler: each binding creates its pod, already bound to this node, once the apiserver " +
      "shows the other pod Succeeded or Failed. The scheduler counts a pod in a terminal phase as gone, as its " +
      "node resource accounting does.",
  );
