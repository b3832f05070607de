// Where a goroutine stands in the model's code. A generator's suspended position cannot be read, so
// while a play-mode run goes, the stack is taken each time the goroutine of interest builds an
// operation (src/sim/ops.ts's opWatch: its own frames are on the stack then), and at a choice made
// inside its code (a select, a Go map iteration). The last stack before the choice is where it
// stands; the first after it is where its step takes it. Stacks are read into sites of the model's
// TypeScript by sources.ts. Host stacks are no input to the run: nothing here enters the trace.
import { parseStack, SiteFinder, standing, type SourceIndex, type Standing } from "./sources.ts";

/** How deep a stack is kept: goroutines delegate through a few generators (syncPod → SyncPod → killContainer). */
const STACK_FRAMES = 40;

/** The stacks of one goroutine around one choice. */
export class StackWatch {
  /** The last stack taken before the choice, and the ones its step took after it. */
  before: Error | null = null;
  readonly after: Error[] = [];
  private made = false;

  constructor(
    /** The goroutine watched (its kernel id). */
    readonly procId: number,
    /** The choice's index in the tape. */
    readonly choiceIndex: number,
  ) {}

  /** The goroutine built an operation (`choicesSoFar`: how many choices the run made before). */
  onOp(procId: number, choicesSoFar: number): void {
    if (procId !== this.procId) return;
    const e = takeStack();
    if (choicesSoFar <= this.choiceIndex) this.before = e;
    else if (this.after.length < 4) this.after.push(e);
  }

  /** A choice was made while `procId` ran: for a select or a map iteration, its own code is on the stack. */
  onChoice(index: number, procId: number | null, kind: string): void {
    if (index !== this.choiceIndex || this.made) return;
    this.made = true;
    if (kind === "value" && procId === this.procId) this.before = takeStack();
  }
}

function takeStack(): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_FRAMES;
  const e = new Error();
  Error.stackTraceLimit = limit;
  return e;
}

/** Where the goroutine stood and where its step went, as sites of the index. */
export interface Where extends Standing {
  /** The last line of the function the step runs to, before its next yield there (or the site's own end). */
  toLine: number;
  /** The goroutine has not run yet: it starts at the top of its function and runs to the site. */
  starting: boolean;
}

export function whereOf(finder: SiteFinder, watch: StackWatch): Where | null {
  if (watch.before === null) return startingAt(finder, watch);
  const sites = sitesOf(finder, watch.before);
  const at = standing(finder.index, sites);
  if (at === null) return null;
  const site = finder.index.sites[at.site]!;
  // The step's next yield in the same function, when it reaches one: the lines between are what it runs.
  for (const e of watch.after) {
    const next = sitesOf(finder, e).find((s) => finder.index.sites[s]!.fn === site.fn);
    if (next !== undefined && finder.index.sites[next]!.line > site.line) return { ...at, toLine: finder.index.sites[next]!.line, starting: false };
  }
  return { ...at, toLine: site.endLine, starting: false };
}

/** A goroutine that has not run yet (a spawn): it runs from its function's top to its first yield. */
function startingAt(finder: SiteFinder, watch: StackWatch): Where | null {
  const first = watch.after[0];
  if (first === undefined) return null;
  const at = standing(finder.index, sitesOf(finder, first));
  if (at === null) return null;
  const site = finder.index.sites[at.site]!;
  return { ...at, toLine: site.line, starting: true };
}

function sitesOf(finder: SiteFinder, e: Error): number[] {
  const out: number[] = [];
  for (const f of parseStack(e.stack ?? "")) {
    const s = finder.siteOf(f);
    if (s !== null && out[out.length - 1] !== s) out.push(s);
  }
  return out;
}

/**
 * The page script's place in the document, from an error made on a line the build noted
 * (SourceIndex.mark): a stack frame's line minus the offset is its line in the bundle. Null in
 * Node, where frames name the sources themselves.
 */
export function calibrate(index: SourceIndex): { url: string; lineOffset: number } | null {
  if (index.mark === null) return null;
  const frame = parseStack(new Error("kubelet-sim:site-mark").stack ?? "")[0];
  return frame === undefined ? null : { url: frame.url, lineOffset: frame.line - index.mark };
}

/** A finder for this environment: the bundle's table in the page, the sources' own lines in Node. */
export function siteFinder(index: SourceIndex): SiteFinder {
  return new SiteFinder(index, calibrate(index));
}
