// The grammar subset the Mermaid renderers emit, checked line by line with regular expressions (no
// script, no browser): what GitHub's renderer needs to draw a sequenceDiagram, participants declared
// before use, in the fixed order, and activations that are only closed once opened.
import { PARTICIPANT_ORDER } from "../../src/report/mermaid.ts";

const ID = "[a-z0-9]+";
/** Message text: anything but the characters that end or reshape it, unless written as an entity code. */
const TEXT = "(?:[^#;<>&%\"\\n]|#(?:[0-9]+|[a-zA-Z]+);)+";
const PARTICIPANT = new RegExp(`^    (?:participant|actor) (${ID})(?: as ${TEXT})?$`);
/** An arrow, optionally activating its target (+) or deactivating its source (-). */
export const MESSAGE = new RegExp(`^    (${ID})(?:->>|-->>|-x)[+-]?(${ID}): ${TEXT}$`);
export const NOTE = new RegExp(`^    Note over (${ID})(?:,(${ID}))?: ${TEXT}$`);
const COMMENT = /^    %% [^\n]*$/;

const lines = (s: string): string[] => s.split("\n").slice(0, -1);

/** An activation closed that was never opened: Mermaid refuses the whole diagram. */
function activationProblems(all: readonly string[]): string[] {
  const active = new Map<string, number>();
  const problems: string[] = [];
  all.forEach((line, i) => {
    const m = /^ {4}([a-z0-9]+)(?:->>|-->>|-x)([+-])([a-z0-9]+):/.exec(line);
    if (m === null) return;
    const [, from, act, to] = m;
    if (act === "+") active.set(to!, (active.get(to!) ?? 0) + 1);
    else if ((active.get(from!) ?? 0) === 0) problems.push(`line ${i + 1} deactivates ${from}, which is not active`);
    else active.set(from!, active.get(from!)! - 1);
  });
  return problems;
}

/** Problems of a diagram against the emitted grammar subset; [] when every line parses. */
export function grammarProblems(diagram: string): string[] {
  const problems: string[] = [];
  const all = lines(diagram);
  if (all[0] !== "sequenceDiagram") problems.push(`line 1 is ${JSON.stringify(all[0])}, not sequenceDiagram`);
  const declared: string[] = [];
  let inBody = false;
  all.slice(1).forEach((line, i) => {
    const p = PARTICIPANT.exec(line);
    if (p !== null) {
      if (inBody) problems.push(`participant declared after the first message at ${i + 2}`);
      declared.push(p[1]!);
      return;
    }
    const m = MESSAGE.exec(line) ?? NOTE.exec(line);
    if (m !== null) {
      inBody = true;
      for (const id of m.slice(1)) if (id !== undefined && !declared.includes(id)) problems.push(`undeclared ${id} at ${i + 2}`);
      return;
    }
    if (!COMMENT.test(line)) problems.push(`line ${i + 2} does not parse: ${JSON.stringify(line)}`);
  });
  const order = declared.filter((d) => (PARTICIPANT_ORDER as readonly string[]).includes(d));
  const expected = PARTICIPANT_ORDER.filter((p) => order.includes(p));
  if (order.join() !== expected.join()) problems.push(`participants out of order: ${order.join()}`);
  return [...problems, ...activationProblems(all)];
}

