/**
 * Python `str.format` for prompt templates. SEA-HELM builds every prompt with it, so the port has to
 * agree on escapes (`{{`/`}}`), errors (missing key, single `}`) and value rendering (`str()`).
 *
 * Supported: `{name}`, `{0}`, `{}` (auto-numbering), index access `{a[0]}`/`{a[key]}`, attribute access
 * `{a.b}` (Python raises on dict/list values; `lenientAttributes` reads the JS property instead),
 * conversions `!s`/`!r`/`!a`, and format specs `[[fill]align][sign][#][0][width][,|_][.precision][type]`
 * with types s, d, b, o, x, X, c, f, F, e, E, %, g, G (and none). Nested `{}` inside a spec are expanded.
 */
import { ConfigError } from "@yardstick/core";
import { isPlainObject, pyRepr, pyStr } from "./python-str.js";

/** A template could not be formatted; names the template and, for a missing key, the key. */
export class PythonFormatError extends ConfigError {
  readonly template: string;
  constructor(message: string, template: string, expected?: string) {
    super(`${message} in template ${JSON.stringify(excerpt(template))}`, expected === undefined ? {} : { expected });
    this.template = template;
  }
}

function excerpt(template: string): string {
  return template.length > 120 ? `${template.slice(0, 117)}...` : template;
}

export interface PyFormatOptions {
  /** Read `{a.b}` as the JS property `b` of a dict value instead of raising as Python does. */
  lenientAttributes?: boolean;
}

type FieldKey = { kind: "attr"; name: string } | { kind: "index"; key: string | number };

interface State {
  template: string;
  args: readonly unknown[];
  kwargs: Record<string, unknown>;
  options: PyFormatOptions;
  /** -1 = unused, -2 = manual numbering seen, otherwise the next automatic index. */
  auto: number;
}

/** `template.format(*args, **kwargs)`. */
export function pyFormat(
  template: string,
  kwargs: Record<string, unknown> = {},
  args: readonly unknown[] = [],
  options: PyFormatOptions = {},
): string {
  const simple = simpleTemplate(template);
  if (simple !== null) {
    // Only literals and `{name}` fields: str() of each keyword value. A missing key falls through to
    // the general renderer below, which raises the usual KeyError.
    let out = simple[0] as string;
    let complete = true;
    for (let i = 1; i < simple.length; i += 2) {
      const name = simple[i]!;
      if (!Object.hasOwn(kwargs, name)) {
        complete = false;
        break;
      }
      out += pyStr(kwargs[name]) + simple[i + 1]!;
    }
    if (complete) return out;
  }
  const state: State = { template, args, kwargs, options, auto: -1 };
  return render(template, state, 2);
}

/**
 * Prompt templates are formatted once per sample but are only a handful of distinct strings, so
 * each is parsed once: a template made of literal text and plain `{name}` fields becomes
 * [literal, name, literal, name, ..., literal] (escaped braces already undone); anything else
 * (positional, attribute/index access, conversion, format spec, or a malformed template) is
 * `null` and always goes through `render`, which keeps every error exactly as before.
 */
const simpleTemplates = new Map<string, string[] | null>();
const SIMPLE_FIELD = /^[^.[\]!:{}]+$/;

function simpleTemplate(template: string): string[] | null {
  let parts = simpleTemplates.get(template);
  if (parts === undefined) {
    parts = parseSimpleTemplate(template);
    if (simpleTemplates.size >= 1024) simpleTemplates.clear(); // bounded: callers may format many distinct templates
    simpleTemplates.set(template, parts);
  }
  return parts;
}

