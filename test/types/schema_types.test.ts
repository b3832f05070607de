// The types the package declares are written out by hand (src/k8s/pod.ts, src/scenario/types/,
// src/record/run_record.ts), so that a consumer's tsc reads no zod; each must be exactly what its
// zod schema parses to, or they would drift. These are type-level checks: `tsc --noEmit -p .` (the
// first step of npm test) fails on a difference; the test bodies only name them for vitest.
import { describe, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import * as pod from "../../src/k8s/pod.ts";
import * as podSchemas from "../../src/k8s/pod_schema.ts";
import type { ContainerBehaviour } from "../../src/scenario/types/behaviour.ts";
import type { Condition, Expectation } from "../../src/scenario/types/expect.ts";
import type { KubeletConfig } from "../../src/scenario/types/kubelet.ts";
import type { RuntimeConfig } from "../../src/scenario/types/runtime.ts";
import { nodeSchema } from "../../src/scenario/schema/node.ts";
import type { NodeParsed } from "../../src/scenario/types/node.ts";
import type { ApiserverConfig, Binding, ParsedScenario, PodEntryParsed } from "../../src/scenario/types/scenario.ts";
import type { ScenarioStrategy, SwarmConfig } from "../../src/scenario/types/strategy.ts";
import type { ActionName, Step } from "../../src/scenario/types/timeline.ts";
import type { ACTIONS, SchemaStep, stepSchema } from "../../src/scenario/schema/timeline.ts";
import type { containerBehaviourSchema } from "../../src/scenario/schema/behaviour.ts";
import type { conditionSchema, expectationSchema } from "../../src/scenario/schema/expect.ts";
import type { kubeletSchema } from "../../src/scenario/schema/kubelet.ts";
import type { runtimeSchema } from "../../src/scenario/schema/runtime.ts";
import type { apiserverSchema } from "../../src/scenario/schema/apiserver.ts";
import type { bindingSchema } from "../../src/scenario/schema/scheduler.ts";
import type { podEntrySchema } from "../../src/scenario/schema/pods.ts";
import type { scenarioSchema } from "../../src/scenario/schema/scenario.ts";
import type { strategySchema, swarmSchema } from "../../src/scenario/schema/strategy.ts";
import type { RunRecord } from "../../src/record/run_record.ts";
import type { runRecordSchema } from "../../src/record/run_record_schema.ts";

type Out<S extends z.ZodType> = z.output<S>;

/** Identical types (the compiler's own identity check); used where expectTypeOf's deep brand trips on zod's mapped intersections. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Flat<T> = { [K in keyof T]: T[K] };
/** Each step kind's fields, as the schema makes them and as types/timeline.ts writes them. */
type StepsAgree = { [K in ActionName]: Equal<Flat<Extract<SchemaStep, { kind: K }>>, Flat<Extract<Step, { kind: K }>>> };

describe("k8s/pod.ts is what k8s/pod_schema.ts parses to", () => {
  it("Pod and its parts", () => {
    expectTypeOf<Out<typeof podSchemas.podSchema>>().toEqualTypeOf<pod.Pod>();
    expectTypeOf<Out<typeof podSchemas.podSpecSchema>>().toEqualTypeOf<pod.PodSpec>();
    expectTypeOf<Out<typeof podSchemas.podStatusSchema>>().toEqualTypeOf<pod.PodStatus>();
    expectTypeOf<Out<typeof podSchemas.objectMetaSchema>>().toEqualTypeOf<pod.ObjectMeta>();
    expectTypeOf<Out<typeof podSchemas.containerSchema>>().toEqualTypeOf<pod.Container>();
    expectTypeOf<Out<typeof podSchemas.ephemeralContainerSchema>>().toEqualTypeOf<pod.EphemeralContainer>();
    expectTypeOf<Out<typeof podSchemas.containerStatusSchema>>().toEqualTypeOf<pod.ContainerStatus>();
    expectTypeOf<Out<typeof podSchemas.containerStateSchema>>().toEqualTypeOf<pod.ContainerState>();
    expectTypeOf<Out<typeof podSchemas.podConditionSchema>>().toEqualTypeOf<pod.PodCondition>();
    expectTypeOf<Out<typeof podSchemas.podPhaseSchema>>().toEqualTypeOf<pod.PodPhase>();
    expectTypeOf<Out<typeof podSchemas.restartPolicySchema>>().toEqualTypeOf<pod.RestartPolicy>();
    expectTypeOf<Out<typeof podSchemas.affinitySchema>>().toEqualTypeOf<pod.Affinity>();
    expectTypeOf<Out<typeof podSchemas.nodeSelectorSchema>>().toEqualTypeOf<pod.NodeSelector>();
    expectTypeOf<Out<typeof podSchemas.tolerationSchema>>().toEqualTypeOf<pod.PodToleration>();
    expectTypeOf<Out<typeof podSchemas.probeSchema>>().toEqualTypeOf<pod.Probe>();
    expectTypeOf<Out<typeof podSchemas.lifecycleSchema>>().toEqualTypeOf<pod.Lifecycle>();
    expectTypeOf<Out<typeof podSchemas.lifecycleHandlerSchema>>().toEqualTypeOf<pod.LifecycleHandler>();
    expectTypeOf<Out<typeof podSchemas.httpGetActionSchema>>().toEqualTypeOf<pod.HTTPGetAction>();
    expectTypeOf<Out<typeof podSchemas.execActionSchema>>().toEqualTypeOf<pod.ExecAction>();
    expectTypeOf<Out<typeof podSchemas.tcpSocketActionSchema>>().toEqualTypeOf<pod.TCPSocketAction>();
    expectTypeOf<Out<typeof podSchemas.grpcActionSchema>>().toEqualTypeOf<pod.GRPCAction>();
    expectTypeOf<Out<typeof podSchemas.containerPortSchema>>().toEqualTypeOf<pod.ContainerPort>();
    expectTypeOf<Out<typeof podSchemas.envVarSchema>>().toEqualTypeOf<pod.EnvVar>();
    expectTypeOf<Out<typeof podSchemas.resourceRequirementsSchema>>().toEqualTypeOf<pod.ResourceRequirements>();
    expectTypeOf<Out<typeof podSchemas.ownerReferenceSchema>>().toEqualTypeOf<pod.OwnerReference>();
  });
});

describe("scenario/types/ is what scenario/schema/ parses to", () => {
  it("the scenario and each of its sections", () => {
    expectTypeOf<Out<typeof scenarioSchema>>().toEqualTypeOf<ParsedScenario>();
    expectTypeOf<Out<typeof kubeletSchema>>().toEqualTypeOf<KubeletConfig>();
    expectTypeOf<Out<typeof nodeSchema>>().toEqualTypeOf<NodeParsed>();
    expectTypeOf<Out<typeof runtimeSchema>>().toEqualTypeOf<RuntimeConfig>();
    expectTypeOf<Out<typeof apiserverSchema>>().toEqualTypeOf<ApiserverConfig>();
    expectTypeOf<Out<typeof podEntrySchema>>().toEqualTypeOf<PodEntryParsed>();
    expectTypeOf<Out<typeof containerBehaviourSchema>>().toEqualTypeOf<ContainerBehaviour>();
    expectTypeOf<Out<typeof bindingSchema>>().toEqualTypeOf<Binding>();
    expectTypeOf<Out<typeof conditionSchema>>().toEqualTypeOf<Condition>();
    expectTypeOf<Out<typeof expectationSchema>>().toEqualTypeOf<Expectation>();
    expectTypeOf<Out<typeof strategySchema>>().toEqualTypeOf<ScenarioStrategy>();
    expectTypeOf<Out<typeof swarmSchema>>().toEqualTypeOf<SwarmConfig>();
  });

  it("every timeline action, as the steps the schema makes", () => {
    expectTypeOf<ActionName>().toEqualTypeOf<keyof typeof ACTIONS>();
    expectTypeOf<StepsAgree>().toEqualTypeOf<{ [K in ActionName]: true }>();
    expectTypeOf<Out<typeof stepSchema>>().toEqualTypeOf<Step>();
  });
});

describe("record/run_record.ts's RunRecord is what its schema parses to", () => {
  it("RunRecord (explore's ReproRecord is checked where it is declared, in src/explore/repro.ts)", () => {
    expectTypeOf<Out<typeof runRecordSchema>>().toEqualTypeOf<RunRecord>();
  });
});
