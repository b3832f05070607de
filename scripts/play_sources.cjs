// The play page's source index: the model's own TypeScript, so that each option of a choice can show
// the lines a goroutine is about to run. Built at build time (scripts/build-html-client.mjs) beside
// the page's script, and, run from the sources, by src/cli/html_client_bundle.ts the same way.
// CommonJS, like html_client_options.cjs, so the CLI can require() it synchronously.
//
// What it holds (the shape is src/play/sources.ts's SourceIndex):
//   files: each model file (path from the repository root) and the upstream Go file its first line
//          names ("// Models pkg/kubelet/pod_workers.go ...");
//   fns:   each generator function (a goroutine's body, or a step it delegates to with yield*), with
//          its name and its lines: only generators, since a goroutine stands only at a yield;
//   sites: each yield expression, the places a goroutine can stand at;
//   gen:   for the bundled page script, [generated line, column, site] triples (site -1: none),
//          sorted, read off the bundle's source map, so that a stack frame of the bundle finds the
//          yield it stands at; null when the index serves stack frames of the sources themselves
//          (Node running the TypeScript, as the tests do);
//   mark:  the generated line of the calibration mark (src/play/where.ts), null with gen.
const { readdirSync, readFileSync, statSync } = require("node:fs");
const { join, relative, sep } = require("node:path");

/** Top-level folders of src/ that hold no model a goroutine runs in (or that are the kernel itself). */
const SKIP_DIRS = new Set(["sim", "play", "report", "cli", "bench", "explore", "record", "check", "races", "conformance", "server", "testing"]);

/** The string the calibration error carries (src/play/where.ts): found in the bundle to learn its line. */
const SITE_MARK = "kubelet-sim:site-mark";

function modelFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(relative(root, path).split(sep).join("/"));
    }
  };
  for (const name of readdirSync(join(root, "src")).sort()) {
    const path = join(root, "src", name);
    if (statSync(path).isDirectory() && !SKIP_DIRS.has(name)) walk(path);
  }
  return out;
}

/** The upstream file a model's first line names, as a path in kubernetes/kubernetes; null when none. */
function upstreamOf(text) {
  const m = /^\/\/ Models (\S+)/m.exec(text.split("\n").slice(0, 3).join("\n"));
  if (m === null) return null;
  let path = m[1].replace(/[,.;:)]+$/, "");
  if (path.startsWith("k8s.io/")) path = `staging/src/${path.replace(/\.[A-Z]\w*$/, "")}`;
  if (!/^(pkg|staging|cmd|cluster)\//.test(path)) return null;
  return path;
}

function lineCol(sf, pos) {
  const lc = sf.getLineAndCharacterOfPosition(pos);
  return [lc.line + 1, lc.character + 1];
}

/** A generator function's name as a learner would look for it. */
function fnName(ts, node, sf, enclosing) {
  if (node.name !== undefined && ts.isIdentifier(node.name)) {
    const cls = ts.isMethodDeclaration(node) && node.parent !== undefined && ts.isClassLike(node.parent) && node.parent.name !== undefined ? `${node.parent.name.text}.` : "";
    return `${cls}${node.name.text}`;
  }
  if (node.name !== undefined) return node.name.getText(sf);
  const parent = node.parent;
  if (parent !== undefined && ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(sf).split(".").pop();
    const first = parent.arguments[0];
    const label = first !== undefined && first !== node && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first) || ts.isTemplateExpression(first)) ? ` ${first.getText(sf)}` : "";
    if (callee === "go") return `goroutine${label}${enclosing === null ? "" : ` (in ${enclosing})`}`;
  }
  if (parent !== undefined && (ts.isPropertyAssignment(parent) || ts.isVariableDeclaration(parent)) && ts.isIdentifier(parent.name)) return parent.name.text;
  return `generator in ${enclosing ?? "the module"}`;
}