function parseSimpleTemplate(text: string): string[] | null {
  const parts: string[] = [];
  let literal = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "}") {
      if (text[i + 1] !== "}") return null;
      literal += "}";
      i += 2;
    } else if (ch !== "{") {
      literal += ch;
      i++;
    } else if (text[i + 1] === "{") {
      literal += "{";
      i += 2;
    } else {
      const close = text.indexOf("}", i + 1);
      if (close === -1) return null;
      const name = text.slice(i + 1, close);
      // Numeric names are positional, and anything with . [ ] ! : { is not a plain keyword lookup.
      if (!SIMPLE_FIELD.test(name) || /^\d+$/.test(name)) return null;
      parts.push(literal, name);
      literal = "";
      i = close + 1;
    }
  }
  parts.push(literal);
  return parts;
}

function render(text: string, state: State, depth: number): string {
  if (depth < 0) throw new PythonFormatError("Max string recursion exceeded", state.template);
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "}") {
      if (text[i + 1] === "}") {
        out += "}";
        i += 2;
        continue;
      }
      throw new PythonFormatError("Single '}' encountered in format string", state.template);
    }
    if (ch !== "{") {
      out += ch;
      i++;
      continue;
    }
    if (text[i + 1] === "{") {
      out += "{";
      i += 2;
      continue;
    }
    if (i + 1 >= text.length) throw new PythonFormatError("Single '{' encountered in format string", state.template);
    // Find the matching '}' counting nested braces (nested fields live in the format spec).
    let count = 1;
    let j = i + 1;
    let inName = true;
    for (; j < text.length; j++) {
      const c = text[j];
      if (inName) {
        if (c === "[") {
          // Brackets in the field name may hold ':' or '!'; CPython skips to the ']'.
          const close = text.indexOf("]", j);
          if (close !== -1) {
            j = close;
            continue;
          }
        } else if (c === ":" || c === "!") inName = false;
      }
      if (c === "{") count++;
      else if (c === "}") {
        count--;
        if (count === 0) break;
      }
    }
    if (count !== 0 || j >= text.length) throw new PythonFormatError("expected '}' before end of string", state.template);
    out += renderField(text.slice(i + 1, j), state, depth);
    i = j + 1;
  }
  return out;
}

function renderField(field: string, state: State, depth: number): string {
  // Split "name!conv:spec", where name may contain [...] holding ':' or '!'.
  let k = 0;
  while (k < field.length && field[k] !== ":" && field[k] !== "!") {
    if (field[k] === "[") {
      const close = field.indexOf("]", k);
      if (close === -1) break;
      k = close;
    }
    k++;
  }
  const name = field.slice(0, k);
  let conversion: string | undefined;
  let spec = "";
  if (field[k] === "!") {
    conversion = field[k + 1];
    if (conversion === undefined) throw new PythonFormatError("end of string while looking for conversion specifier", state.template);
    if (k + 2 < field.length && field[k + 2] !== ":") throw new PythonFormatError("expected ':' after conversion specifier", state.template);
    spec = field.slice(k + 3);
  } else if (field[k] === ":") {
    spec = field.slice(k + 1);
  }
  let value = lookup(name, state);
  if (conversion !== undefined) {
    if (conversion === "s") value = pyStr(value);
    else if (conversion === "r") value = pyRepr(value);
    else if (conversion === "a") value = asciiEscape(pyRepr(value));
    else throw new PythonFormatError(`Unknown conversion specifier ${conversion}`, state.template);
  }
  const expandedSpec = spec.includes("{") ? render(spec, state, depth - 1) : spec;
  return formatValue(value, expandedSpec, state.template);
}

function asciiEscape(s: string): string {
  let out = "";
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) out += ch;
    else if (code <= 0xff) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += `\\U${code.toString(16).padStart(8, "0")}`;
  }
  return out;
}

