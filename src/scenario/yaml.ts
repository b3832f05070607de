// Parses scenario YAML into a document (for positions) and a plain value (for the schema), refusing
// hostile input quickly: deep nesting, alias bombs, complex keys, several documents.
import { Composer, isAlias, isCollection, isMap, isPair, isScalar, Lexer, LineCounter, parseDocument, Parser, type Document, type Node } from "yaml";
import type { LocatedIssue } from "./errors.ts";
import { describeValue } from "./found.ts";

import { MAX_ALIASES, MAX_DEPTH } from "./bounds.ts";

export { MAX_ALIASES, MAX_DEPTH };

export type YamlResult =
  | { ok: true; doc: Document; lineCounter: LineCounter; value: Record<string, unknown> }
  | { ok: false; issues: LocatedIssue[] };

export function parseYaml(text: string, file: string): YamlResult {
  const reused = takeParsedSingle(text, file);
  if (reused !== null) return reused;
  const lc = new LineCounter();
  const at = (offset: number, message: string): LocatedIssue => ({ file, ...lc.linePos(offset), path: "", message });
  // The lexer is iterative and cheap; it bounds nesting before the recursive composer runs.
  const deep = prescanDepth(text);
  if (deep !== undefined) {
    const pos = lineColOf(text, deep);
    return { ok: false, issues: [{ file, ...pos, path: "", message: tooDeep() }] };
  }
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false, strict: true });
  const syntax = [...doc.errors, ...doc.warnings].map((e) => {
    const message = `syntax error: ${syntaxMessage(e.code, e.message, text, e.pos[0])}`;
    // An unclosed quote is noticed at the end of the file; the place to fix is where it opens.
    const open = e.code === "MISSING_CHAR" && /quote/i.test(e.message) ? unclosedQuote(text) : undefined;
    return open === undefined ? at(e.pos[0], message) : at(open, message);
  });
  if (syntax.length > 0) return { ok: false, issues: syntax };
  const structural = checkNodes(doc, (offset, message) => at(offset, message));
  if (structural.length > 0) return { ok: false, issues: structural };
  const contents = doc.contents as Node | null;
  if (!isMap(contents)) {
    const found = contents === null ? "nothing" : isCollection(contents) ? "a list" : describeValue(isScalar(contents) ? contents.value : undefined);
    const offset = contents?.range?.[0] ?? 0;
    return { ok: false, issues: [at(offset, `expected a scenario: a mapping of fields (name, kubelet, pods, ...), found ${found} at the top level`)] };
  }
  try {
    return { ok: true, doc, lineCounter: lc, value: doc.toJS({ maxAliasCount: MAX_ALIASES }) as Record<string, unknown> };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const excessive = /alias count/i.test(message);
    return {
      ok: false,
      issues: [at(firstAliasOffset(doc), excessive ? aliasBomb() : `syntax error: ${lowerFirst(message)}`)],
    };
  }
}

/** One document of a YAML stream: its node tree (for positions) and its plain value (null when empty). */
export interface StreamDoc {
  doc: Document;
  value: unknown;
  /** 1-based line where the document's content starts. */
  line: number;
}

export type StreamResult = { ok: true; docs: StreamDoc[]; lineCounter: LineCounter } | { ok: false; issues: LocatedIssue[] };

/** Parses every document of a `---`-separated stream, with the same refusals as parseYaml per document. */
export function parseYamlStream(text: string, file: string): StreamResult {
  const lc = new LineCounter();
  const at = (offset: number, message: string): LocatedIssue => ({ file, ...lc.linePos(offset), path: "", message });
  let all: Document.Parsed[];
  try {
    all = parseAllDepthGuarded(text, lc);
  } catch (err) {
    if (!(err instanceof TooDeep)) throw err;
    return { ok: false, issues: [{ file, ...lineColOf(text, err.offset), path: "", message: tooDeep() }] };
  }
  const issues: LocatedIssue[] = [];
  const docs: StreamDoc[] = [];
  let aliases = 0;
  for (const doc of all) {
    for (const e of [...doc.errors, ...doc.warnings]) issues.push(at(e.pos[0], `syntax error: ${syntaxMessage(e.code, e.message, text, e.pos[0])}`));
    if (doc.errors.length > 0) continue;
    const structural = checkNodes(doc, at);
    if (structural.length > 0) {
      issues.push(...structural);
      continue;
    }
    const offset = (doc.contents as Node | null)?.range?.[0] ?? doc.range[0];
    try {
      const value = doc.toJS({ maxAliasCount: MAX_ALIASES }) as unknown;
      aliases += countAliases(doc);
      if (aliases > MAX_ALIASES) return { ok: false, issues: [at(firstAliasOffset(doc), aliasBomb())] };
      docs.push({ doc, value, line: lc.linePos(offset).line });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      issues.push(at(firstAliasOffset(doc), /alias count/i.test(message) ? aliasBomb() : `syntax error: ${lowerFirst(message)}`));
    }
  }
  if (issues.length === 0 && all.length === 1 && docs.length === 1) keepParsedSingle(text, file, docs[0]!, lc);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, docs, lineCounter: lc };
}

