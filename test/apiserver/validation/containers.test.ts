// Transcribed from pkg/apis/core/validation/validation_test.go TestValidateContainers and
// TestValidateInitContainers (case titles kept). As upstream, each case compares the errors' type
// and field only. Cases about fields the port does not model (securityContext) are listed below
// the tables with the reason they are left out.
import { describe, expect, it } from "vitest";
import { validateContainers, validateInitContainers } from "../../../src/apiserver/validation/containers.ts";
import { FieldPath } from "../../../src/apiserver/validation/field.ts";
import type { Container } from "../../../src/k8s/pod.ts";
import { context, e, getResources, T, typeAndField, type Loose } from "./helpers.ts";

/** A container literal with upstream's ImagePullPolicy and TerminationMessagePolicy filled in. */
const c = (fields: Loose): Container => ({ imagePullPolicy: "IfNotPresent", terminationMessagePolicy: "File", ...fields }) as Container;
const tcp80 = { tcpSocket: { port: 80 } };
const negatives = { initialDelaySeconds: -1, timeoutSeconds: -1, periodSeconds: -1, successThreshold: -1, failureThreshold: -1, terminationGracePeriodSeconds: -1 };
const probeErrors = (probe: string, extra: ReturnType<typeof e>[]) => [
  ...["initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold", "terminationGracePeriodSeconds"]
    .map((f) => e(T.Invalid, `containers[0].${probe}.${f}`)),
  ...extra,
];

