// kubectl describe's Events section: golden over the lifecycle, and the EventCorrelator's counting,
// aggregation and spam filter as client-go applies them.
import { describe, expect, it } from "vitest";
import { EventCorrelator, render, type RawEvent } from "../../src/report/index.ts";
import { lifecycle, trace, type Entry } from "./fixture.ts";

const EVENTS = [
  "Name:       web",
  "Namespace:  default",
  "Events:",
  "  Type    Reason   Age   From     Message",
  "  ----    ------   ----  ----     -------",
  "  Normal  Pulling  2m    kubelet  Pulling image \"nginx:1.25\"",
  "  Normal  Pulled   118s  kubelet  Successfully pulled image \"nginx:1.25\" in 2s (2s including waiting)",
  "  Normal  Created  118s  kubelet  Created container app",
  "  Normal  Started  118s  kubelet  Started container app",
  "  Normal  Killing  60s   kubelet  Stopping container app",
];

const lines = (s: string): string[] => s.split("\n").slice(0, -1);

const pod = "default/crash";
const ev = (t: number, type: string, reason: string, message: string, extra: Record<string, unknown> = {}): Entry =>
  [t, "kuberuntime", "Event", { pod, uid: "u1", object: "spec.containers{app}", type, reason, message, ...extra }];
const end = (endMs: number): Entry => [endMs, "sim", "end", { verdict: "pass", events: 0, endMs, traceHash: "" }];

/** A crash loop: six starts, each followed by a BackOff, the gaps doubling from 10s. */
function crashLoop(): Entry[] {
  const out: Entry[] = [];
  let t = 1000;
  for (const gap of [0, 10_000, 20_000, 40_000, 80_000, 160_000]) {
    t += gap;
    out.push(ev(t, "Normal", "Pulled", 'Container image "busybox:1.36" already present on machine'));
    out.push(ev(t + 10, "Normal", "Created", "Created container app"));
    out.push(ev(t + 20, "Normal", "Started", "Started container app"));
    out.push(ev(t + 5000, "Warning", "BackOff", "Back-off restarting failed container app in pod crash_default(u1)"));
  }
  return out;
}

const raw = (ms: number, reason: string, message: string): RawEvent =>
  ({ ms, pod, uid: "u1", fieldPath: "", type: "Warning", reason, message, source: "kubelet" });