/**
 * A loader reads a file's documents as a stream first (is it a scenario or manifests?), then as
 * one scenario document: the same parse twice, and parsing is most of the time a big file takes.
 * The stream's one document is kept here for the parseYaml call that follows on the same text,
 * once; any other call finds nothing and parses.
 */
let parsedSingle: { text: string; file: string; doc: StreamDoc; lc: LineCounter } | null = null;

function keepParsedSingle(text: string, file: string, doc: StreamDoc, lc: LineCounter): void {
  parsedSingle = { text, file, doc, lc };
}

function takeParsedSingle(text: string, file: string): YamlResult | null {
  const kept = parsedSingle;
  parsedSingle = null;
  if (kept === null || kept.text !== text || kept.file !== file) return null;
  const { doc, value } = kept.doc;
  // Only a mapping is a scenario; anything else goes through parseYaml's own refusals.
  if (!isMap(doc.contents) || typeof value !== "object" || value === null || Array.isArray(value)) return null;
  return { ok: true, doc, lineCounter: kept.lc, value: value as Record<string, unknown> };
}

function countAliases(doc: Document): number {
  let n = 0;
  const stack: unknown[] = [doc.contents];
  for (let i = 0; stack.length > 0 && i < 1_000_000; i++) {
    const node = stack.pop();
    if (isAlias(node)) n++;
    else if (isPair(node)) stack.push(node.key, node.value);
    else if (isCollection(node)) stack.push(...node.items);
  }
  return n;
}

const tooDeep = () => `nested too deeply: more than ${MAX_DEPTH} levels; a scenario never needs that many`;
const aliasBomb = () =>
  `too many alias expansions: aliases may expand to at most ${MAX_ALIASES} nodes (this looks like an alias bomb)`;

/** Thrown by parseAllDepthGuarded where nesting first exceeds MAX_DEPTH: its offset in the text. */
class TooDeep extends Error {
  constructor(readonly offset: number) {
    super("nested too deeply");
  }
}

/**
 * parseAllDocuments(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false, strict: true })
 * (the library's own steps: a Parser fed by a Lexer, a Composer over its tokens), with the lexer's
 * tokens counted as prescanDepth counts them on their way to the parser, so the text is lexed once
 * rather than twice (the prescan was an eighth of a 110-pod scenario's load). The parser is a stack
 * machine and a document reaches the recursive composer only once all its tokens are lexed, so a
 * too-deep document still throws TooDeep before any composing of it.
 */
function parseAllDepthGuarded(text: string, lc: LineCounter): Document.Parsed[] {
  const parser = new Parser(lc.addNewLine);
  const composer = new Composer({ uniqueKeys: false, strict: true });
  function* tokens() {
    lc.addNewLine(0); // Parser.parse's onNewLine(0) at offset 0
    // prescanDepth's count, in the same loop (a generator between lexer and parser cost what it saved).
    const depth = new DepthCount();
    for (const token of new Lexer().lex(text)) {
      if (depth.tooDeep(token)) throw new TooDeep(depth.offset);
      yield* parser.next(token);
    }
    yield* parser.end();
  }
  // An empty stream gives no document (parseAllDocuments' EmptyStream, an empty array).
  return Array.from(composer.compose(tokens()));
}

/** Nesting counted token by token from the lexer: flow brackets and compact "- - -" items. */
class DepthCount {
  /** Where the token being counted starts in the text. */
  offset = 0;
  private flow = 0;
  private lineIndicators = 0;

  /** Counts one token; true when nesting exceeds MAX_DEPTH at it (offset is then its start). */
  tooDeep(token: string): boolean {
    if (token === "[" || token === "{") this.flow++;
    else if (token === "]" || token === "}") this.flow = Math.max(0, this.flow - 1);
    else if (token === "-" || token === "?") this.lineIndicators++;
    else if (token === "\n" || token === "\r\n") this.lineIndicators = 0;
    if (this.flow + this.lineIndicators > MAX_DEPTH) return true;
    this.offset += sourceLength(token);
    return false;
  }
}

/** The offset where nesting first exceeds MAX_DEPTH, counting flow brackets and compact "- - -" items. */
function prescanDepth(text: string): number | undefined {
  const depth = new DepthCount();
  for (const token of new Lexer().lex(text)) if (depth.tooDeep(token)) return depth.offset;
  return undefined;
}

/**
 * Depth, alias count, alias targets, key shapes and duplicate keys, walked without recursion. The
 * yaml library's own duplicate check (uniqueKeys) compares each key with every key before it, so a
 * mapping of n keys costs n²/2 comparisons (10,000 annotations took seconds); a set per mapping
 * here costs n, with the same rule (plain keys equal when their values are).
 */
