// Maps a field path (as zod reports it) back to a line and column in the YAML source.
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node, type Pair, type YAMLMap } from "yaml";

export interface Position {
  line: number;
  col: number;
}

type AnyNode = Node | null | undefined;

function start(node: AnyNode, lc: LineCounter): Position | undefined {
  const offset = node?.range?.[0];
  return offset === undefined ? undefined : lc.linePos(offset);
}

/**
 * Each mapping's pairs by key, built once: locating n issues in a mapping of n keys then costs n,
 * not the n² of searching its pairs each time. The first pair of a key wins, as find() did.
 */
const pairIndex = new WeakMap<YAMLMap, Map<string, Pair>>();

function pairOf(map: YAMLMap, seg: PropertyKey): Pair | undefined {
  let index = pairIndex.get(map);
  if (index === undefined) {
    index = new Map();
    for (const p of map.items) {
      if (!isScalar(p.key)) continue;
      const name = String(p.key.value);
      if (!index.has(name)) index.set(name, p as Pair);
    }
    pairIndex.set(map, index);
  }
  return index.get(String(seg));
}

/**
 * The position of the node at `path`, or of its nearest existing ancestor (a missing required
 * field is reported where its mapping starts). With `atKey`, the last segment's key is located
 * instead of its value: an unknown field is reported where its name is written.
 */
export function locate(doc: Document, lc: LineCounter, path: readonly PropertyKey[], atKey = false): Position {
  let node: AnyNode = doc.contents as AnyNode;
  let best = start(node, lc) ?? { line: 1, col: 1 };
  for (let i = 0; i < path.length && node; i++) {
    if (isAlias(node)) node = node.resolve(doc) as AnyNode;
    const seg = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = pairOf(node, seg);
      if (!pair) return best;
      const keyPos = start(pair.key as AnyNode, lc);
      if (last && atKey) return keyPos ?? best;
      // `key:` with nothing after it has no value node; the key marks the place.
      node = pair.value as AnyNode;
      best = start(node, lc) ?? keyPos ?? best;
    } else if (isSeq(node) && typeof seg === "number") {
      node = node.items[seg] as AnyNode;
      best = start(node, lc) ?? best;
    } else {
      return best;
    }
  }
  return best;
}
