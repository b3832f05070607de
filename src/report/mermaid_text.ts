// Text inside a Mermaid sequence diagram line, made safe for GitHub's renderer.
//
// In sequenceDiagram's grammar a message or note text runs from ":" to the end of the line, and "#"
// or ";" end it early ("#" starts an entity code, ";" separates statements). Mermaid decodes entity
// codes "#59;" (decimal) and "#lt;" (named) in text, so every special character becomes one.
// "<" and ">" would be read as HTML ("<br>"), "%%" as a comment, so they are encoded as well.

const ENTITY: Readonly<Record<string, string>> = {
  "#": "#35;",
  ";": "#59;",
  "<": "#lt;",
  ">": "#gt;",
  "&": "#amp;",
  "%": "#37;",
  '"': "#quot;",
};

/** Longest text kept on one arrow; longer texts end in "..." so the diagram stays readable. */
export const MAX_TEXT_CHARS = 100;

/** Escapes one message or note text: one line, no grammar characters, never empty. */
export function mermaidText(raw: string, maxChars = MAX_TEXT_CHARS): string {
  let text = raw.replace(/\s+/g, " ").trim();
  if (text.length > maxChars) text = `${text.slice(0, maxChars - 3)}...`;
  if (text === "") text = "-";
  return text.replace(/[#;<>&%"]/g, (c) => ENTITY[c]!);
}

/** A participant id: lower-case letters and digits only, so it never needs quoting. */
export function participantId(name: string): string {
  const id = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return id === "" ? "unknown" : id;
}
