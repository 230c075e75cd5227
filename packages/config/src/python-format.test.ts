import { ConfigError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { PythonFormatError, pyFormat } from "./python-format.js";
import { pyFloatRepr, pyRepr, pyStr, pyStrip } from "./python-str.js";

function formatError(fn: () => unknown): PythonFormatError {
  try {
    fn();
  } catch (e) {
    if (e instanceof PythonFormatError) return e;
    throw e;
  }
  throw new Error("expected a PythonFormatError");
}

// Expected values below were produced with CPython 3 `str.format`.
describe("pyFormat", () => {
  it("substitutes names and keeps {{ }} as literal braces", () => {
    expect(pyFormat("{answer_tag} {label}", { answer_tag: "Jawaban:", label: "B" })).toBe("Jawaban: B");
    expect(pyFormat("{{x}} {x} }}{{", { x: 1 })).toBe("{x} 1 }{");
    expect(pyFormat("no fields")).toBe("no fields");
  });

  it("renders values like Python str()", () => {
    expect(pyFormat("{a}|{b}|{c}|{d}|{e}|{f}", { a: null, b: true, c: ["x", "y's"], d: { k: 1 }, e: 2.5, f: 1e-5 })).toBe(
      `None|True|['x', "y's"]|{'k': 1}|2.5|1e-05`,
    );
  });

  it("supports positional and automatic numbering, and rejects mixing them", () => {
    expect(pyFormat("{0}-{1}-{0}", {}, ["a", "b"])).toBe("a-b-a");
    expect(pyFormat("{}+{}", {}, [1, 2])).toBe("1+2");
    expect(formatError(() => pyFormat("{}{0}", {}, [1])).message).toContain("cannot switch from automatic field numbering");
    expect(formatError(() => pyFormat("{2}", {}, [1])).message).toContain("Replacement index 2 out of range");
  });

  it("supports index access and Python's attribute rules", () => {
    expect(pyFormat("{a[0]} {a[1]} {d[key]} {s[1]}", { a: ["x", "y"], d: { key: "v" }, s: "héllo" })).toBe("x y v é");
    expect(formatError(() => pyFormat("{d[0]}", { d: { "0": "v" } })).message).toContain("KeyError");
    expect(formatError(() => pyFormat("{d.key}", { d: { key: "v" } })).message).toContain("AttributeError: 'dict' object has no attribute 'key'");
    expect(pyFormat("{d.key}", { d: { key: "v" } }, [], { lenientAttributes: true })).toBe("v");
    expect(formatError(() => pyFormat("{a[5]}", { a: [1] })).message).toContain("IndexError");
  });

  it("applies format specs", () => {
    expect(pyFormat("[{x:>5}][{x:<5}][{x:^6}][{x:*^7}]", { x: "ab" })).toBe("[   ab][ab   ][  ab  ][**ab***]");
    expect(pyFormat("{x:.2f}|{x:08.3f}|{x:+.1e}|{x:.0%}", { x: 3.14259 })).toBe("3.14|0003.143|+3.1e+00|314%");
    expect(pyFormat("{n:,}|{n:_d}|{n:x}|{n:#b}|{n:05d}", { n: 12345 })).toBe("12,345|12_345|3039|0b11000000111001|12345");
    expect(pyFormat("{x:g}|{y:g}|{z:.3}", { x: 0.00001, y: 1234567, z: 1234.5678 })).toBe("1e-05|1.23457e+06|1.23e+03");
    expect(pyFormat("{s:.3}", { s: "abcdef" })).toBe("abc");
    expect(pyFormat("{w:>{width}}", { w: "x", width: 4 })).toBe("   x");
    expect(pyFormat("{x!r} {x!s}", { x: "it" })).toBe("'it' it");
  });

  it("rejects bad specs with Python's messages", () => {
    expect(formatError(() => pyFormat("{s:d}", { s: "x" })).message).toContain("Unknown format code 'd' for object of type 'str'");
    expect(formatError(() => pyFormat("{x:d}", { x: 1.5 })).message).toContain("Unknown format code 'd' for object of type 'float'");
    expect(formatError(() => pyFormat("{n:>5}", { n: null })).message).toContain("unsupported format string passed to NoneType.__format__");
    expect(formatError(() => pyFormat("{s:+}", { s: "x" })).message).toContain("Sign not allowed in string format specifier");
  });

  it("raises on a missing key, naming the key and the template", () => {
    const err = formatError(() => pyFormat("Text: {text} {answer_tag}", { text: "hi" }));
    expect(ConfigError.isInstance(err)).toBe(true);
    expect(err.message).toContain("missing key 'answer_tag'");
    expect(err.message).toContain('"Text: {text} {answer_tag}"');
    expect(err.expected).toBe("one of 'text'");
  });

  it("raises on single braces like Python", () => {
    expect(formatError(() => pyFormat("a } b")).message).toContain("Single '}' encountered in format string");
    expect(formatError(() => pyFormat("a {")).message).toContain("Single '{' encountered in format string");
    expect(formatError(() => pyFormat("a {b")).message).toContain("expected '}' before end of string");
    expect(formatError(() => pyFormat("{a!x}", { a: 1 })).message).toContain("Unknown conversion specifier x");
  });

  it("keeps JSON-like text in templates only when braces are doubled", () => {
    expect(pyFormat('{{"answer": "{label}"}}', { label: "A" })).toBe('{"answer": "A"}');
    expect(formatError(() => pyFormat('{"answer": 1}', {})).message).toContain(`missing key '"answer"'`);
  });
});

describe("python str helpers", () => {
  it("repr of floats matches CPython", () => {
    expect(pyFloatRepr(0.1)).toBe("0.1");
    expect(pyFloatRepr(1e16)).toBe("1e+16");
    expect(pyFloatRepr(1.2345678901234568e17)).toBe("1.2345678901234568e+17");
    expect(pyFloatRepr(0.0001)).toBe("0.0001");
    expect(pyFloatRepr(0.00001234)).toBe("1.234e-05");
    expect(pyFloatRepr(-2.5)).toBe("-2.5");
    expect(pyFloatRepr(3)).toBe("3.0");
    expect(pyStr(1e16)).toBe("1e+16");
    expect(pyStr(42)).toBe("42");
  });

  it("repr of strings picks quotes and escapes like CPython", () => {
    expect(pyRepr("a'b")).toBe(`"a'b"`);
    expect(pyRepr(`a'b"c`)).toBe(`'a\\'b"c'`);
    expect(pyRepr("line\nnext\\")).toBe("'line\\nnext\\\\'");
    expect(pyRepr([1, "x", null, false])).toBe("[1, 'x', None, False]");
  });

  it("strip removes Python whitespace only", () => {
    expect(pyStrip("\u3000 \t\n x y \x1c\x85")).toBe("x y");
    expect(pyStrip("\ufeffx")).toBe("\ufeffx"); // BOM is not whitespace in Python (JS trim removes it)
  });
});
