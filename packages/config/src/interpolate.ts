/**
 * OmegaConf-style `${a.b.c}` interpolation over a plain JS tree.
 *
 * - A value that is exactly one `${...}` takes the referenced node as is (type kept: int, dict, list).
 * - `${...}` inside a longer string is replaced by Python `str()` of the referenced scalar.
 * - References are absolute from the root; `${.x}` is relative to the node's parent (each extra dot
 *   goes one level up). `a[0]` indexes lists. Nested refs (`${a.${b}}`) and chains (a ref to a ref) work.
 * - `\${` is a literal `${`. Resolvers (`${oc.env:X}`) are not supported.
 * - Missing keys and cycles raise ConfigError at the position of the string holding the reference.
 */
import { ConfigError, formatKeyPath } from "@yardstick/core";
import { isPlainObject, pyStr } from "./python-str.js";

export type KeyPath = (string | number)[];

export interface Position {
  file?: string;
  line?: number;
  column?: number;
}

type Segment = { kind: "text"; text: string } | { kind: "ref"; body: Segment[]; source: string };

export function hasInterpolation(s: string): boolean {
  return s.includes("${");
}

/** Splits a string into literal text and `${...}` references (whose bodies may nest). */
export function parseInterpolation(s: string): Segment[] {
  const out: Segment[] = [];
  let text = "";
  let i = 0;
  const parseRef = (): Segment => {
    const start = i;
    i += 2;
    const body: Segment[] = [];
    let inner = "";
    while (i < s.length) {
      if (s.startsWith("${", i)) {
        if (inner) body.push({ kind: "text", text: inner });
        inner = "";
        body.push(parseRef());
        continue;
      }
      if (s[i] === "}") {
        if (inner) body.push({ kind: "text", text: inner });
        i++;
        return { kind: "ref", body, source: s.slice(start, i) };
      }
      inner += s[i];
      i++;
    }
    throw new SyntaxError(`unterminated interpolation "${s.slice(start)}"`);
  };
  while (i < s.length) {
    if (s.startsWith("\\${", i)) {
      text += "${";
      i += 3;
    } else if (s.startsWith("${", i)) {
      if (text) out.push({ kind: "text", text });
      text = "";
      out.push(parseRef());
    } else {
      text += s[i];
      i++;
    }
  }
  if (text) out.push({ kind: "text", text });
  return out;
}

/** Parses `a.b[0].c` / `.sibling` into a key path relative to `from` (the path of the node holding the ref). */
export function parseRefPath(text: string, from: readonly (string | number)[]): KeyPath {
  let rest = text.trim();
  let base: KeyPath = [];
  if (rest.startsWith(".")) {
    let dots = 0;
    while (rest[dots] === ".") dots++;
    rest = rest.slice(dots);
    // One dot = the parent of the node holding the ref (its siblings); each further dot goes up one.
    base = from.slice(0, Math.max(from.length - dots, 0));
  }
  const keys: KeyPath = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\.|\[([^\]]*)\]/gy;
  let m: RegExpExecArray | null;
  let last = 0;
  while ((m = re.exec(rest)) !== null) {
    last = re.lastIndex;
    if (m[1] !== undefined) keys.push(m[1]);
    else if (m[2] !== undefined) keys.push(Number(m[2]));
    else if (m[3] !== undefined) keys.push(m[3]);
  }
  if (last !== rest.length || (keys.length === 0 && base.length === 0)) throw new SyntaxError(`invalid reference "${text}"`);
  return [...base, ...keys];
}

export interface Resolver {
  /** Resolves every interpolation inside the node at `path` (deeply) and returns the result. */
  resolveAt(path: KeyPath): unknown;
}

/**
 * `locate` turns the path of the node holding a reference into a position for messages.
 */