describe("events (kubectl describe)", () => {
  it("renders the lifecycle's events with Age at the end of the run", () => {
    expect(lines(render("events", lifecycle))).toEqual(EVENTS);
  });

  it("counts repeated events as kubectl shows them: last seen (xN over first seen)", () => {
    expect(lines(render("events", trace([...crashLoop(), end(420_000)])))).toEqual([
      "Name:       crash",
      "Namespace:  default",
      "Events:",
      "  Type     Reason   Age                   From     Message",
      "  ----     ------   ----                  ----     -------",
      '  Normal   Pulled   109s (x6 over 6m59s)  kubelet  Container image "busybox:1.36" already present on machine',
      "  Normal   Created  109s (x6 over 6m59s)  kubelet  Created container app",
      "  Normal   Started  109s (x6 over 6m59s)  kubelet  Started container app",
      "  Warning  BackOff  104s (x6 over 6m54s)  kubelet  Back-off restarting failed container app in pod crash_default(u1)",
    ]);
  });

  it("shows the x5 over 4m form", () => {
    const entries = [0, 60_000, 120_000, 180_000, 240_000].map((t) => ev(t, "Warning", "BackOff", "Back-off pulling image"));
    const row = lines(render("events", trace([...entries, end(360_000)])))[5];
    expect(row).toBe("  Warning  BackOff  2m (x5 over 6m)  kubelet  Back-off pulling image");
    const row4m = lines(render("events", trace([...entries, end(240_000)])))[5];
    expect(row4m).toBe("  Warning  BackOff  0s (x5 over 4m)  kubelet  Back-off pulling image");
  });

  it("combines the 10th distinct message of one reason within 10 minutes into one aggregate event", () => {
    const c = new EventCorrelator();
    for (let i = 1; i <= 12; i++) c.record(raw(i * 1000, "Unhealthy", `Readiness probe failed: attempt ${i}`));
    const events = c.events();
    expect(events).toHaveLength(10);
    expect(events.slice(0, 9).every((e) => e.count === 1 && !e.message.startsWith("(combined"))).toBe(true);
    expect(events[9]).toMatchObject({
      message: "(combined from similar events): Readiness probe failed: attempt 12", count: 3, firstMs: 10_000, lastMs: 12_000,
    });
  });

  it("starts aggregating afresh after 10 quiet minutes", () => {
    const c = new EventCorrelator();
    for (let i = 1; i <= 9; i++) c.record(raw(i * 1000, "Unhealthy", `m${i}`));
    c.record(raw(9000 + 600_001, "Unhealthy", "m10"));
    expect(c.events().map((e) => e.message)).not.toContain("(combined from similar events): m10");
  });

  it("drops events past a burst of 25 per object, then lets one through every 5 minutes", () => {
    const burst = (c: EventCorrelator) => { for (let i = 0; i < 30; i++) c.record(raw(1000, `Reason${i}`, "m")); };
    const filtered = new EventCorrelator();
    burst(filtered);
    expect(filtered.events()).toHaveLength(25);
    filtered.record(raw(1000 + 299_000, "Late", "m"));
    expect(filtered.events()).toHaveLength(25);
    filtered.record(raw(1000 + 300_000, "Later", "m"));
    expect(filtered.events()).toHaveLength(26);
    const open = new EventCorrelator({ spamFilter: false });
    burst(open);
    expect(open.events()).toHaveLength(30);
  });

  it("keeps counting an event while it is filtered, and creates it with that count when it gets through", () => {
    const c = new EventCorrelator();
    for (let i = 0; i < 25; i++) c.record(raw(0, `R${i}`, "m"));
    c.record(raw(1000, "Dropped", "m"));
    c.record(raw(2000, "Dropped", "m"));
    expect(c.events().some((e) => e.reason === "Dropped")).toBe(false);
    c.record(raw(301_000, "Dropped", "m"));
    expect(c.events().find((e) => e.reason === "Dropped")).toMatchObject({ count: 3, firstMs: 1000, lastMs: 301_000 });
  });

  it("can turn the spam filter off", () => {
    const many = Array.from({ length: 30 }, (_, i) => ev(1000, "Normal", `R${i}`, "m"));
    const rows = (spamFilter: boolean) => lines(render("events", trace([...many, end(2000)]), { spamFilter })).length - 5;
    expect(rows(true)).toBe(25);
    expect(rows(false)).toBe(30);
  });

  it("lists pods in key order, prints Events: <none> for a pod without events, and From from the record's source", () => {
    const out = render("events", trace([
      [0, "apiserver", "PodView", { pod: "default/quiet", uid: "q", ready: "0/1", status: "Pending", restarts: "0" }],
      [1, "prober", "Event", { pod: "ns2/busy", type: "Warning", reason: "Unhealthy", message: "  Liveness probe failed  " }],
      [2, "apiserver", "Event", { pod: "ns2/busy", type: "Normal", reason: "Scheduled", message: "Successfully assigned", source: "default-scheduler" }],
      end(5000),
    ]));
    expect(lines(out)).toEqual([
      "Name:       quiet",
      "Namespace:  default",
      "Events:     <none>",
      "",
      "Name:       busy",
      "Namespace:  ns2",
      "Events:",
      "  Type     Reason     Age   From               Message",
      "  ----     ------     ----  ----               -------",
      "  Warning  Unhealthy  5s    kubelet            Liveness probe failed",
      "  Normal   Scheduled  5s    default-scheduler  Successfully assigned",
    ]);
  });

  it("filters by pod, and says so when there is nothing to describe", () => {
    expect(lines(render("events", lifecycle, { pod: "default/web" }))).toEqual(EVENTS);
    expect(render("events", lifecycle, { pod: "nope" })).toBe("No pods in the trace.\n");
  });
});
