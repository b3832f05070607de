// The text timeline, golden over the synthetic lifecycle trace, and its filters and fallbacks.
import { describe, expect, it } from "vitest";
import { formatClock, render, renderText } from "../../src/report/index.ts";
import { lifecycle, trace } from "./fixture.ts";

const TEXT = [
  "scenario web-lifecycle  seed 7  strategy fifo  (kubelet-sim 0.1.0)",
  "   0.000s  apiserver    default/web  POST pod by user",
  "   0.000s  apiserver    default/web  kubectl get: 0/1 Pending, restarts 0",
  "   0.005s  apiserver    default/web  watch 1 delivers ADDED to kubelet",
  "   0.005s  config       default/web  ADD from api to syncLoop",
  "   0.006s  podworker    default/web  UpdatePod create",
  "   0.006s  podworker    default/web  begins SyncPod",
  "   0.110s  runtime      default/web  CRI RunPodSandbox (sb-1) in 100ms",
  "   0.120s  kuberuntime  default/web  Event Normal Pulling: Pulling image \"nginx:1.25\" [spec.containers{app}]",
  "   2.120s  runtime                   CRI PullImage nginx:1.25 in 2000ms",
  "   2.120s  kuberuntime  default/web  Event Normal Pulled: Successfully pulled image \"nginx:1.25\" in 2s (2s including waiting) [spec.containers{app}]",
  "   2.130s  runtime      default/web  CRI CreateContainer app (c-1) in 10ms",
  "   2.130s  kuberuntime  default/web  Event Normal Created: Created container app [spec.containers{app}]",
  "   2.140s  runtime      default/web  CRI StartContainer app (c-1) in 10ms",
  "   2.140s  kuberuntime  default/web  Event Normal Started: Started container app [spec.containers{app}]",
  "   2.150s  podworker    default/web  finished SyncPod",
  "   2.200s  status       default/web  PATCH pod status phase=Pending → patched",
  "   2.200s  apiserver    default/web  kubectl get: 0/1 ContainerCreating, restarts 0",
  "   3.000s  pleg         default/web  PLEG ContainerStarted c-1",
  "   4.000s  prober       default/web  readiness probe of app: Success",
  "   4.010s  status       default/web  PATCH pod status phase=Running → patched",
  "   4.010s  apiserver    default/web  kubectl get: 1/1 Running, restarts 0",
  "1m00.000s  apiserver    default/web  DELETE pod by user grace=30s",
  "1m00.000s  apiserver    default/web  kubectl get: 1/1 Terminating, restarts 0",
  "1m00.005s  apiserver    default/web  watch 1 delivers MODIFIED to kubelet",
  "1m00.005s  config       default/web  DELETE from api to syncLoop",
  "1m00.006s  podworker    default/web  UpdatePod kill",
  "1m00.006s  podworker    default/web  termination requested (deleted)",
  "1m00.006s  podworker    default/web  begins SyncTerminatingPod",
  "1m00.010s  kuberuntime  default/web  Event Normal Killing: Stopping container app [spec.containers{app}]",
  "1m01.500s  runtime      default/web  container app exited with code 0 (Completed)",
  "1m01.510s  runtime      default/web  CRI StopContainer app (c-1) in 1500ms",
  "1m01.520s  podworker    default/web  finished SyncTerminatingPod",
  "1m02.000s  pleg         default/web  PLEG ContainerDied c-1 exit code 0",
  "1m02.010s  status       default/web  PATCH pod status phase=Running → patched",
  "1m02.010s  apiserver    default/web  kubectl get: 0/1 Terminating, restarts 0",
  "1m02.020s  status       default/web  DELETE pod grace=0s → deleted",
  "1m02.020s  apiserver    default/web  pod is gone from the apiserver (last seen 0/1 Terminating, restarts 0)",
  "verdict pass  events 44  ended at 2m00.000s  trace 0123456789abcdef",
  "(6 record(s) hidden: 1 nested SyncPod markers, 1 duplicate views, 2 polling and reads, 2 repeats; --verbosity all shows them)",
];

