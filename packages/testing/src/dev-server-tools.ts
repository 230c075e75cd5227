import { sha256 } from "@yardstick/core";
import { cutToTokens } from "./tokenizer.js";

/**
 * Tool calls of the dev server, shared by both protocols: which tool a request gets called (if any)
 * and arguments that satisfy the tool's JSON Schema, picked deterministically from the prompt hash
 * so a test can predict them with `devServerToolArguments`.
 */

/** A tool as the dev server sees it, whichever protocol it came through. */
export interface DevTool {
  name: string;
  /** The tool's JSON Schema (OpenAI `parameters`, Anthropic `input_schema`); `{}` when none was given. */
  parameters: Record<string, unknown>;
}

/** OpenAI's tool_choice values (Anthropic's `any` is "required", `{type: "tool", name}` is `{name}`). */
export type DevToolChoice = "none" | "auto" | "required" | { name: string };

/**
 * The tool the server calls, or undefined for a text answer: the named tool when one is forced, the
 * first tool for "required", and for "auto" (the default with tools) the first tool whose schema has
 * an `enum` somewhere: a forced-choice tool, which is what a judge offers.
 */
export function toolToCall(tools: readonly DevTool[] | undefined, choice: DevToolChoice | undefined): DevTool | undefined {
  if (tools === undefined || tools.length === 0 || choice === "none") return undefined;
  if (typeof choice === "object") return tools.find((t) => t.name === choice.name);
  if (choice === "required") return tools[0];
  return tools.find((t) => hasEnum(t.parameters, t.parameters, new Set()));
}

function hasEnum(schema: unknown, root: Record<string, unknown>, seen: Set<unknown>): boolean {
  if (typeof schema !== "object" || schema === null || seen.has(schema)) return false;
  seen.add(schema);
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return true;
  if (typeof s.$ref === "string" && hasEnum(resolveRef(s.$ref, root), root, seen)) return true;
  const children = Array.isArray(schema) ? schema : Object.values(s);
  return children.some((child) => hasEnum(child, root, seen));
}

/**
 * Arguments for a tool with JSON Schema `parameters`, for a request whose prompt hash is
 * `promptHash` (see `promptHash` of this package): every property present (so every required one);
 * an `enum` value or a boolean picked by a hash of the prompt hash and the property's path; numbers
 * within `minimum`/`maximum` (integers, picked by the same hash when both bounds are given); strings
 * and arrays of the allowed length; `$ref` to `#/$defs/...` or `#/definitions/...` followed; the
 * first alternative of `anyOf`/`oneOf`.
 */
export function devServerToolArguments(parameters: Record<string, unknown>, promptHash: string): Record<string, unknown> {
  const value = valueFor(parameters, { root: parameters, seed: promptHash, depth: 0 }, "");
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

interface Walk {
  root: Record<string, unknown>;
  seed: string;
  depth: number;
}

/** A number in [0, n) from the seed and a path: stable, and different for different properties. */
function pick(walk: Walk, path: string, n: number): number {
  return Number.parseInt(sha256(`${walk.seed}:${path}`).slice(0, 8), 16) % n;
}

function resolveRef(ref: string, root: Record<string, unknown>): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter((p) => p !== "")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

const MAX_DEPTH = 16;

function valueFor(schema: unknown, walk: Walk, path: string): unknown {
  if (typeof schema !== "object" || schema === null || walk.depth > MAX_DEPTH) return null;
  const s = schema as Record<string, unknown>;
  const deeper = { ...walk, depth: walk.depth + 1 };
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[pick(walk, path, s.enum.length)];
  if (typeof s.$ref === "string") return valueFor(resolveRef(s.$ref, walk.root), deeper, path);
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) return valueFor(options.find((o) => !isNullSchema(o)) ?? options[0], deeper, path);
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    const merged: Record<string, unknown> = { ...s, allOf: undefined };
    for (const part of s.allOf) if (typeof part === "object" && part !== null) Object.assign(merged, part);
    delete merged.allOf;
    return valueFor(merged, deeper, path);
  }
  switch (typeOf(s)) {
    case "object":
      return objectFor(s, deeper, path);
    case "array":
      return arrayFor(s, deeper, path);
    case "integer":
      return numberFor(s, walk, path, true);
    case "number":
      return numberFor(s, walk, path, false);
    case "boolean":
      return pick(walk, path, 2) === 1;
    case "null":
      return null;
    default:
      return stringFor(s);
  }
}

