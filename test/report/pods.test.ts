// `kubectl get pods -w`: golden over the lifecycle, PodView de-duplication, kubectl's remembered
// column widths, the NAMESPACE column and AGE.
import { describe, expect, it } from "vitest";
import { render } from "../../src/report/index.ts";
import { lifecycle, trace } from "./fixture.ts";

const PODS = [
  "NAME   READY   STATUS    RESTARTS   AGE",
  "web    0/1     Pending   0          0s",
  "web    0/1     ContainerCreating   0          2s",
  "web    1/1     Running             0          4s",
  "web    1/1     Terminating         0          60s",
  "web    0/1     Terminating         0          62s",
  "web    0/1     Terminating         0          62s",
];

const lines = (s: string): string[] => s.split("\n").slice(0, -1);
const view = (t: number, pod: string, uid: string, ready: string, status: string, extra: Record<string, unknown> = {}) =>
  [t, "apiserver", "PodView", { pod, uid, ready, status, restarts: "0", phase: "Running", ...extra }] as const;

describe("pods (kubectl get pods -w)", () => {
  it("prints one row per visible change; columns widen from the row that needs it on, as kubectl's do", () => {
    expect(lines(render("pods", lifecycle))).toEqual(PODS);
  });

  it("skips a PodView that changes no column, but always prints the deletion", () => {
    const out = lines(render("pods", lifecycle));
    expect(out.filter((l) => l.includes("Running"))).toHaveLength(1);
    expect(out.filter((l) => l.includes("0/1     Terminating"))).toHaveLength(2);
  });

  it("prints every PodView with dedup off", () => {
    const out = lines(render("pods", lifecycle, { dedup: false }));
    expect(out.filter((l) => l.includes("Running"))).toEqual([
      "web    1/1     Running             0          4s",
      "web    1/1     Running             0          5s",
    ]);
  });

  it("adds a NAMESPACE column when the pods span namespaces, or when asked", () => {
    const records = trace([view(0, "default/web", "u1", "0/1", "Pending"), view(1000, "kube-system/dns", "u2", "0/1", "Pending")]);
    expect(lines(render("pods", records))).toEqual([
      "NAMESPACE   NAME   READY   STATUS    RESTARTS   AGE",
      "default     web    0/1     Pending   0          0s",
      "kube-system   dns    0/1     Pending   0          0s",
    ]);
    expect(lines(render("pods", lifecycle, { allNamespaces: true }))[1]).toBe("default     web    0/1     Pending   0          0s");
    expect(lines(render("pods", records, { pod: "dns" }))).toEqual([
      "NAME   READY   STATUS    RESTARTS   AGE",
      "dns    0/1     Pending   0          0s",
    ]);
  });

  it("measures AGE from creationTimestamp when the record has one, per pod UID otherwise", () => {
    const records = trace([
      view(200_000, "default/web", "u1", "0/1", "Pending", { creationTimestamp: "2025-01-01T00:01:00Z" }),
      view(210_000, "default/web", "u1", "1/1", "Running"),
      view(300_000, "default/web", "u2", "0/1", "Pending"),
      view(310_000, "default/web", "u2", "0/1", "ContainerCreating"),
    ]);
    expect(lines(render("pods", records)).map((l) => l.split(/ +/).pop())).toEqual(["AGE", "2m20s", "2m30s", "0s", "10s"]);
  });

  it("says so when there are no pods", () => {
    expect(render("pods", trace([[0, "sim", "run", {}]]))).toBe("No resources found.\n");
  });
});