describe("TestValidateContainers", () => {
  it("successCase", () => {
    const successCase = [
      c({ name: "abc", image: "image" }),
      // backwards compatibility to ensure containers in pod template spec do not check for this
      c({ name: "def", image: " " }),
      c({ name: "ghi", image: " some  " }),
      c({ name: "123", image: "image" }),
      c({ name: "abc-123", image: "image" }),
      c({ name: "life-123", image: "image", lifecycle: { preStop: { exec: { command: ["ls", "-l"] } } } }),
      c({ name: "resources-test", image: "image", resources: { limits: { cpu: "10", memory: "10G", "my.org/resource": "10" } } }),
      c({ name: "resources-test-with-request-and-limit", image: "image", resources: { requests: { cpu: "10", memory: "10G" }, limits: { cpu: "10", memory: "10G" } } }),
      c({ name: "resources-request-limit-simple", image: "image", resources: { requests: { cpu: "8" }, limits: { cpu: "10" } } }),
      c({ name: "resources-request-limit-edge", image: "image", resources: {
        requests: { cpu: "10", memory: "10G", "my.org/resource": "10" }, limits: { cpu: "10", memory: "10G", "my.org/resource": "10" } } }),
      c({ name: "resources-request-limit-partials", image: "image", resources: {
        requests: { cpu: "9.5", memory: "10G" }, limits: { cpu: "10", "my.org/resource": "10" } } }),
      c({ name: "resources-request", image: "image", resources: { requests: { cpu: "9.5", memory: "10G" } } }),
      c({ name: "resources-resize-policy", image: "image", resizePolicy: [{ resourceName: "cpu", restartPolicy: "NotRequired" }, { resourceName: "memory", restartPolicy: "RestartContainer" }] }),
      c({ name: "same-host-port-different-protocol", image: "image", ports: [
        { containerPort: 80, hostPort: 80, protocol: "TCP" }, { containerPort: 80, hostPort: 80, protocol: "UDP" }] }),
      c({ name: "fallback-to-logs-termination-message", image: "image", terminationMessagePolicy: "FallbackToLogsOnError" }),
      c({ name: "file-termination-message", image: "image", terminationMessagePolicy: "File" }),
      c({ name: "env-from-source", image: "image", envFrom: [{ configMapRef: { name: "test" } }] }),
      c({ name: "live-123", image: "image", livenessProbe: { ...tcp80, successThreshold: 1 } }),
      c({ name: "startup-123", image: "image", startupProbe: { ...tcp80, successThreshold: 1 } }),
      c({ name: "resize-policy-cpu", image: "image", resizePolicy: [{ resourceName: "cpu", restartPolicy: "NotRequired" }] }),
      c({ name: "resize-policy-mem", image: "image", resizePolicy: [{ resourceName: "memory", restartPolicy: "RestartContainer" }] }),
      c({ name: "resize-policy-cpu-and-mem", image: "image", resizePolicy: [
        { resourceName: "memory", restartPolicy: "NotRequired" }, { resourceName: "cpu", restartPolicy: "RestartContainer" }] }),
    ];
    expect(validateContainers(successCase, context("Always"), FieldPath.of("field"))).toEqual([]);
  });

  const errorCases: Array<[string, Container[], ReturnType<typeof e>[]]> = [
    ["zero-length name", [c({ name: "", image: "image" })], [e(T.Required, "containers[0].name")]],
    ["zero-length-image", [c({ name: "abc", image: "" })], [e(T.Required, "containers[0].image")]],
    ["name > 63 characters", [c({ name: "a".repeat(64), image: "image" })], [e(T.Invalid, "containers[0].name")]],
    ["name not a DNS label", [c({ name: "a.b.c", image: "image" })], [e(T.Invalid, "containers[0].name")]],
    ["name not unique", [c({ name: "abc", image: "image" }), c({ name: "abc", image: "image" })], [e(T.Duplicate, "containers[1].name")]],
    ["zero-length image", [c({ name: "abc", image: "" })], [e(T.Required, "containers[0].image")]],
    ["host port not unique", [
      c({ name: "abc", image: "image", ports: [{ containerPort: 80, hostPort: 80, protocol: "TCP" }] }),
      c({ name: "def", image: "image", ports: [{ containerPort: 81, hostPort: 80, protocol: "TCP" }] }),
    ], [e(T.Duplicate, "containers[1].ports[0].hostPort")]],
    ["invalid env var name", [c({ name: "abc", image: "image", env: [{ name: "ev!1" }] })], [e(T.Invalid, "containers[0].env[0].name")]],
    ["unknown volume name", [c({ name: "abc", image: "image", volumeMounts: [{ name: "anything", mountPath: "/foo" }] })],
      [e(T.NotFound, "containers[0].volumeMounts[0].name")]],
    ["invalid lifecycle, no exec command.", [c({ name: "life-123", image: "image", lifecycle: { preStop: { exec: {} } } })],
      [e(T.Required, "containers[0].lifecycle.preStop.exec.command")]],
    ["invalid lifecycle, no http path.", [c({ name: "life-123", image: "image", lifecycle: { preStop: { httpGet: { port: 80, scheme: "HTTP" } } } })],
      [e(T.Required, "containers[0].lifecycle.preStop.httpGet.path")]],
    ["invalid lifecycle, no http port.", [c({ name: "life-123", image: "image", lifecycle: { preStop: { httpGet: { path: "/", scheme: "HTTP" } } } })],
      [e(T.Invalid, "containers[0].lifecycle.preStop.httpGet.port")]],
    ["invalid lifecycle, no http scheme.", [c({ name: "life-123", image: "image", lifecycle: { preStop: { httpGet: { path: "/", port: 80 } } } })],
      [e(T.NotSupported, "containers[0].lifecycle.preStop.httpGet.scheme")]],
    ["invalid lifecycle, no tcp socket port.", [c({ name: "life-123", image: "image", lifecycle: { preStop: { tcpSocket: {} } } })],
      [e(T.Invalid, "containers[0].lifecycle.preStop.tcpSocket.port")]],
    ["invalid lifecycle, zero tcp socket port.", [c({ name: "life-123", image: "image", lifecycle: { preStop: { tcpSocket: { port: 0 } } } })],
      [e(T.Invalid, "containers[0].lifecycle.preStop.tcpSocket.port")]],
    ["invalid lifecycle, no action.", [c({ name: "life-123", image: "image", lifecycle: { preStop: {} } })],
      [e(T.Required, "containers[0].lifecycle.preStop")]],
    ["invalid readiness probe, terminationGracePeriodSeconds set.",
      [c({ name: "life-123", image: "image", readinessProbe: { ...tcp80, terminationGracePeriodSeconds: 10 } })],
      [e(T.Invalid, "containers[0].readinessProbe.terminationGracePeriodSeconds")]],
    ["invalid liveness probe, no tcp socket port.", [c({ name: "live-123", image: "image", livenessProbe: { tcpSocket: {}, successThreshold: 1 } })],
      [e(T.Invalid, "containers[0].livenessProbe.tcpSocket.port")]],
    ["invalid liveness probe, no action.", [c({ name: "live-123", image: "image", livenessProbe: { successThreshold: 1 } })],
      [e(T.Required, "containers[0].livenessProbe")]],
    ["invalid liveness probe, successThreshold != 1", [c({ name: "live-123", image: "image", livenessProbe: { ...tcp80, successThreshold: 2 } })],
      [e(T.Invalid, "containers[0].livenessProbe.successThreshold")]],
    ["invalid startup probe, successThreshold != 1", [c({ name: "startup-123", image: "image", startupProbe: { ...tcp80, successThreshold: 2 } })],
      [e(T.Invalid, "containers[0].startupProbe.successThreshold")]],
    ["invalid liveness probe, negative numbers", [c({ name: "live-123", image: "image", livenessProbe: { ...tcp80, ...negatives } })],
      probeErrors("livenessProbe", [e(T.Invalid, "containers[0].livenessProbe.successThreshold")])],
    ["invalid readiness probe, negative numbers", [c({ name: "ready-123", image: "image", readinessProbe: { ...tcp80, ...negatives } })],
      probeErrors("readinessProbe", [e(T.Invalid, "containers[0].readinessProbe.terminationGracePeriodSeconds")])],
    ["invalid startup probe, negative numbers", [c({ name: "startup-123", image: "image", startupProbe: { ...tcp80, ...negatives } })],
      probeErrors("startupProbe", [e(T.Invalid, "containers[0].startupProbe.successThreshold")])],
    ["invalid message termination policy", [c({ name: "life-123", image: "image", terminationMessagePolicy: "Unknown" })],
      [e(T.NotSupported, "containers[0].terminationMessagePolicy")]],
    ["empty message termination policy", [c({ name: "life-123", image: "image", terminationMessagePolicy: "" })],
      [e(T.Required, "containers[0].terminationMessagePolicy")]],
    ["invalid compute resource", [c({ name: "abc-123", image: "image", resources: { limits: { disk: "10G" } } })],
      [e(T.Invalid, "containers[0].resources.limits[disk]"), e(T.Invalid, "containers[0].resources.limits[disk]")]],
    ["Resource CPU invalid", [c({ name: "abc-123", image: "image", resources: { limits: getResources("-10", "0", "") } })],
      [e(T.Invalid, "containers[0].resources.limits[cpu]")]],
    ["Resource Requests CPU invalid", [c({ name: "abc-123", image: "image", resources: { requests: getResources("-10", "0", "") } })],
      [e(T.Invalid, "containers[0].resources.requests[cpu]")]],
    ["Resource Memory invalid", [c({ name: "abc-123", image: "image", resources: { limits: getResources("0", "-10", "") } })],
      [e(T.Invalid, "containers[0].resources.limits[memory]")]],
    ["Request limit simple invalid", [c({ name: "abc-123", image: "image", resources: { limits: getResources("5", "3", ""), requests: getResources("6", "3", "") } })],
      [e(T.Invalid, "containers[0].resources.requests")]],
    ["Invalid storage limit request", [c({ name: "abc-123", image: "image", resources: { limits: { "attachable-volumes-aws-ebs": "10" } } })],
      [e(T.Invalid, "containers[0].resources.limits[attachable-volumes-aws-ebs]"), e(T.Invalid, "containers[0].resources.limits[attachable-volumes-aws-ebs]")]],
    ["CPU request limit multiple invalid", [c({ name: "abc-123", image: "image", resources: { limits: getResources("5", "3", ""), requests: getResources("6", "3", "") } })],
      [e(T.Invalid, "containers[0].resources.requests")]],
    ["Memory request limit multiple invalid", [c({ name: "abc-123", image: "image", resources: { limits: getResources("5", "3", ""), requests: getResources("5", "4", "") } })],
      [e(T.Invalid, "containers[0].resources.requests")]],
    ["Invalid env from", [c({ name: "env-from-source", image: "image", envFrom: [{ configMapRef: { name: "$%^&*#" } }] })],
      [e(T.Invalid, "containers[0].envFrom[0].configMapRef.name")]],
    ["Unsupported resize policy for memory", [c({ name: "resize-policy-mem-invalid", image: "image", resizePolicy: [{ resourceName: "memory", restartPolicy: "RestartContainerrrr" }] })],
      [e(T.NotSupported, "containers[0].resizePolicy")]],
    ["Unsupported resize policy for CPU", [c({ name: "resize-policy-cpu-invalid", image: "image", resizePolicy: [{ resourceName: "cpu", restartPolicy: "RestartNotRequired" }] })],
      [e(T.NotSupported, "containers[0].resizePolicy")]],
    ...(["Always", "OnFailure", "Never", "invalid", ""] as const).map((policy): [string, Container[], ReturnType<typeof e>[]] => [
      `Forbidden RestartPolicy: ${policy === "" ? "empty" : policy}`,
      [c({ name: "foo", image: "image", restartPolicy: policy })],
      [e(T.Forbidden, "containers[0].restartPolicy")],
    ]),
  ];

  it.each(errorCases)("%s", (_title, containers, expected) => {
    expect(typeAndField(validateContainers(containers, context("Always"), FieldPath.of("containers")))).toEqual(expected);
  });

  // Left out: "privilege disabled" (securityContext.privileged under AllowPrivileged=false):
  // container securityContext is not modelled by the simulator.
});