function isNullSchema(s: unknown): boolean {
  return typeof s === "object" && s !== null && (s as Record<string, unknown>).type === "null";
}

/** The schema's type (the first non-null one of a list), or one implied by its keywords. */
function typeOf(s: Record<string, unknown>): string {
  const t = s.type;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return (t.find((x) => x !== "null") as string | undefined) ?? "null";
  if (s.properties !== undefined || s.required !== undefined) return "object";
  if (s.items !== undefined) return "array";
  if (s.minimum !== undefined || s.maximum !== undefined) return "number";
  return "string";
}

function objectFor(s: Record<string, unknown>, walk: Walk, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = typeof s.properties === "object" && s.properties !== null ? (s.properties as Record<string, unknown>) : {};
  for (const [key, sub] of Object.entries(properties)) out[key] = valueFor(sub, walk, `${path}/${key}`);
  // A required key the schema does not describe still has to be there.
  if (Array.isArray(s.required)) for (const key of s.required) if (typeof key === "string" && !(key in out)) out[key] = "";
  return out;
}

function arrayFor(s: Record<string, unknown>, walk: Walk, path: string): unknown[] {
  const min = typeof s.minItems === "number" ? s.minItems : 1;
  const max = typeof s.maxItems === "number" ? s.maxItems : Number.POSITIVE_INFINITY;
  const count = Math.max(0, Math.min(min, max, 64));
  const items = Array.isArray(s.prefixItems) ? undefined : s.items;
  return Array.from({ length: count }, (_, i) => valueFor(items ?? {}, walk, `${path}/${i}`));
}

function numberFor(s: Record<string, unknown>, walk: Walk, path: string, integer: boolean): number {
  const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  // Draft 4 wrote exclusive bounds as booleans next to minimum/maximum; later drafts as numbers.
  let lo = num(s.minimum);
  let hi = num(s.maximum);
  const exLo = num(s.exclusiveMinimum) ?? (s.exclusiveMinimum === true ? lo : undefined);
  const exHi = num(s.exclusiveMaximum) ?? (s.exclusiveMaximum === true ? hi : undefined);
  if (exLo !== undefined) lo = Math.max(lo ?? Number.NEGATIVE_INFINITY, Math.floor(exLo) + 1);
  if (exHi !== undefined) hi = Math.min(hi ?? Number.POSITIVE_INFINITY, Math.ceil(exHi) - 1);
  const first = lo !== undefined ? Math.ceil(lo) : undefined;
  const last = hi !== undefined ? Math.floor(hi) : undefined;
  if (first !== undefined && last !== undefined) {
    if (first <= last) return first + pick(walk, path, Math.min(last - first + 1, 2 ** 31));
    // No integer fits (e.g. 0.2..0.8): the middle, which a number schema allows.
    return integer ? first : ((lo ?? 0) + (hi ?? 0)) / 2;
  }
  if (first !== undefined) return Math.max(first, 0);
  if (last !== undefined) return Math.min(last, 0);
  return 0;
}

function stringFor(s: Record<string, unknown>): string {
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Number.POSITIVE_INFINITY;
  let text = "dev";
  if (text.length < min) text = text.padEnd(Math.min(min, 10_000), "x");
  if (text.length > max) text = text.slice(0, Math.max(0, max));
  return text;
}

/** A tool call's arguments as the wire sends them, cut at `maxTokens` tokens as a text answer would be (then not valid JSON). */
export function toolArgumentsText(args: Record<string, unknown>, maxTokens: number | null | undefined): { text: string; tokens: number; cut: boolean } {
  const text = JSON.stringify(args);
  const limited = cutToTokens(text, maxTokens ?? Number.POSITIVE_INFINITY);
  return { text: limited.text, tokens: limited.count, cut: limited.cut };
}