function parseFieldName(name: string, template: string): { first: string; rest: FieldKey[] } {
  let k = 0;
  while (k < name.length && name[k] !== "." && name[k] !== "[") k++;
  const first = name.slice(0, k);
  if (name.includes("{")) throw new PythonFormatError("unexpected '{' in field name", template);
  const rest: FieldKey[] = [];
  while (k < name.length) {
    const c = name[k];
    if (c === ".") {
      let e = k + 1;
      while (e < name.length && name[e] !== "." && name[e] !== "[") e++;
      const attr = name.slice(k + 1, e);
      if (attr === "") throw new PythonFormatError("Empty attribute in format string", template);
      rest.push({ kind: "attr", name: attr });
      k = e;
    } else if (c === "[") {
      const close = name.indexOf("]", k);
      if (close === -1) throw new PythonFormatError("Missing ']' in format string", template);
      const key = name.slice(k + 1, close);
      if (key === "") throw new PythonFormatError("Empty attribute in format string", template);
      rest.push({ kind: "index", key: /^\d+$/.test(key) ? Number(key) : key });
      k = close + 1;
      if (k < name.length && name[k] !== "." && name[k] !== "[") {
        throw new PythonFormatError("Only '.' or '[' may follow ']' in format field specifier", template);
      }
    } else {
      break;
    }
  }
  return { first, rest };
}

function lookup(name: string, state: State): unknown {
  const { first, rest } = parseFieldName(name, state.template);
  let value: unknown;
  if (first === "") {
    if (state.auto === -2) {
      throw new PythonFormatError("cannot switch from manual field specification to automatic field numbering", state.template);
    }
    const index = state.auto === -1 ? 0 : state.auto;
    state.auto = index + 1;
    value = positional(index, state);
  } else if (/^\d+$/.test(first)) {
    if (state.auto >= 0) {
      throw new PythonFormatError("cannot switch from automatic field numbering to manual field specification", state.template);
    }
    state.auto = -2;
    value = positional(Number(first), state);
  } else {
    if (!Object.hasOwn(state.kwargs, first)) {
      const known = Object.keys(state.kwargs);
      throw new PythonFormatError(
        `KeyError: missing key '${first}'`,
        state.template,
        known.length > 0 ? `one of ${known.map((k) => `'${k}'`).join(", ")}` : "no placeholders (none were given)",
      );
    }
    value = state.kwargs[first];
  }
  for (const key of rest) value = access(value, key, state);
  return value;
}

function positional(index: number, state: State): unknown {
  if (index >= state.args.length) {
    throw new PythonFormatError(
      `IndexError: Replacement index ${index} out of range for positional args tuple`,
      state.template,
    );
  }
  return state.args[index];
}

function access(value: unknown, key: FieldKey, state: State): unknown {
  if (key.kind === "attr") {
    if (state.options.lenientAttributes && isPlainObject(value) && Object.hasOwn(value, key.name)) return value[key.name];
    throw new PythonFormatError(`AttributeError: ${typeName(value)} object has no attribute '${key.name}'`, state.template);
  }
  if (Array.isArray(value)) {
    if (typeof key.key !== "number") {
      throw new PythonFormatError(`TypeError: list indices must be integers or slices, not str ('${key.key}')`, state.template);
    }
    if (key.key >= value.length) throw new PythonFormatError(`IndexError: list index ${key.key} out of range`, state.template);
    return value[key.key];
  }
  if (typeof value === "string") {
    if (typeof key.key !== "number") {
      throw new PythonFormatError(`TypeError: string indices must be integers, not str ('${key.key}')`, state.template);
    }
    const chars = [...value];
    if (key.key >= chars.length) throw new PythonFormatError(`IndexError: string index ${key.key} out of range`, state.template);
    return chars[key.key];
  }
  if (isPlainObject(value)) {
    // JSON dicts only have string keys, so a numeric index is a KeyError in Python.
    if (typeof key.key === "number" || !Object.hasOwn(value, key.key)) {
      throw new PythonFormatError(`KeyError: missing key ${typeof key.key === "number" ? key.key : `'${key.key}'`}`, state.template);
    }
    return value[key.key];
  }
  throw new PythonFormatError(`TypeError: ${typeName(value)} object is not subscriptable`, state.template);
}

