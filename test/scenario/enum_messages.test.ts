// A pod manifest's enumerated fields are refused in the apiserver's words (field.NotSupported):
// `Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`, the values in
// the order upstream lists them; the scenario's own enumerations keep kubelet-sim's wording.
import { describe, expect, it } from "vitest";
import { checkScenarioText, formatIssue } from "../../src/scenario/index.ts";

const pod = (spec: string, container = "") => `name: enums
pods:
  - manifest:
      metadata: { name: web }
      spec:
        ${spec}
        containers:
          - { name: app, image: "nginx:1"${container} }
timeline:
  - { at: 0s, create: web }
`;

const messages = (text: string) => {
  const r = checkScenarioText(text, "e.yaml");
  return r.ok ? [] : r.issues.map(formatIssue);
};

describe("a pod's enumerated fields", () => {
  it.each([
    [pod("restartPolicy: Sometimes"), 'pods[0].manifest.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"'],
    [pod("dnsPolicy: ClusterFirst", ", imagePullPolicy: Sometimes"), 'pods[0].manifest.spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"'],
    [pod("dnsPolicy: ClusterFirst", ", ports: [{ containerPort: 80, protocol: HTTP }]"), 'pods[0].manifest.spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"'],
    [pod("dnsPolicy: ClusterFirst", ", terminationMessagePolicy: Logs"), 'pods[0].manifest.spec.containers[0].terminationMessagePolicy: Unsupported value: "Logs": supported values: "File", "FallbackToLogsOnError"'],
    [pod("dnsPolicy: ClusterFirst", ', readinessProbe: { httpGet: { port: 80, scheme: "FTP" } }'), 'pods[0].manifest.spec.containers[0].readinessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"'],
  ])("%#: refused as the apiserver words it", (text, want) => {
    expect(messages(text).map((m) => m.replace(/^e\.yaml:\d+:\d+: /, ""))).toEqual([want]);
  });

  it("keeps kubelet-sim's own wording for the scenario's fields", () => {
    expect(messages("name: x\nstrategy: randon\n")[0]).toBe(`e.yaml:2:11: strategy.name: expected one of "fifo", "random", "pct", "pos", found "randon"; did you mean "random"?`);
  });
});