describe("TestValidateInitContainers", () => {
  const containers = [c({ name: "app", image: "nginx" })];
  const always = { restartPolicy: "Always" };

  it("successCase", () => {
    const successCase = [
      c({ name: "container-1-same-host-port-different-protocol", image: "image", ports: [
        { containerPort: 80, hostPort: 80, protocol: "TCP" }, { containerPort: 80, hostPort: 80, protocol: "UDP" }] }),
      c({ name: "container-2-same-host-port-different-protocol", image: "image", ports: [
        { containerPort: 80, hostPort: 80, protocol: "TCP" }, { containerPort: 80, hostPort: 80, protocol: "UDP" }] }),
      c({ name: "container-3-restart-always-with-lifecycle-hook-and-probes", image: "image", ...always,
        lifecycle: { postStart: { exec: { command: ["echo", "post start"] } }, preStop: { exec: { command: ["echo", "pre stop"] } } },
        livenessProbe: { ...tcp80, successThreshold: 1 }, readinessProbe: { ...tcp80 }, startupProbe: { ...tcp80, successThreshold: 1 } }),
      c({ name: "container-4-allowed-resize-policy", image: "image", resizePolicy: [{ resourceName: "cpu", restartPolicy: "NotRequired" }] }),
    ];
    const opts = { ...context("Never").opts, allowSidecarResizePolicy: true };
    expect(validateInitContainers(successCase, containers, context("Never", opts), FieldPath.of("field"))).toEqual([]);
  });

  const lifecycle = (handler: Loose) => c({ name: "life-123", image: "image", ...always, lifecycle: { preStop: handler } });
  const errorCases: Array<[string, Container[], ReturnType<typeof e>[]]> = [
    ["empty name", [c({ name: "", image: "image" })], [e(T.Required, "initContainers[0].name")]],
    ["name collision with regular container", [c({ name: "app", image: "image" })], [e(T.Duplicate, "initContainers[0].name")]],
    ["invalid termination message policy", [c({ name: "init", image: "image", terminationMessagePolicy: "Unknown" })],
      [e(T.NotSupported, "initContainers[0].terminationMessagePolicy")]],
    ["duplicate names", [c({ name: "init", image: "image" }), c({ name: "init", image: "image" })], [e(T.Duplicate, "initContainers[1].name")]],
    ["duplicate ports", [c({ name: "abc", image: "image", ports: [
      { containerPort: 8080, hostPort: 8080, protocol: "TCP" }, { containerPort: 8080, hostPort: 8080, protocol: "TCP" }] })],
      [e(T.Duplicate, "initContainers[0].ports[1].hostPort")]],
    ["uses disallowed field: Lifecycle", [c({ name: "debug", image: "image", lifecycle: { preStop: { exec: { command: ["ls", "-l"] } } } })],
      [e(T.Forbidden, "initContainers[0].lifecycle")]],
    ["uses disallowed field: LivenessProbe", [c({ name: "debug", image: "image", livenessProbe: { ...tcp80, successThreshold: 1 } })],
      [e(T.Forbidden, "initContainers[0].livenessProbe")]],
    ["uses disallowed field: ReadinessProbe", [c({ name: "debug", image: "image", readinessProbe: { ...tcp80 } })],
      [e(T.Forbidden, "initContainers[0].readinessProbe")]],
    ["Container uses disallowed field: StartupProbe", [c({ name: "debug", image: "image", startupProbe: { ...tcp80, successThreshold: 1 } })],
      [e(T.Forbidden, "initContainers[0].startupProbe")]],
    ["Disallowed field with other errors should only return a single Forbidden", [c({ name: "debug", image: "image", startupProbe: { ...tcp80, ...negatives } })],
      [e(T.Forbidden, "initContainers[0].startupProbe")]],
    ...(["OnFailure", "Never", "invalid", ""] as const).map((policy): [string, Container[], ReturnType<typeof e>[]] => [
      `Not supported RestartPolicy: ${policy === "" ? "empty" : policy}`,
      [c({ name: "init", image: "image", restartPolicy: policy })],
      [e(T.NotSupported, "initContainers[0].restartPolicy")],
    ]),
    ["invalid startup probe in restartable container, successThreshold != 1",
      [c({ name: "restartable-init", image: "image", ...always, startupProbe: { ...tcp80, successThreshold: 2 } })],
      [e(T.Invalid, "initContainers[0].startupProbe.successThreshold")]],
    ["invalid readiness probe, terminationGracePeriodSeconds set.",
      [c({ name: "life-123", image: "image", ...always, readinessProbe: { ...tcp80, terminationGracePeriodSeconds: 10 } })],
      [e(T.Invalid, "initContainers[0].readinessProbe.terminationGracePeriodSeconds")]],
    ["invalid liveness probe, successThreshold != 1",
      [c({ name: "live-123", image: "image", ...always, livenessProbe: { ...tcp80, successThreshold: 2 } })],
      [e(T.Invalid, "initContainers[0].livenessProbe.successThreshold")]],
    ["invalid lifecycle, no exec command.", [lifecycle({ exec: {} })], [e(T.Required, "initContainers[0].lifecycle.preStop.exec.command")]],
    ["invalid lifecycle, no http path.", [lifecycle({ httpGet: { port: 80, scheme: "HTTP" } })], [e(T.Required, "initContainers[0].lifecycle.preStop.httpGet.path")]],
    ["invalid lifecycle, no http port.", [lifecycle({ httpGet: { path: "/", scheme: "HTTP" } })], [e(T.Invalid, "initContainers[0].lifecycle.preStop.httpGet.port")]],
    ["invalid lifecycle, no http scheme.", [lifecycle({ httpGet: { path: "/", port: 80 } })], [e(T.NotSupported, "initContainers[0].lifecycle.preStop.httpGet.scheme")]],
    ["invalid lifecycle, no tcp socket port.", [lifecycle({ tcpSocket: {} })], [e(T.Invalid, "initContainers[0].lifecycle.preStop.tcpSocket.port")]],
    ["invalid lifecycle, zero tcp socket port.", [lifecycle({ tcpSocket: { port: 0 } })], [e(T.Invalid, "initContainers[0].lifecycle.preStop.tcpSocket.port")]],
    ["invalid lifecycle, no action.", [lifecycle({})], [e(T.Required, "initContainers[0].lifecycle.preStop")]],
  ];

  it.each(errorCases)("%s", (_title, inits, expected) => {
    expect(typeAndField(validateInitContainers(inits, containers, context("Never"), FieldPath.of("initContainers")))).toEqual(expected);
  });
});
