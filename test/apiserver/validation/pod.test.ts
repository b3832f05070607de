// Transcribed from pkg/apis/core/validation/validation_test.go TestValidatePodSpec (failure cases),
// TestValidatePod (error cases), TestValidatePodCreateWithSchedulingGates and TestValidatePodUpdate
// (case names kept). Upstream checks that the aggregate message contains the expected text; so do
// these. Cases about what the port does not model are listed with the reason.
import { describe, expect, it } from "vitest";
import { aggregateText, ValidatePodCreate, ValidatePodUpdate, APISERVER_POD_OPTIONS, ZERO_POD_OPTIONS } from "../../../src/apiserver/validation/index.ts";
import { FieldPath, errorText } from "../../../src/apiserver/validation/field.ts";
import { validatePodSpec } from "../../../src/apiserver/validation/podspec.ts";
import type { Pod } from "../../../src/k8s/pod.ts";
import { makeContainer, makePod, getResources, type Loose } from "./helpers.ts";

const POD_OPTS = { ...ZERO_POD_OPTIONS, resourceIsPod: true };

describe("TestValidatePodSpec", () => {
  it("accepts the basic pod", () => {
    expect(validatePodSpec(makePod("").spec, FieldPath.of("field"), POD_OPTS)).toEqual([]);
  });

  const ctrWithPort = (port: Loose) => [makeContainer("ctr", { ports: [port] })];
  const failureCases: Array<[string, Loose]> = [
    ["bad container", { containers: [{}] }],
    ["bad init container", { initContainers: [{}] }],
    ["bad DNS policy", { dnsPolicy: "invalid" }],
    ["bad service account name", { serviceAccountName: "invalidName" }],
    ["bad restart policy", { restartPolicy: "UnknowPolicy" }],
    ["with hostNetwork hostPort unspecified", { containers: ctrWithPort({ hostPort: 0, containerPort: 2600, protocol: "TCP" }), hostNetwork: true }],
    ["with hostNetwork hostPort not equal to containerPort", { containers: ctrWithPort({ hostPort: 8080, containerPort: 2600, protocol: "TCP" }), hostNetwork: true }],
    ["bad-active-deadline-seconds", { activeDeadlineSeconds: 0 }],
    ["active-deadline-seconds-too-large", { activeDeadlineSeconds: 2 ** 31 }],
    ["bad nodeName", { nodeName: "node name" }],
    ["bad PriorityClassName", { priorityClassName: "InvalidName" }],
    ["bad RuntimeClassName", { runtimeClassName: "invalid/sandbox" }],
  ];
  it.each(failureCases)("expected failure for %s", (_name, spec) => {
    expect(validatePodSpec(makePod("", spec).spec, FieldPath.of("field"), POD_OPTS).length).toBeGreaterThan(0);
  });
  // Left out: hostAliases, supplementalGroups, runAsUser, fsGroup, ShareProcessNamespace with HostPID,
  // fsGroupChangePolicy: pod securityContext and hostAliases are not modelled.
});

describe("TestValidatePod", () => {
  const errorCases: Array<[string, string, Pod]> = [
    ["image whitespace", "spec.containers[0].image", makePod("123", { containers: [makeContainer("ctr", { image: " " })] })],
    ["image leading and trailing whitespace", "spec.containers[0].image", makePod("123", { containers: [makeContainer("ctr", { image: " something " })] })],
    ["bad namespace", "metadata.namespace", makePod("123", {}, { namespace: "" })],
    ["bad spec", "spec.containers[0].name", makePod("123", { containers: [{}] })],
    ["bad label", "NoUppercaseOrSpecialCharsLike=Equals", makePod("123", {}, { labels: { "NoUppercaseOrSpecialCharsLike=Equals": "bar" } })],
  ];
  it.each(errorCases)("%s", (_name, expectedError, pod) => {
    const errs = ValidatePodCreate(pod, ZERO_POD_OPTIONS);
    expect(errs.length).toBeGreaterThan(0);
    expect(aggregateText(errs)).toContain(expectedError);
  });
  // Left out: node affinity, pod (anti-)affinity, seccomp and AppArmor cases: not modelled.
});

