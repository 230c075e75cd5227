/**
 * A parsed YAML file that keeps its `Document` and `LineCounter`, so any key path can be turned back
 * into `file:line:column` for error messages.
 */
import { ConfigError } from "@yardstick/core";
import { type Document, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument, type Scalar } from "yaml";

export interface YamlSource {
  file: string;
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

/** Parses YAML text; a syntax error becomes a ConfigError with the position and the enclosing key path. */
export function parseYamlSource(file: string, text: string): YamlSource {
  const lineCounter = new LineCounter();
  // prettyErrors off: we print our own `file:line:column`, not the library's code frame.
  // uniqueKeys off: the library compares each key with every key before it (16,000 keys took 20 s);
  // firstDuplicateKey does the same check in one pass.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const source: YamlSource = { file, doc, lineCounter };
  const error = doc.errors[0];
  if (!error) {
    const duplicate = firstDuplicateKey(doc.contents);
    if (duplicate) {
      const pos = nodePosition(source, duplicate);
      throw new ConfigError(`invalid YAML: the key "${String(duplicate.value)}" appears twice in this mapping (map keys must be unique)`, {
        file,
        line: pos.line,
        column: pos.column,
        keyPath: keyPathAtOffset(source, duplicate.range?.[0] ?? 0).slice(0, -1),
      });
    }
  }
  if (error) {
    const offset = error.pos[0];
    const pos = offsetPosition(source, offset);
    throw new ConfigError(`invalid YAML: ${error.message.split("\n")[0]}`, {
      file,
      line: pos.line,
      column: pos.column,
      keyPath: keyPathAtOffset(source, offset),
    });
  }
  return source;
}

/** The second occurrence of a scalar key within one mapping, anywhere in the tree (depth first), if any. */
function firstDuplicateKey(root: unknown): Scalar | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (isScalar(pair.key)) {
          const key = String(pair.key.value);
          if (seen.has(key)) return pair.key;
          seen.add(key);
        }
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    }
  }
  return undefined;
}

export function offsetPosition(source: YamlSource, offset: number): SourcePosition {
  const { line, col } = source.lineCounter.linePos(offset);
  return { file: source.file, line, column: col };
}

function deref(source: YamlSource, node: unknown): unknown {
  return isAlias(node) ? node.resolve(source.doc) : node;
}

export interface NodeLookup {
  /** The deepest node found along the path (the document root when nothing matched). */
  node: Node | null;
  /** How many keys of the path were found. */
  depth: number;
}

/** Walks `path` through the document's maps and sequences, stopping at the first key that is missing. */
export function nodeAtPath(source: YamlSource, path: readonly (string | number)[]): NodeLookup {
  let node = deref(source, source.doc.contents) as Node | null;
  let depth = 0;
  for (const key of path) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(key));
      if (!pair) break;
      // `key:` with no value has a null value node: point at the key instead.
      next = pair.value ?? pair.key;
    } else if (isSeq(node) && typeof key === "number") {
      next = node.items[key];
      if (next === undefined) break;
    } else {
      break;
    }
    node = deref(source, next) as Node;
    depth++;
  }
  return { node, depth };
}

export function nodePosition(source: YamlSource, node: Node | null): SourcePosition {
  const start = node?.range?.[0] ?? 0;
  return offsetPosition(source, start);
}

/** The key path of the innermost mapping entry or sequence item that contains `offset`. */
export function keyPathAtOffset(source: YamlSource, offset: number): (string | number)[] {
  const path: (string | number)[] = [];
  let node: unknown = source.doc.contents;
  for (let guard = 0; guard < 100; guard++) {
    if (isMap(node)) {
      const pair = node.items.find((p) => {
        const start = (p.key as Node | null)?.range?.[0];
        const end = (p.value as Node | null)?.range?.[2] ?? (p.key as Node | null)?.range?.[2];
        return start !== undefined && end !== undefined && offset >= start && offset <= end;
      });
      if (!pair || !isPair(pair) || !isScalar(pair.key)) break;
      path.push(String(pair.key.value));
      node = pair.value;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => {
        const r = (item as Node | null)?.range;
        return r != null && offset >= r[0] && offset <= r[2];
      });
      if (index === -1) break;
      path.push(index);
      node = node.items[index];
    } else {
      break;
    }
  }
  return path;
}