const BRIEF_WEB = [
  "scenario web-lifecycle  seed 7  strategy fifo  (kubelet-sim 0.1.0)",
  "   0.000s  apiserver    POST pod by user",
  "   0.000s  apiserver    kubectl get: 0/1 Pending, restarts 0",
  "   0.120s  kuberuntime  Event Normal Pulling: Pulling image \"nginx:1.25\" [spec.containers{app}]",
  "   2.120s  kuberuntime  Event Normal Pulled: Successfully pulled image \"nginx:1.25\" in 2s (2s including waiting) [spec.containers{app}]",
  "   2.130s  kuberuntime  Event Normal Created: Created container app [spec.containers{app}]",
  "   2.140s  kuberuntime  Event Normal Started: Started container app [spec.containers{app}]",
  "   2.200s  apiserver    kubectl get: 0/1 ContainerCreating, restarts 0",
  "   4.010s  apiserver    kubectl get: 1/1 Running, restarts 0",
  "1m00.000s  apiserver    DELETE pod by user grace=30s",
  "1m00.000s  apiserver    kubectl get: 1/1 Terminating, restarts 0",
  "1m00.006s  podworker    termination requested (deleted)",
  "1m00.010s  kuberuntime  Event Normal Killing: Stopping container app [spec.containers{app}]",
  "1m02.000s  pleg         PLEG ContainerDied c-1 exit code 0",
  "1m02.010s  apiserver    kubectl get: 0/1 Terminating, restarts 0",
  "1m02.020s  status       DELETE pod grace=0s → deleted",
  "1m02.020s  apiserver    pod is gone from the apiserver (last seen 0/1 Terminating, restarts 0)",
  "verdict pass  events 44  ended at 2m00.000s  trace 0123456789abcdef",
  "(27 record(s) hidden: 1 repeats, 23 verbosity, 3 filters; --verbosity all shows them)",
];

const lines = (s: string): string[] => s.split("\n").slice(0, -1);

describe("text timeline", () => {
  it("renders the lifecycle at the default verbosity", () => {
    expect(lines(render("text", lifecycle))).toEqual(TEXT);
  });

  it("renders only what a user sees at verbosity brief, without a pod column when filtered to one pod", () => {
    expect(lines(render("text", lifecycle, { verbosity: "brief", pod: "web" }))).toEqual(BRIEF_WEB);
  });

  it("shows every record at verbosity all, noisy kinds and repeats included", () => {
    const out = lines(renderText(lifecycle, { verbosity: "all" }));
    expect(out).toHaveLength(lifecycle.length - 2 + 2);
    expect(out).toContain("   0.007s  cache        default/web  Get uid=uid-web-1");
    expect(out).toContain("   4.000s  pleg                      relist: 1 pod(s), 0 event(s)");
    expect(out).toContain("   5.010s  apiserver    default/web  kubectl get: 1/1 Running, restarts 0");
    expect(out.some((l) => l.includes("hidden"))).toBe(false);
  });

  it("filters by component", () => {
    const out = lines(render("text", lifecycle, { components: ["podworker"] }));
    const body = out.slice(1, -2);
    expect(body.length).toBeGreaterThan(0);
    expect(body.every((l) => l.slice(11, 22) === "podworker  ")).toBe(true);
  });

  it("filters by pod, matching ns/name or a bare name, and hides records about no pod", () => {
    const both = trace([
      [0, "pleg", "relist", { durationMs: 0, pods: 2, events: 2 }],
      [1, "podworker", "UpdatePod", { pod: "default/web", updateType: "create" }],
      [2, "podworker", "UpdatePod", { pod: "other/web", updateType: "create" }],
      [3, "podworker", "UpdatePod", { pod: "default/db", updateType: "create" }],
    ]);
    const pods = (filter: string) => lines(render("text", both, { pod: filter })).filter((l) => l.includes("UpdatePod")).length;
    expect(pods("default/web")).toBe(1);
    expect(pods("web")).toBe(2);
    expect(pods("db")).toBe(1);
    expect(lines(render("text", both, { pod: "web" })).some((l) => l.includes("relist"))).toBe(false);
  });

  it("falls back to `kind key=value ...` for kinds without a phrase", () => {
    const out = render("text", trace([[1500, "sim", "Weird", { pod: "default/x", n: 1, text: "two words", flag: null, obj: { a: [1] } }]]));
    expect(lines(out)[0]).toBe('   1.500s  sim          default/x  Weird n=1 text="two words" flag=null obj={"a":[1]}');
  });

  it("says so when the trace has no end record", () => {
    const out = lines(render("text", trace([[0, "sim", "Weird", {}]])));
    expect(out).toEqual(["   0.000s  sim          Weird", "(no end record: the trace is incomplete)"]);
  });

  it("prints the diagnosis of a run that ended early", () => {
    const out = lines(render("text", trace([[0, "sim", "end", { verdict: "error", events: 1, endMs: 0, traceHash: "", diagnosis: { kind: "deadlock" } }]])));
    expect(out).toEqual(["verdict error  events 1  ended at 0.000s", 'diagnosis {"kind":"deadlock"}']);
  });

  it("formats virtual time to the millisecond and widens the clock column past 10 minutes", () => {
    expect([0, 5, 12_345, 62_000, 3_723_004].map(formatClock)).toEqual(["0.000s", "0.005s", "12.345s", "1m02.000s", "1h02m03.004s"]);
    const out = lines(render("text", trace([[1000, "sim", "A", {}], [600_000, "sim", "B", {}]])));
    expect(out.slice(0, 2)).toEqual(["    1.000s  sim          A", "10m00.000s  sim          B"]);
  });
});