describe("TestValidatePodCreateWithSchedulingGates", () => {
  it("create a Pod with nodeName and schedulingGates, feature enabled", () => {
    const errs = ValidatePodCreate(makePod("pod", { nodeName: "node", schedulingGates: [{ name: "foo" }] }), ZERO_POD_OPTIONS);
    expect(errs.map(errorText)).toEqual(["spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared"]);
  });
  it("create a Pod with schedulingGates, feature enabled", () => {
    expect(ValidatePodCreate(makePod("pod", { schedulingGates: [{ name: "foo" }] }), ZERO_POD_OPTIONS)).toEqual([]);
  });
});

describe("TestValidatePodUpdate", () => {
  const now = "2024-05-01T10:00:00Z";
  const withContainers = (name: string, ...cs: Array<[string, string]>) =>
    makePod(name, { containers: cs.map(([n, image]) => makeContainer(n, { image })) });
  const withInits = (name: string, ...cs: Array<[string, string]>) =>
    makePod(name, { initContainers: cs.map(([n, image]) => makeContainer(n, { image })) });
  const deadline = (n: number | null) => makePod("", n === null ? {} : { activeDeadlineSeconds: n });
  const resources = (r: Loose) => makePod("pod", { containers: [makeContainer("container", { resources: r })] });
  const tolerations = (nodeName: string, ...ts: Loose[]) => makePod("foo", { nodeName, tolerations: ts });
  const mirror = (value: string | null) => makePod("foo", { nodeName: "foo" }, value === null ? {} : { annotations: { "kubernetes.io/config.mirror": value } });
  const gates = (...names: string[]) => makePod("foo", { schedulingGates: names.map((name) => ({ name })) });

  const tests: Array<[string, Pod, Pod, string]> = [
    ["nothing", makePod(""), makePod(""), ""],
    ["ids", makePod("foo"), makePod("bar"), "metadata.name"],
    ["labels", makePod("foo", {}, { labels: { foo: "bar" } }), makePod("foo", {}, { labels: { bar: "foo" } }), ""],
    ["annotations", makePod("foo", {}, { annotations: { foo: "bar" } }), makePod("foo", {}, { annotations: { bar: "foo" } }), ""],
    ["less containers", withContainers("foo", ["foo", "foo:V2"]), withContainers("foo", ["foo", "foo:V1"], ["bar", "bar:V1"]), "may not add or remove containers"],
    ["more containers", withContainers("foo", ["foo", "foo:V2"], ["bar", "bar:V2"]), withContainers("foo", ["foo", "foo:V1"]), "may not add or remove containers"],
    ["more init containers", withInits("foo", ["foo", "foo:V2"]), withInits("foo", ["foo", "foo:V1"], ["bar", "bar:V1"]), "may not add or remove containers"],
    ["deletion timestamp removed", makePod("foo"), makePod("foo", {}, { deletionTimestamp: now }), "metadata.deletionTimestamp"],
    ["deletion timestamp added", makePod("foo", {}, { deletionTimestamp: now }), makePod("foo"), "metadata.deletionTimestamp"],
    ["deletion grace period seconds changed", makePod("foo", {}, { deletionTimestamp: now, deletionGracePeriodSeconds: 30 }),
      makePod("foo", {}, { deletionTimestamp: now, deletionGracePeriodSeconds: 31 }), "metadata.deletionGracePeriodSeconds"],
    ["image change", withContainers("foo", ["container", "foo:V1"]), withContainers("foo", ["container", "foo:V2"]), ""],
    ["init container image change", withInits("foo", ["container", "foo:V1"]), withInits("foo", ["container", "foo:V2"]), ""],
    ["image change to empty", withContainers("foo", ["container", ""]), withContainers("foo", ["container", "foo:V2"]), "spec.containers[0].image"],
    ["init container image change to empty", withInits("foo", ["container", ""]), withInits("foo", ["container", "foo:V2"]), "spec.initContainers[0].image"],
    ["ephemeralContainer changes are not allowed via normal pod update",
      makePod("foo", { ephemeralContainers: [{ name: "ephemeral", image: "busybox" }] }), makePod("foo"), "Forbidden: pod updates may not change fields other than"],
    ["activeDeadlineSeconds no change, nil", deadline(null), deadline(null), ""],
    ["activeDeadlineSeconds no change, set", deadline(30), deadline(30), ""],
    ["activeDeadlineSeconds change to positive from nil", deadline(30), deadline(null), ""],
    ["activeDeadlineSeconds change to smaller positive", deadline(30), deadline(31), ""],
    ["activeDeadlineSeconds change to larger positive", deadline(31), deadline(30), "spec.activeDeadlineSeconds"],
    ["activeDeadlineSeconds change to negative from nil", deadline(-30), deadline(null), "spec.activeDeadlineSeconds"],
    ["activeDeadlineSeconds change to negative from positive", deadline(-30), deadline(30), "spec.activeDeadlineSeconds"],
    ["activeDeadlineSeconds change to zero from positive", deadline(0), deadline(30), "spec.activeDeadlineSeconds"],
    ["activeDeadlineSeconds change to zero from nil", deadline(0), deadline(null), "spec.activeDeadlineSeconds"],
    ["activeDeadlineSeconds change to nil from positive", deadline(null), deadline(30), "spec.activeDeadlineSeconds"],
    ["cpu limit change", resources({ limits: getResources("200m", "0", "1Gi") }), resources({ limits: getResources("100m", "0", "1Gi") }), "spec: Forbidden: pod updates may not change fields"],
    ["memory limit change", resources({ limits: getResources("100m", "100Mi", "") }), resources({ limits: getResources("100m", "200Mi", "") }), "spec: Forbidden: pod updates may not change fields"],
    ["storage limit change", resources({ limits: getResources("100m", "100Mi", "1Gi") }), resources({ limits: getResources("100m", "100Mi", "2Gi") }), "Forbidden: pod updates may not change fields other than"],
    ["cpu request change", resources({ requests: getResources("100m", "0", "") }), resources({ requests: getResources("200m", "0", "") }), "spec: Forbidden: pod updates may not change fields"],
    ["memory request change", resources({ requests: getResources("0", "200Mi", "") }), resources({ requests: getResources("0", "100Mi", "") }), "spec: Forbidden: pod updates may not change fields"],
    ["storage request change", resources({ requests: getResources("100m", "0", "2Gi") }), resources({ requests: getResources("100m", "0", "1Gi") }), "Forbidden: pod updates may not change fields other than"],
    ["port change", makePod("pod", { containers: [makeContainer("container", { ports: [{ hostPort: 8080, containerPort: 80 }] })] }),
      makePod("pod", { containers: [makeContainer("container", { ports: [{ hostPort: 8000, containerPort: 80 }] })] }), "spec: Forbidden: pod updates may not change fields"],
    ["bad label change", makePod("foo", {}, { labels: { foo: "bar" } }), makePod("foo", {}, { labels: { bar: "foo" } }), ""],
    ["existing toleration value modified in pod spec updates", tolerations("node1", { key: "key1", value: "value2" }), tolerations("node1", { key: "key1", value: "value1" }), "spec.tolerations: Forbidden"],
    ["existing toleration value modified in pod spec updates with modified tolerationSeconds",
      tolerations("node1", { key: "key1", value: "value2", operator: "Equal", effect: "NoExecute" }),
      tolerations("node1", { key: "key1", value: "value1", operator: "Equal", effect: "NoExecute", tolerationSeconds: 10 }), "spec.tolerations: Forbidden"],
    ["modified tolerationSeconds in existing toleration value in pod spec updates",
      tolerations("node1", { key: "key1", value: "value1", operator: "Equal", effect: "NoExecute", tolerationSeconds: 10 }),
      tolerations("node1", { key: "key1", value: "value1", operator: "Equal", effect: "NoExecute", tolerationSeconds: 20 }), ""],
    ["toleration modified in updates to an unscheduled pod", tolerations("", { key: "key1", value: "value2" }), tolerations("", { key: "key1", value: "value1" }), "spec.tolerations: Forbidden"],
    ["tolerations unmodified in updates to a scheduled pod", tolerations("node1", { key: "key1", value: "value1" }), tolerations("node1", { key: "key1", value: "value1" }), ""],
    ["added valid new toleration to existing tolerations in pod spec updates",
      tolerations("node1", { key: "key1", value: "value1", operator: "Equal", effect: "NoExecute", tolerationSeconds: 20 },
        { key: "key2", value: "value2", operator: "Equal", effect: "NoExecute", tolerationSeconds: 30 }),
      tolerations("node1", { key: "key1", value: "value1", operator: "Equal", effect: "NoExecute", tolerationSeconds: 10 }), ""],
    ["added invalid new toleration to existing tolerations in pod spec updates",
      tolerations("node1", { key: "key1", value: "value1", operator: "Equal", effect: "NoExecute", tolerationSeconds: 20 },
        { key: "key2", value: "value2", operator: "Equal", effect: "NoSchedule", tolerationSeconds: 30 }),
      tolerations("node1", { key: "key1", value: "value1", operator: "Equal", effect: "NoExecute", tolerationSeconds: 10 }), "spec.tolerations[1].effect"],
    ["removed nodeName from pod spec", makePod("foo", { nodeName: "foo" }), makePod("foo"), "spec: Forbidden: pod updates may not change fields"],
    ["added mirror pod annotation", mirror(""), mirror(null), "metadata.annotations[kubernetes.io/config.mirror]"],
    ["removed mirror pod annotation", mirror(null), mirror(""), "metadata.annotations[kubernetes.io/config.mirror]"],
    ["changed mirror pod annotation", mirror("foo"), mirror("bar"), "metadata.annotations[kubernetes.io/config.mirror]"],
    ["changed priority class name", makePod("foo", { nodeName: "node1", priorityClassName: "bar-priority" }), makePod("foo", { nodeName: "node1", priorityClassName: "foo-priority" }), "spec: Forbidden: pod updates"],
    ["removed priority class name", makePod("foo", { nodeName: "node1", priorityClassName: "" }), makePod("foo", { nodeName: "node1", priorityClassName: "foo-priority" }), "spec: Forbidden: pod updates"],
    ["update termination grace period seconds", makePod("foo", { terminationGracePeriodSeconds: 1 }), makePod("foo", { terminationGracePeriodSeconds: -1 }), ""],
    ["update termination grace period seconds not 1", makePod("foo", { terminationGracePeriodSeconds: 0 }), makePod("foo", { terminationGracePeriodSeconds: -1 }), "spec: Forbidden: pod updates"],
    ["update pod spec schedulingGates: add new scheduling gate", gates("foo"), gates(), "Forbidden: only deletion is allowed, but found new scheduling gate 'foo'"],
    ["update pod spec schedulingGates: mutating an existing scheduling gate", gates("bar"), gates("foo"), "Forbidden: only deletion is allowed, but found new scheduling gate 'bar'"],
    ["update pod spec schedulingGates: mutating an existing scheduling gate along with deletion", gates("baz"), gates("foo", "bar"),
      "Forbidden: only deletion is allowed, but found new scheduling gate 'baz'"],
    ["update pod spec schedulingGates: legal deletion", gates(), gates("foo"), ""],
    ["adding node selector is not allowed for non-gated pods", makePod("foo", { nodeSelector: { foo: "bar", foo2: "bar2" } }), makePod("foo", { nodeSelector: { foo: "bar" } }),
      "Forbidden: pod updates may not change fields other than `spec.containers[*].image"],
    ["removing node selector is not allowed for non-gated pods", makePod("foo"), makePod("foo", { nodeSelector: { foo: "bar" } }),
      "Forbidden: pod updates may not change fields other than `spec.containers[*].image"],
  ];

  it.each(tests)("%s", (_test, next, old, err) => {
    // As upstream's loop: a resourceVersion on both, and a name when neither has an opinion.
    for (const p of [next, old]) p.metadata.resourceVersion = "1";
    if (next.metadata.name === "" && old.metadata.name === "") next.metadata.name = old.metadata.name = "name";
    const errs = ValidatePodUpdate(next, old, APISERVER_POD_OPTIONS);
    if (err === "") expect(errs.map(errorText)).toEqual([]);
    else expect(aggregateText(errs)).toContain(err);
  });
  // Left out: the QoS, resize and OS cases (pod-level resources, in-place resize and os are not
  // modelled), fsGroupChangePolicy (securityContext), and the gated-pod nodeSelector and affinity
  // relaxations (scheduling gates do not relax updates here).
});
