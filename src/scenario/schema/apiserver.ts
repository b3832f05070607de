// The apiserver the kubelet and the scenario's user talk to: how long a request takes.
import { durationRange, obj } from "./common.ts";

export const DEFAULT_APISERVER_LATENCY = "10ms";

export const apiserverSchema = obj({
  latency: durationRange(
    "Round trip of every apiserver request, the kubelet's and the timeline's alike; the request " +
      "takes effect half-way. A range {min, max} is drawn per request from the run's seed, so the " +
      "gap between the status manager's GET and PATCH (race R15) varies from run to run.",
  ).prefault(DEFAULT_APISERVER_LATENCY),
}).describe("The apiserver: request latency.");