function typeName(value: unknown): string {
  if (value === null || value === undefined) return "'NoneType'";
  if (typeof value === "string") return "'str'";
  if (typeof value === "boolean") return "'bool'";
  if (typeof value === "number") return Number.isInteger(value) ? "'int'" : "'float'";
  if (Array.isArray(value)) return "'list'";
  if (isPlainObject(value)) return "'dict'";
  return `'${typeof value}'`;
}

// ------------------------------------------------------------------ format spec

interface Spec {
  fill: string;
  align: "<" | ">" | "^" | "=" | undefined;
  sign: "+" | "-" | " " | undefined;
  alternate: boolean;
  zero: boolean;
  width: number | undefined;
  grouping: "," | "_" | undefined;
  precision: number | undefined;
  type: string | undefined;
}

const SPEC_RE = /^(?:(.)?([<>=^]))?([+\- ])?(z)?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([a-zA-Z%])?$/su;

function parseSpec(spec: string, template: string): Spec {
  const m = SPEC_RE.exec(spec);
  if (!m) throw new PythonFormatError(`Invalid format specifier '${spec}'`, template);
  return {
    fill: m[1] ?? (m[6] && !m[2] ? "0" : " "),
    align: (m[2] as Spec["align"]) ?? (m[6] ? "=" : undefined),
    sign: m[3] as Spec["sign"],
    alternate: m[5] !== undefined,
    zero: m[6] !== undefined,
    width: m[7] === undefined ? undefined : Number(m[7]),
    grouping: m[8] as Spec["grouping"],
    precision: m[9] === undefined ? undefined : Number(m[9]),
    type: m[10],
  };
}

function formatValue(value: unknown, specText: string, template: string): string {
  if (specText === "") return pyStr(value);
  const spec = parseSpec(specText, template);
  if (typeof value === "string") return formatString(value, spec, template);
  if (typeof value === "number" || typeof value === "boolean") {
    if (typeof value === "boolean" && spec.type === undefined) return formatString(value ? "True" : "False", { ...spec, align: spec.align ?? ">" }, template);
    return formatNumber(Number(value), typeof value === "boolean" || Number.isInteger(value), spec, template);
  }
  throw new PythonFormatError(`TypeError: unsupported format string passed to ${typeName(value).slice(1, -1)}.__format__`, template);
}

function formatString(value: string, spec: Spec, template: string): string {
  if (spec.type !== undefined && spec.type !== "s") {
    throw new PythonFormatError(`ValueError: Unknown format code '${spec.type}' for object of type 'str'`, template);
  }
  if (spec.sign !== undefined) throw new PythonFormatError("ValueError: Sign not allowed in string format specifier", template);
  if (spec.align === "=") throw new PythonFormatError("ValueError: '=' alignment not allowed in string format specifier", template);
  let text = value;
  if (spec.precision !== undefined) text = [...text].slice(0, spec.precision).join("");
  return pad(text, "", spec, "<");
}

function pad(body: string, prefix: string, spec: Spec, defaultAlign: "<" | ">"): string {
  const align = spec.align ?? defaultAlign;
  const len = [...prefix].length + [...body].length;
  const missing = spec.width === undefined ? 0 : Math.max(spec.width - len, 0);
  if (missing === 0) return prefix + body;
  const fill = spec.fill;
  if (align === "<") return prefix + body + fill.repeat(missing);
  if (align === ">") return fill.repeat(missing) + prefix + body;
  if (align === "=") return prefix + fill.repeat(missing) + body;
  const left = Math.floor(missing / 2);
  return fill.repeat(left) + prefix + body + fill.repeat(missing - left);
}

function group(intDigits: string, sep: string | undefined, size = 3): string {
  if (!sep) return intDigits;
  let out = "";
  for (let i = 0; i < intDigits.length; i++) {
    if (i > 0 && (intDigits.length - i) % size === 0) out += sep;
    out += intDigits[i];
  }
  return out;
}