function checkNodes(doc: Document, at: (offset: number, message: string) => LocatedIssue): LocatedIssue[] {
  const issues: LocatedIssue[] = [];
  const anchors = new Set<string>();
  let aliases = 0;
  const stack: Array<{ node: unknown; depth: number }> = [{ node: doc.contents, depth: 1 }];
  const visit: Array<{ node: Node; depth: number }> = [];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    // Pairs have no source range of their own; their key and value are visited instead.
    if (!isPair(node)) visit.push({ node: node as Node, depth });
    if (isMap(node)) {
      issues.push(...duplicateKeys(node.items, at));
      for (let i = node.items.length - 1; i >= 0; i--) stack.push({ node: node.items[i], depth });
    } else if (isPair(node)) {
      stack.push({ node: node.value, depth: depth + 1 }, { node: node.key, depth: depth + 1 });
      if (node.key !== null && !isScalar(node.key) && !isAlias(node.key)) {
        issues.push(at((node.key as Node).range?.[0] ?? 0, "expected a plain key (a name), found a list or mapping used as a key"));
      }
    } else if (isCollection(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push({ node: node.items[i], depth: depth + 1 });
    }
  }
  // Document order matters for anchors: an alias must follow its anchor.
  visit.sort((a, b) => (a.node.range?.[0] ?? 0) - (b.node.range?.[0] ?? 0));
  for (const { node, depth } of visit) {
    const offset = node.range?.[0] ?? 0;
    if (depth > MAX_DEPTH) return [at(offset, tooDeep())];
    if (isAlias(node)) {
      if (++aliases > MAX_ALIASES) return [at(offset, aliasBomb())];
      if (!anchors.has(node.source)) issues.push(at(offset, `unknown alias *${node.source}: no anchor &${node.source} before it`));
    } else if ("anchor" in node && typeof node.anchor === "string") {
      anchors.add(node.anchor);
    }
  }
  return issues;
}

/** Every key of a mapping that an earlier key of it equals, where that later key is written. */
function duplicateKeys(pairs: readonly unknown[], at: (offset: number, message: string) => LocatedIssue): LocatedIssue[] {
  const seen = new Set<unknown>();
  const out: LocatedIssue[] = [];
  for (const pair of pairs) {
    const key = isPair(pair) ? pair.key : null;
    if (!isScalar(key)) continue;
    if (seen.has(key.value)) out.push(at(key.range?.[0] ?? 0, `syntax error: duplicate key ${JSON.stringify(String(key.value))}: each key may appear once in a mapping`));
    else seen.add(key.value);
  }
  return out;
}

function firstAliasOffset(doc: Document): number {
  let first: number | undefined;
  const stack: unknown[] = [doc.contents];
  for (let n = 0; stack.length > 0 && n < 1_000_000; n++) {
    const node = stack.pop();
    if (isAlias(node)) first = Math.min(first ?? Infinity, node.range?.[0] ?? 0);
    else if (isPair(node)) stack.push(node.key, node.value);
    else if (isCollection(node)) stack.push(...node.items);
  }
  return first ?? 0;
}

function syntaxMessage(code: string, message: string, text: string, offset: number): string {
  switch (code) {
    case "TAB_AS_INDENT":
      return "a tab used for indentation; YAML indents with spaces only";
    case "DUPLICATE_KEY":
      return `duplicate key ${JSON.stringify(keyAt(text, offset))}: each key may appear once in a mapping`;
    case "MULTIPLE_DOCS":
      return "expected one YAML document, found several (separated by ---); put one scenario per file";
    case "BLOCK_AS_IMPLICIT_KEY":
      return "a mapping inside a one-line key: value; quote the value if it contains \": \"";
    case "MISSING_CHAR":
      return /quote/i.test(message) ? "unclosed quote: the string that starts here never ends" : lowerFirst(message);
    case "BAD_INDENT":
      return `bad indentation: ${lowerFirst(message)}`;
    default:
      return lowerFirst(message);
  }
}

function keyAt(text: string, offset: number): string {
  const rest = text.slice(offset, offset + 200);
  const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:\n]*)/.exec(rest);
  const key = (m?.[1] ?? "").trim();
  return key.startsWith('"') || key.startsWith("'") ? key.slice(1, -1) : key;
}

/** The offset of the first quoted scalar that has no closing quote. */
function unclosedQuote(text: string): number | undefined {
  let offset = 0;
  let found: number | undefined;
  for (const token of new Lexer().lex(text)) {
    const q = token[0];
    if ((q === '"' || q === "'") && (token.length === 1 || token[token.length - 1] !== q)) found ??= offset;
    offset += sourceLength(token);
  }
  return found;
}

/** The lexer marks documents, scalars and flow ends with control tokens that are not in the source. */
const sourceLength = (token: string) => (token === "\x02" || token === "\x18" || token === "\x1f" ? 0 : token.length);

function lineColOf(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, col: before.at(-1)!.length + 1 };
}

const lowerFirst = (s: string) => (s.length > 0 ? s[0]!.toLowerCase() + s.slice(1) : s);
