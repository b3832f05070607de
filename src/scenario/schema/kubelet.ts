// The simulated kubelet: which version's behaviour to model, and the KubeletConfiguration fields
// (and kubelet.go constants) the models read, under their upstream names and with upstream defaults.
import { z } from "zod";
import { VARIANTS } from "./variants.ts";
import { formatDuration } from "../../sim/duration.ts";
import { duration, durationRange, obj } from "./common.ts";
import { quantity } from "./quantity.ts";
import { MAX_KUBELET_MINOR, MAX_KUBELET_PATCH, MIN_KUBELET_MINOR, isSupportedKubeletVersion, parseKubeletVersion } from "../../kubelet/version.ts";
import { FEATURE_GATE_NAMES, FEATURE_GATES, featureGateDefault, type FeatureGate, type KubeletConfig } from "../types/kubelet.ts";

export { FEATURE_GATE_NAMES, FEATURE_GATES, featureGateDefault, type FeatureGate, type KubeletConfig };

/** A ticker's period: zero would make its loop spin at one virtual instant. */
const POSITIVE = { positive: true } as const;

export { MAX_KUBELET_MINOR, MIN_KUBELET_MINOR };
export const DEFAULT_KUBELET_VERSION = "1.30";
/** The simulated node's name when the scenario names none. */
export const DEFAULT_NODE_NAME = "node-1";

/** A release "1.19" to "1.35" with an optional patch; `what` names whose ("kubelet", "control plane") in the error. */
export const releaseVersion = (what: string) => z
  .unknown()
  .transform((value, ctx): { version: string; minor: number; patch: number } => {
    if (typeof value === "number") {
      ctx.addIssue({
        code: "custom",
        message: `expected a version string such as "1.29" or "1.22.4", found the number ${value}; quote it, since YAML reads 1.30 as the number 1.3`,
      });
      return z.NEVER;
    }
    const v = typeof value === "string" ? parseKubeletVersion(value) : null;
    if (v === null || !isSupportedKubeletVersion(v)) {
      const found = typeof value === "string" ? `"${value}"` : String(value);
      ctx.addIssue({
        code: "custom",
        message: `expected a ${what} version from "1.${MIN_KUBELET_MINOR}" to "1.${MAX_KUBELET_MINOR}", optionally with a patch number ("1.22.4", at most .${MAX_KUBELET_PATCH}), found ${found}`,
      });
      return z.NEVER;
    }
    // Written as given (without a leading "v"): "1.22" stays "1.22", the .0 release.
    return { version: (value as string).trim().replace(/^v/, ""), minor: v.minor, patch: v.patch };
  });

const version = releaseVersion("kubelet")
  .meta({
    typeName: "string",
    description:
      `The kubelet release whose behaviour the models follow, "1.${MIN_KUBELET_MINOR}" to "1.${MAX_KUBELET_MINOR}", with an optional patch ` +
      'number ("1.22.4"); without one it is the .0 release. A fix cherry-picked into a patch release is on from that ' +
      'patch (e.g. static pods of one full name start one at a time from 1.22.5). "1.21" and older use the pre-1.22 pod ' +
      'workers (lastUndeliveredWorkUpdate); "1.22" and later the rewritten ones. Quote it: YAML reads 1.30 as 1.3.',
  });

const featureGates = z
  .strictObject(
    Object.fromEntries(
      FEATURE_GATE_NAMES.map((g) => {
        const { since, onByDefaultFrom } = FEATURE_GATES[g];
        const dflt = onByDefaultFrom === null ? "off in every version" : `on from 1.${onByDefaultFrom}, off before`;
        return [g, z.boolean().optional().describe(`Exists from 1.${since}; by default ${dflt}.`)];
      }),
    ) as Record<FeatureGate, z.ZodOptional<z.ZodBoolean>>,
  )
  .default({})
  .describe(
    "Feature gates by upstream name. An unset gate takes the default of the chosen version. A gate the " +
      "chosen version does not know is an error, as it is for the kubelet.",
  );

const variants = z
  .strictObject(
    Object.fromEntries(VARIANTS.map((v) => [v.name, z.boolean().optional().describe(v.description)])) as Record<string, z.ZodOptional<z.ZodBoolean>>,
  )
  .default({})
  .describe(
    "Model switches the version alone does not select, such as a proposed upstream fix or a planted bug, by name " +
      "(the races in docs/races/ use them). A name no model knows is an error.",
  );

/** The older spelling of node.capacity's cpu and memory, still read: each given value goes there. */
const allocatable = obj({
  cpu: quantity("The node's CPU, as a Kubernetes quantity: node.capacity.cpu.", 1000, "4").optional(),
  memory: quantity("The node's memory, as a Kubernetes quantity: node.capacity.memory.", 1, "16Gi").optional(),
}).transform((a) => ({ cpuMilli: a.cpu, memoryBytes: a.memory }));