export function createResolver(root: Record<string, unknown>, locate: (path: KeyPath) => Position): Resolver {
  const cache = new Map<string, unknown>();
  const inProgress = new Set<string>();
  const keyOf = (path: readonly (string | number)[]) => JSON.stringify(path);

  const fail = (message: string, at: KeyPath, expected?: string): never => {
    throw new ConfigError(message, { ...locate(at), keyPath: at, ...(expected === undefined ? {} : { expected }) });
  };

  /** Resolves `value`, which lives at `path` in the raw tree. */
  const resolveNode = (value: unknown, path: KeyPath): unknown => {
    const needsWork = typeof value === "string" ? hasInterpolation(value) : Array.isArray(value) || isPlainObject(value);
    if (!needsWork) return value;
    const key = keyOf(path);
    if (cache.has(key)) return cache.get(key);
    if (inProgress.has(key)) fail(`interpolation cycle: ${formatKeyPath(path)} refers back to itself`, path);
    inProgress.add(key);
    try {
      let result: unknown;
      if (typeof value === "string") result = resolveString(value, path);
      else if (Array.isArray(value)) result = value.map((v, i) => resolveNode(v, [...path, i]));
      else {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = resolveNode(v, [...path, k]);
        result = out;
      }
      cache.set(key, result);
      return result;
    } finally {
      inProgress.delete(key);
    }
  };

  const resolveString = (s: string, path: KeyPath): unknown => {
    let segments: Segment[];
    try {
      segments = parseInterpolation(s);
    } catch (e) {
      return fail((e as Error).message, path);
    }
    const only = segments[0];
    if (segments.length === 1 && only?.kind === "ref") return resolveRef(only, path);
    let out = "";
    for (const seg of segments) {
      if (seg.kind === "text") {
        out += seg.text;
        continue;
      }
      const v = resolveRef(seg, path);
      if (Array.isArray(v) || isPlainObject(v)) {
        fail(`interpolation ${seg.source} inside a string refers to a ${Array.isArray(v) ? "list" : "mapping"}`, path, "a scalar");
      }
      out += pyStr(v);
    }
    return out;
  };

  const resolveRef = (seg: Extract<Segment, { kind: "ref" }>, from: KeyPath): unknown => {
    // Nested references inside the body are rendered to text first: `${a.${b}}`.
    let body = "";
    for (const part of seg.body) body += part.kind === "text" ? part.text : pyStr(resolveRef(part, from));
    if (/^[\w.-]+:/.test(body.trim())) fail(`interpolation ${seg.source}: resolvers are not supported`, from, "a task.key reference");
    let target: KeyPath;
    try {
      target = parseRefPath(body, from);
    } catch (e) {
      return fail(`interpolation ${seg.source}: ${(e as Error).message}`, from);
    }
    let current: unknown = root;
    const walked: KeyPath = [];
    for (const key of target) {
      // An intermediate node may itself be a reference (`languages: ${other.languages}`).
      if (typeof current === "string" && hasInterpolation(current)) current = resolveNode(current, walked);
      let next: unknown;
      let found = false;
      if (isPlainObject(current) && Object.hasOwn(current, String(key))) {
        next = current[String(key)];
        found = true;
      } else if (Array.isArray(current) && typeof key === "number" && key < current.length) {
        next = current[key];
        found = true;
      }
      if (!found) {
        const where = walked.length === 0 ? "at the top level" : `under ${formatKeyPath(walked)}`;
        return fail(`interpolation ${seg.source}: key "${key}" not found ${where}`, from, "an existing key path");
      }
      current = next;
      walked.push(key);
    }
    const targetKey = keyOf(walked);
    if (inProgress.has(targetKey)) fail(`interpolation cycle: ${seg.source} refers back to ${formatKeyPath(walked)}`, from);
    return resolveNode(current, walked);
  };

  return { resolveAt: (path) => {
    let current: unknown = root;
    for (const key of path) current = (current as Record<string, unknown>)?.[String(key)];
    return resolveNode(current, [...path]);
  } };
}