/** The generator functions and yield expressions of one file. */
function scanFile(ts, path, text, fileIndex, fns, sites) {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = text.split("\n");
  const visit = (node, fnIdx, enclosing) => {
    let inner = fnIdx;
    let name = enclosing;
    const isFn = ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node);
    if (isFn && node.asteriskToken !== undefined && node.body !== undefined) {
      const [start] = lineCol(sf, node.getStart(sf));
      const [end] = lineCol(sf, node.end);
      name = fnName(ts, node, sf, enclosing);
      inner = fns.length;
      fns.push({ file: fileIndex, name, line: start, lines: lines.slice(start - 1, end) });
    } else if (isFn && node.name !== undefined) {
      name = fnName(ts, node, sf, enclosing);
    }
    if (ts.isYieldExpression(node) && inner >= 0) {
      const [line, col] = lineCol(sf, node.getStart(sf));
      const [endLine, endCol] = lineCol(sf, node.end);
      sites.push({ fn: inner, line, col, endLine, endCol });
    }
    ts.forEachChild(node, (child) => visit(child, inner, name));
  };
  visit(sf, -1, null);
}

/** The index without the bundle's table: files, generator functions and yield sites. */
function scanSources(root) {
  const ts = require("typescript");
  const files = [];
  const fns = [];
  const sites = [];
  for (const path of modelFiles(root)) {
    const text = readFileSync(join(root, path), "utf8");
    const before = fns.length;
    scanFile(ts, path, text, files.length, fns, sites);
    if (fns.length === before) continue;
    files.push({ path, upstream: upstreamOf(text) });
  }
  return { files, fns, sites };
}

/** Base64 VLQ, as source maps encode their mappings. */
const B64 = new Map([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].map((c, i) => [c, i]));

function decodeSegment(text) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const c of text) {
    const digit = B64.get(c);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    out.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return out;
}

/** The innermost site of a file that spans (line, col), 1-based; -1 when none. */
function siteAt(fileSites, line, col) {
  let best = -1;
  for (const [i, s] of fileSites) {
    const after = line > s.line || (line === s.line && col >= s.col);
    const before = line < s.endLine || (line === s.endLine && col < s.endCol);
    if (after && before) best = i;
  }
  return best;
}

/** [genLine, genCol, site] where the site a position of the bundle falls in changes, 1-based lines. */
function generatedTable(index, map, mapDir, root) {
  const byPath = new Map(index.files.map((f, i) => [f.path, i]));
  const fileOfSource = map.sources.map((s) => byPath.get(relative(root, join(mapDir, s)).split(sep).join("/")) ?? -1);
  const sitesOfFile = new Map();
  index.sites.forEach((s, i) => {
    const file = index.fns[s.fn].file;
    if (!sitesOfFile.has(file)) sitesOfFile.set(file, []);
    sitesOfFile.get(file).push([i, s]);
  });
  const table = [];
  let src = 0;
  let srcLine = 0;
  let srcCol = 0;
  let last = -2;
  map.mappings.split(";").forEach((lineText, genLine) => {
    let genCol = 0;
    for (const seg of lineText.split(",")) {
      if (seg === "") continue;
      const v = decodeSegment(seg);
      genCol += v[0];
      if (v.length < 4) continue;
      src += v[1];
      srcLine += v[2];
      srcCol += v[3];
      const file = fileOfSource[src];
      const site = file === undefined || file < 0 ? -1 : siteAt(sitesOfFile.get(file) ?? [], srcLine + 1, srcCol + 1);
      if (site === last) continue;
      table.push(genLine + 1, genCol + 1, site);
      last = site;
    }
  });
  return table;
}

/**
 * The index for the page: the sources' generators and sites, and the table from the bundle's
 * positions to them. `bundle` is the page script's text, `map` its source map (parsed), `mapDir`
 * the folder its `sources` are relative to.
 */
function buildSourceIndex(root, bundle, map, mapDir) {
  const index = scanSources(root);
  const markAt = bundle.indexOf(SITE_MARK);
  if (markAt < 0) throw new Error(`the play page's script has no calibration mark "${SITE_MARK}" (src/play/where.ts)`);
  const mark = bundle.slice(0, markAt).split("\n").length;
  return { ...index, gen: generatedTable(index, map, mapDir, root), mark };
}

/** The index for stack frames of the TypeScript sources (Node with tsx or vitest): no bundle table. */
function sourceIndexOfSources(root) {
  return { ...scanSources(root), gen: null, mark: null };
}

module.exports = { buildSourceIndex, sourceIndexOfSources, SITE_MARK };
