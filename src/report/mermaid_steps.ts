// What both Mermaid renderers (the full diagram and the narrowed one) share: steps that know when
// they happen, sorted by that instant (a call's arrow goes where the call began, not where its
// record was written, when it returned), activations kept balanced, and the lines written out.
import { mermaidText, participantId } from "./mermaid_text.ts";

/** A call at least this long is drawn as an activation from its start to its end. */
export const LONG_CALL_MS = 1000;

interface StepBase {
  /** The virtual instant the step happens at. */
  at: number;
  /** The record it comes from (ties at one instant keep trace order). */
  seq: number;
  /**
   * 0 for what a record says at its own instant, 1 for a call's start (drawn where the call began):
   * at one instant the records written then come first, then the calls begun then.
   */
  order: number;
  /** For a call's start: when it returned (of calls begun together, the outer, longer one first). */
  until?: number;
}

export type Step =
  | (StepBase & { from: string; to: string; arrow: "->>" | "-->>" | "-x"; act?: "+" | "-"; text: string })
  | (StepBase & { note: string; over?: string; text: string; maxChars?: number });

/** Sorted by instant, then trace order: the order things happened in. */
export function sortSteps(steps: Step[]): Step[] {
  // Calls begun together and returning together: the outer one's record is written last.
  return steps.sort((a, b) => a.at - b.at || a.order - b.order || (b.until ?? 0) - (a.until ?? 0) || (a.order === 1 ? b.seq - a.seq : a.seq - b.seq));
}

/**
 * Drops a deactivation whose activation is not in the diagram (cut by a filter or the window), so
 * Mermaid never meets "inactivate an inactive participant".
 */
export function balanceActivations(steps: readonly Step[]): Step[] {
  const active = new Map<string, number>();
  return steps.map((s) => {
    if ("note" in s || s.act === undefined) return s;
    if (s.act === "+") {
      active.set(s.to, (active.get(s.to) ?? 0) + 1);
      return s;
    }
    const n = active.get(s.from) ?? 0;
    if (n === 0) return { ...s, act: undefined };
    active.set(s.from, n - 1);
    return s;
  });
}

/** One step as a line of the diagram. */
export function stepLine(s: Step): string {
  if ("note" in s) {
    const over = s.over === undefined || s.over === s.note ? participantId(s.note) : `${participantId(s.note)},${participantId(s.over)}`;
    return `    Note over ${over}: ${mermaidText(s.text, s.maxChars)}`;
  }
  return `    ${participantId(s.from)}${s.arrow}${s.act ?? ""}${participantId(s.to)}: ${mermaidText(s.text)}`;
}

/** The participants a step draws on. */
export function stepParticipants(s: Step): string[] {
  if ("note" in s) return s.over === undefined ? [s.note] : [s.note, s.over];
  return [s.from, s.to];
}

/** "40.5s", "2.01s", "350ms": how long a call took, for its return arrow. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const s = ms / 1000;
  return `${s >= 10 ? s.toFixed(1) : s.toFixed(2)}s`;
}