const devicePlugin = obj({
  resource: z
    .string()
    .regex(/^[a-z0-9.-]+\/[a-z0-9.-]+$/, { error: 'expected an extended resource name such as "example.com/gpu"' })
    .describe("The extended resource the plugin serves; pods ask for it under resources.limits."),
  devices: z.number().int().min(0).max(1000).default(1).describe("How many healthy devices it reports."),
  registerAfter: durationRange(
    "How long after each kubelet start the plugin (re-)registers on the kubelet's socket; a range {min, max} is drawn per start.",
  ).prefault("0s"),
}).describe("A device plugin on the node (pkg/kubelet/cm/devicemanager).");

const kubeletObject = obj({
  version: version.prefault(DEFAULT_KUBELET_VERSION),
  runOnce: z
    .boolean()
    .default(false)
    .describe("Run as `kubelet --runonce`: start the static pods once, wait for them, and exit (pkg/kubelet/runonce.go)."),
  nodeName: z.string().min(1).default(DEFAULT_NODE_NAME).describe("The node's name, as pods' spec.nodeName will say; node.name says the same (give one of them)."),
  nodeIP: z
    .string()
    .regex(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, { error: "expected an IPv4 address such as 192.168.0.10" })
    .default("192.168.0.10")
    .describe("--node-ip: the node's address. Pods get it as status.hostIP (and hostIPs from 1.29), host-network pods as their pod IP."),
  syncFrequency: duration("KubeletConfiguration: the period of the pod workers' periodic resync.", POSITIVE).prefault("1m"),
  fileCheckFrequency: duration("KubeletConfiguration: how often the static pod directory is re-read.", POSITIVE).prefault("20s"),
  httpCheckFrequency: duration("KubeletConfiguration: how often the static pod URL is re-fetched.", POSITIVE).prefault("20s"),
  nodeStatusUpdateFrequency: duration("KubeletConfiguration: how often the kubelet posts node status.", POSITIVE).prefault("10s"),
  runtimeRequestTimeout: duration("KubeletConfiguration: the timeout of every CRI call except long-running ones.").prefault(
    "2m",
  ),
  maxPods: z.number().int().min(1).max(10_000).default(110).describe("KubeletConfiguration: pods admitted at most."),
  serializeImagePulls: z
    .boolean()
    .default(true)
    .describe("KubeletConfiguration: pull one image at a time (true) or in parallel (false)."),
  housekeepingPeriod: duration("kubelet.go constant: the period of HandlePodCleanups.", POSITIVE).prefault("2s"),
  plegRelistPeriod: duration("kubelet.go constant: the generic PLEG's relist period.", POSITIVE).prefault("1s"),
  plegRelistThreshold: duration("pleg/generic.go constant: PLEG is unhealthy when relist is older than this.").prefault(
    "3m",
  ),
  statusSyncPeriod: duration("status_manager.go constant: the status manager's batch sync period.", POSITIVE).prefault("10s"),
  backOffPeriod: duration("kubelet.go constant: the first crash-loop and image-pull back-off delay.").prefault("10s"),
  maxContainerBackOff: duration("kubelet.go constant: the cap of the crash-loop and image-pull back-off.").prefault("5m"),
  allocatable: allocatable
    .optional()
    .describe("The node's cpu and memory, as node.capacity says them (the older place; giving a value in both is an error)."),
  devicePlugins: z
    .array(devicePlugin)
    .max(20)
    .default([])
    .describe("Device plugins serving extended resources; until a plugin has registered, pods asking for its resource fail admission (UnexpectedAdmissionError)."),
  featureGates,
  variants,
});

function checkGates(k: z.output<typeof kubeletObject>, ctx: z.core.$RefinementCtx<unknown>): void {
  // flowcontrol.NewBackOff needs initial <= max; a cap below the first delay cannot be modelled.
  if (k.maxContainerBackOffMs < k.backOffPeriodMs) {
    ctx.addIssue({
      code: "custom",
      path: ["maxContainerBackOff"],
      message: `expected maxContainerBackOff >= backOffPeriod (${formatDuration(k.backOffPeriodMs)}), found ${formatDuration(k.maxContainerBackOffMs)}`,
    });
  }
  for (const gate of FEATURE_GATE_NAMES) {
    const since = FEATURE_GATES[gate].since;
    if (k.featureGates[gate] !== undefined && k.version.minor < since) {
      ctx.addIssue({
        code: "custom",
        path: ["featureGates", gate],
        message: `unrecognized feature gate for kubelet ${k.version.version}: ${gate} exists from 1.${since}`,
      });
    }
  }
}

export const kubeletSchema = kubeletObject
  .superRefine(checkGates)
  .transform((k) => ({
    ...k,
    version: k.version.version,
    minor: k.version.minor,
    patch: k.version.patch,
    featureGates: Object.fromEntries(
      FEATURE_GATE_NAMES.map((g) => [g, k.featureGates[g] ?? featureGateDefault(g, k.version.minor)]),
    ) as Record<FeatureGate, boolean>,
  }))
  .describe("The simulated kubelet: its version and configuration.");
