// What each step of a play-mode run did, in words: after every choice point, the goroutine that runs
// (the one chosen, or the one whose select or map iteration it was) until it waits, sleeps, makes a
// call, exits, or the next choice comes. Read from the kernel's observer hooks and from the
// operations it yields (src/sim/ops.ts's opWatch, installed by session.ts): a side channel, so
// nothing here enters the trace or its hash. The log pane and each option's preview use the words.
import { CALL, OP_LOCK, OP_RECV, OP_RLOCK, OP_SELECT, OP_SEND, OP_SLEEP, OP_WAIT, OP_WLOCK, type Op, type SelectCase } from "../sim/ops.ts";
import type { ChoiceKind, KernelObserver, Process, TraceRecord } from "../sim/index.ts";
import { phrase } from "../report/phrases.ts";
import { describeValue } from "./values.ts";

/** One choice of the run and the step that followed it. */
export interface PlayStep {
  /** The choice's index in the tape. */
  index: number;
  kind: ChoiceKind;
  n: number;
  /** The option taken (0: fifo's). */
  picked: number;
  t: number;
  /** The goroutine that ran. */
  who: string;
  /** What it did, in words. */
  words: string;
}

/** The most phrases a step's words list before "and N more". */
const MAX_PHRASES = 4;

interface Open {
  step: PlayStep;
  proc: Process;
  phrases: string[];
  /** The channel of the last send, to name its receiver when the hand-off comes. */
  lastSend: { ch: string; at: number } | null;
  lastOp: Op | null;
  /** The cases of the last select, to name the value a send case handed off. */
  lastSelect: readonly SelectCase[] | null;
  closed: boolean;
}

/** A KernelObserver (and an op watcher) that keeps each choice's step in words. */
export class StepLog implements KernelObserver {
  readonly steps: PlayStep[] = [];
  private open: Open | null = null;

  /** Told of each operation the running goroutine yields (session.ts wires it to opWatch). */
  op(op: Op, running: Process | null): void {
    const o = this.open;
    if (o === null || o.closed || running !== o.proc) return;
    o.lastOp = op;
    if (op.code === OP_SELECT) o.lastSelect = op.target as readonly SelectCase[];
    if (op.code === OP_SEND) {
      const ch = chanName(op.target);
      o.lastSend = { ch, at: o.phrases.length };
      o.phrases.push(`sends ${describeValue(op.value)} on ${ch}`);
    }
  }

  choice(kind: ChoiceKind, n: number, index: number, nowMs: number, running: Process | null, chosen: Process | null): void {
    this.close("");
    const proc = chosen ?? running;
    const step: PlayStep = { index: this.steps.length, kind, n, picked: index, t: nowMs, who: proc?.name ?? "(the kernel)", words: "" };
    this.steps.push(step);
    this.open = proc === null ? null : { step, proc, phrases: [], lastSend: null, lastOp: null, lastSelect: null, closed: false };
  }

  record(rec: TraceRecord, running: Process | null): void {
    const o = this.open;
    if (o === null || o.closed || running !== o.proc) return;
    const words = phrase(rec);
    if (o.phrases[o.phrases.length - 1] !== words) o.phrases.push(words);
  }

  spawn(p: Process, parent: Process | null): void {
    const o = this.open;
    if (o !== null && !o.closed && parent === o.proc) o.phrases.push(`starts goroutine ${p.name}`);
  }

  handoff(chan: string, from: Process, _sentMs: number, to: Process, _nowMs: number, closed: boolean): void {
    const o = this.open;
    if (o === null || o.closed || from !== o.proc) return;
    if (o.lastSend !== null && o.lastSend.ch === chan) {
      o.phrases[o.lastSend.at] += ` to ${to.name}`;
      o.lastSend = null;
      return;
    }
    // A select's send case fired, or a close woke a receiver.
    const sent = o.lastSelect?.find((c) => c.dir === "send" && c.ch?.name === chan);
    const what = closed ? `closes ${chan}` : `sends ${sent !== undefined && sent.dir === "send" ? describeValue(sent.value) : "a value"} on ${chan}`;
    o.phrases.push(`${what} to ${to.name}`);
  }

  timed(p: Process, label: string, nowMs: number, dueMs: number, isCall: boolean): void {
    if (this.open?.proc !== p) return;
    this.close(isCall ? `calls ${label} (${dueMs - nowMs} ms, until t=${dueMs}ms)` : `then sleeps ${dueMs - nowMs} ms`);
  }

  blocked(p: Process): void {
    if (this.open?.proc !== p) return;
    this.close(waitWords(this.open.lastOp));
  }

  exit(p: Process): void {
    if (this.open?.proc === p) this.close("then exits");
  }

  end(): void {
    this.close("");
  }

  /** Ends the open step's words (the run paused, or the next choice came). */
  close(ending: string): void {
    const o = this.open;
    if (o === null || o.closed) return;
    o.closed = true;
    o.step.words = stepWords(o.phrases, ending);
  }
}

/** The words of a step: its phrases in order, at most MAX_PHRASES of them, then how it ended. */
export function stepWords(phrases: readonly string[], ending: string): string {
  const shown = phrases.length > MAX_PHRASES ? [...phrases.slice(0, MAX_PHRASES), `and ${phrases.length - MAX_PHRASES} more`] : [...phrases];
  if (ending !== "") shown.push(ending);
  return shown.length === 0 ? "records nothing and lets another goroutine run" : shown.join("; ");
}

/** What a goroutine waits on after its step, from the operation that blocked it. */
function waitWords(op: Op | null): string {
  if (op === null) return "then waits";
  switch (op.code) {
    case OP_RECV:
      return `then waits to receive from ${chanName(op.target)}`;
    case OP_SEND:
      return `then waits until ${chanName(op.target)} takes its value`;
    case OP_SELECT:
      return `then waits in a select on ${(op.target as readonly SelectCase[]).flatMap((c) => (c.ch === null ? [] : [c.ch.name])).join(", ")}`;
    case OP_LOCK:
    case OP_WLOCK:
    case OP_RLOCK:
      return `then waits for the lock ${chanName(op.target)}`;
    case OP_WAIT:
      return `then waits for ${chanName(op.target)}`;
    case OP_SLEEP:
      return op.value === CALL ? `then waits for ${op.label}` : "then sleeps";
    default:
      return "then waits";
  }
}

function chanName(target: unknown): string {
  const name = (target as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : "(nil)";
}
