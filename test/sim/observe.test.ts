// The kernel's side channel: which goroutine wrote each record, its calls and activities, channel
// hand-offs and choice points; and that observing a run changes neither its trace nor its hash.
import { describe, expect, it } from "vitest";
import { call, KernelLog, MemorySink, recv, recvCase, select, send, Sim, sleep, type StrategySpec } from "../../src/sim/index.ts";

/** A small program with everything the log records: calls, sleeps, hand-offs (buffered and not), a select, a close. */
function program(sim: Sim): void {
  const unbuffered = sim.chan<string>("work");
  const buffered = sim.chan<number>("results", 2);
  const stop = sim.chan<void>("stop");
  sim.go("producer", function* () {
    yield* call(100, "cri PullImage");
    sim.emit("test", "Pulled");
    yield* send(unbuffered, "job");
    yield* sleep(50);
    yield* send(buffered, 1);
    yield* send(buffered, 2);
    stop.close();
  });
  sim.go("consumer", function* () {
    const job = yield* recv(unbuffered);
    sim.emit("test", "Got", { job: job.value });
    yield* call(10, "GET /a");
    yield* call(20, "PATCH /a");
    yield* sleep(500);
    for (let i = 0; i < 2; i++) yield* recv(buffered);
    yield* select([recvCase(stop), recvCase(buffered)]);
    sim.emit("test", "Stopped");
  });
  sim.go("bystander", function* () {
    sim.emit("test", "Hello");
  });
}

function run(strategy: StrategySpec, observer?: KernelLog) {
  const sink = new MemorySink();
  const sim = new Sim({ seed: 3, strategy, sinks: [sink], ...(observer === undefined ? {} : { observer }) });
  program(sim);
  const result = sim.run();
  return { result, records: sink.records };
}

describe("KernelLog", () => {
  it.each([{ name: "fifo" }, { name: "random" }, { name: "pct", depth: 3, steps: 50 }] as StrategySpec[])("observing a %o run leaves its trace and hash as they were", (strategy) => {
    const plain = run(strategy);
    const seen = run(strategy, new KernelLog());
    expect(seen.result.traceHash).toBe(plain.result.traceHash);
    expect(seen.records).toEqual(plain.records);
  });

  it("names the goroutine of every record, and none for the kernel's own", () => {
    const log = new KernelLog();
    const { records } = run({ name: "fifo" }, log);
    const who = (kind: string) => log.procs.find((p) => p.id === log.recordProc[records.find((r) => r.kind === kind)!.seq])?.name;
    expect(who("Pulled")).toBe("producer");
    expect(who("Got")).toBe("consumer");
    expect(who("Hello")).toBe("bystander");
    expect(log.recordProc[records.find((r) => r.kind === "run")!.seq]).toBeUndefined();
    expect(log.procs.map((p) => [p.name, p.startMs, p.end])).toEqual([["producer", 0, "done"], ["consumer", 0, "done"], ["bystander", 0, "done"]]);
  });

  it("records calls (not plain sleeps) with their start and end, and activities of two calls or more", () => {
    const log = new KernelLog();
    run({ name: "fifo" }, log);
    expect(log.calls.map((c) => [c.label, c.startMs, c.endMs])).toEqual([["cri PullImage", 0, 100], ["GET /a", 100, 110], ["PATCH /a", 110, 130]]);
    // The consumer's two requests between its receive and its sleep; the producer's lone pull is no activity.
    expect(log.activities.map((a) => [a.startMs, a.endMs, a.calls])).toEqual([[100, 130, 2]]);
  });

  it("records hand-offs between goroutines: rendezvous, through a buffer, and a close", () => {
    const log = new KernelLog();
    run({ name: "fifo" }, log);
    const name = (id: number) => log.procs.find((p) => p.id === id)!.name;
    expect(log.handoffs.map((h) => [h.chan, name(h.from), h.sentMs, name(h.to), h.recvMs, h.closed])).toEqual([
      ["work", "producer", 100, "consumer", 100, false],
      ["results", "producer", 150, "consumer", 630, false],
      ["results", "producer", 150, "consumer", 630, false],
    ]);
  });

  it("a close wakes the goroutines waiting on the channel: a hand-off from the closer", () => {
    const log = new KernelLog();
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, observer: log });
    const stop = sim.chan<void>("stop");
    sim.go("waiter", function* () {
      yield* recv(stop);
    });
    sim.go("closer", function* () {
      yield* sleep(5);
      stop.close();
    });
    sim.run();
    expect(log.handoffs.map((h) => [h.chan, h.sentMs, h.recvMs, h.closed])).toEqual([["stop", 5, 5, true]]);
  });

  it("records every choice point with its instant, and which ones deviate from fifo", () => {
    const log = new KernelLog();
    const { result } = run({ name: "random" }, log);
    expect(log.choices.length).toBe(result.choices.length);
    expect(log.choices.map((c) => c.index)).toEqual(result.choices.toArray().map((c) => c.index));
    expect(log.choices.every((c) => c.t >= 0 && c.beforeSeq >= 1)).toBe(true);
  });
});
