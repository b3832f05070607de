import { describe, expect, it } from "vitest";
import type { Container, Pod } from "../../../src/k8s/pod.ts";
import {
  applyDefaultImageTag,
  ensureImageExistsDecision,
  imagePullFailed,
  shouldPullImage,
} from "../../../src/kubelet/kuberuntime/image_pull.ts";
import { Backoff } from "../../../src/kubelet/util/backoff.ts";

const pod: Pod = { metadata: { name: "p", namespace: "ns", uid: "u1" }, spec: { containers: [] } };
const c = (image: string, imagePullPolicy?: Container["imagePullPolicy"]): Container => ({ name: "c", image, imagePullPolicy });

describe("shouldPullImage (TestShouldPullImage-style table)", () => {
  it.each<[Container["imagePullPolicy"], boolean, boolean]>([
    ["Always", true, true],
    ["Always", false, true],
    ["IfNotPresent", true, false],
    ["IfNotPresent", false, true],
    ["Never", true, false],
    ["Never", false, false],
  ])("policy %s, present %s -> pull %s", (policy, present, want) => {
    expect(shouldPullImage(c("x:1", policy), present)).toBe(want);
  });
});

describe("applyDefaultImageTag", () => {
  it.each([
    ["busybox", "busybox:latest"],
    ["busybox:1.36", "busybox:1.36"],
    ["localhost:5000/app", "localhost:5000/app:latest"],
    [`app@sha256:${"b".repeat(64)}`, `app@sha256:${"b".repeat(64)}`],
  ])("%s -> %s", (image, want) => {
    expect(applyDefaultImageTag(image)).toBe(want);
  });
  it("refuses an unparsable name", () => {
    expect(applyDefaultImageTag("Bad Name")).toBeUndefined();
  });
});

describe("ensureImageExistsDecision", () => {
  const clock = { t: 0, nowMs() { return this.t; } };
  it("present + IfNotPresent: use it; absent + Never: ErrImageNeverPull; else pull", () => {
    const b = new Backoff(clock, 10_000, 300_000);
    expect(ensureImageExistsDecision(pod, c("nginx:1", "IfNotPresent"), true, b)).toMatchObject({
      action: "present",
      message: 'Container image "nginx:1" already present on machine',
    });
    expect(ensureImageExistsDecision(pod, c("nginx:1", "Never"), false, b)).toMatchObject({
      action: "error",
      err: "ErrImageNeverPull",
      message: 'Container image "nginx:1" is not present with pull policy of Never',
    });
    expect(ensureImageExistsDecision(pod, c("nginx", "Always"), true, b)).toMatchObject({
      action: "pull",
      image: "nginx:latest",
      backOffKey: "u1_nginx",
      message: 'Pulling image "nginx"',
    });
    expect(ensureImageExistsDecision(pod, c("Bad Name", "Always"), false, b)).toMatchObject({ action: "error", err: "InvalidImageName" });
  });

  it("a failed pull backs off the next attempts (IsInBackOffSinceUpdate)", () => {
    const b = new Backoff(clock, 10_000, 300_000);
    clock.t = 1_000;
    expect(imagePullFailed(c("nginx:1"), "manifest unknown", "u1_nginx:1", b)).toEqual({ err: "ErrImagePull", message: "manifest unknown" });
    clock.t = 5_000;
    expect(ensureImageExistsDecision(pod, c("nginx:1", "IfNotPresent"), false, b)).toMatchObject({
      action: "error",
      err: "ImagePullBackOff",
      message: 'Back-off pulling image "nginx:1"',
    });
    clock.t = 11_000;
    expect(ensureImageExistsDecision(pod, c("nginx:1", "IfNotPresent"), false, b)).toMatchObject({ action: "pull" });
  });

  it("registry unavailable keeps its own reason", () => {
    const b = new Backoff(clock, 10_000, 300_000);
    expect(imagePullFailed(c("nginx:1"), "RegistryUnavailable", "k", b)).toEqual({
      err: "RegistryUnavailable",
      message: "image pull failed for nginx:1 because the registry is unavailable.",
    });
  });
});