function formatNumber(x: number, isInt: boolean, spec: Spec, template: string): string {
  const type = spec.type;
  const negative = x < 0 || Object.is(x, -0);
  const abs = Math.abs(x);
  let body: string;
  let prefix = "";
  switch (type) {
    case "d":
    case "b":
    case "o":
    case "x":
    case "X":
    case "c": {
      if (!isInt) throw new PythonFormatError(`ValueError: Unknown format code '${type}' for object of type 'float'`, template);
      if (spec.precision !== undefined) throw new PythonFormatError("ValueError: Precision not allowed in integer format specifier", template);
      if (type === "c") return pad(String.fromCodePoint(x), "", spec, "<");
      const radix = type === "d" ? 10 : type === "b" ? 2 : type === "o" ? 8 : 16;
      body = abs.toString(radix);
      if (type === "X") body = body.toUpperCase();
      if (spec.alternate && type !== "d") prefix = type === "b" ? "0b" : type === "o" ? "0o" : type === "x" ? "0x" : "0X";
      body = group(body, spec.grouping, radix === 10 ? 3 : 4);
      break;
    }
    case "f":
    case "F":
    case "%": {
      const value = type === "%" ? abs * 100 : abs;
      body = Number.isFinite(value) ? value.toFixed(spec.precision ?? 6) : value === Number.POSITIVE_INFINITY ? "inf" : "nan";
      if (type === "F") body = body.toUpperCase();
      body = groupFixed(body, spec.grouping);
      if (type === "%") body += "%";
      break;
    }
    case "e":
    case "E": {
      body = expForm(abs, spec.precision ?? 6);
      if (type === "E") body = body.toUpperCase();
      break;
    }
    case "g":
    case "G":
    case undefined: {
      if (type === undefined && spec.precision === undefined) {
        body = groupFixed(isInt ? String(abs) : pyStr(abs), spec.grouping);
        break;
      }
      body = generalForm(abs, spec.precision ?? (type === undefined ? 12 : 6), spec.alternate, type === undefined);
      if (type === "G") body = body.toUpperCase();
      body = groupFixed(body, spec.grouping);
      break;
    }
    default:
      throw new PythonFormatError(
        `ValueError: Unknown format code '${type}' for object of type '${isInt ? "int" : "float"}'`,
        template,
      );
  }
  const sign = negative && !(x === 0 && isInt) ? "-" : spec.sign === "+" ? "+" : spec.sign === " " ? " " : "";
  return pad(body, sign + prefix, spec, ">");
}

function groupFixed(body: string, sep: string | undefined): string {
  if (!sep) return body;
  const m = /^(\d+)(.*)$/s.exec(body);
  return m ? group(m[1]!, sep) + m[2]! : body;
}

function expForm(abs: number, precision: number): string {
  if (!Number.isFinite(abs)) return abs === Number.POSITIVE_INFINITY ? "inf" : "nan";
  const [mant, exp = "0"] = abs.toExponential(precision).split("e");
  const e = Number(exp);
  return `${mant}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

/** Python's `g` presentation: fixed or exponent form by magnitude, trailing zeros removed. */
function generalForm(abs: number, precision: number, alternate: boolean, noneType: boolean): string {
  if (!Number.isFinite(abs)) return abs === Number.POSITIVE_INFINITY ? "inf" : "nan";
  const p = precision === 0 ? 1 : precision;
  const exp = abs === 0 ? 0 : Number(abs.toExponential(p - 1).split("e")[1]);
  let out: string;
  if (exp >= -4 && exp < p) {
    out = abs.toFixed(Math.max(p - 1 - exp, 0));
    if (!alternate && out.includes(".")) out = out.replace(/0+$/, "").replace(/\.$/, "");
    // The empty presentation type keeps at least one digit after the point, like str().
    if (noneType && !out.includes(".")) out += ".0";
  } else {
    const [mant = "", e = "0"] = abs.toExponential(p - 1).split("e");
    let m = mant;
    if (!alternate && m.includes(".")) m = m.replace(/0+$/, "").replace(/\.$/, "");
    const n = Number(e);
    out = `${m}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
  }
  return out;
}
