// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are OmegaConf interpolations, not JS templates
import { describe, expect, it } from "vitest";
import { createResolver, parseRefPath } from "./interpolate.js";

const resolveAll = (root: Record<string, unknown>) => createResolver(root, () => ({ file: "mem.yaml", line: 1, column: 1 })).resolveAt([]);

describe("createResolver", () => {
  it("keeps the referenced node's type for whole-value refs", () => {
    const out = resolveAll({ a: { n: 3, list: [1, 2], flag: false, none: null }, b: { n: "${a.n}", list: "${a.list}", flag: "${a.flag}", none: "${a.none}", all: "${a}" } }) as Record<string, Record<string, unknown>>;
    expect(out.b).toEqual({ n: 3, list: [1, 2], flag: false, none: null, all: { n: 3, list: [1, 2], flag: false, none: null } });
  });

  it("renders refs inside longer strings with Python str()", () => {
    const out = resolveAll({ a: { n: 3, f: 1.5, t: true, z: null }, s: "n=${a.n} f=${a.f} t=${a.t} z=${a.z}" }) as Record<string, unknown>;
    expect(out.s).toBe("n=3 f=1.5 t=True z=None");
  });

  it("supports relative refs, list indexes and nested refs", () => {
    const out = resolveAll({
      a: { x: 1, y: "${.x}", list: ["p", "q"], first: "${a.list[1]}", key: "x", dyn: "${a.${a.key}}" },
    }) as Record<string, Record<string, unknown>>;
    expect(out.a).toMatchObject({ y: 1, first: "q", dyn: 1 });
  });

  it("rejects mappings inside strings, resolvers and cycles", () => {
    expect(() => resolveAll({ a: { b: 1 }, s: "x ${a}" })).toThrow(/refers to a mapping/);
    expect(() => resolveAll({ s: "${oc.env:HOME}" })).toThrow(/resolvers are not supported/);
    expect(() => resolveAll({ a: "${b}", b: "${c}", c: "${a}" })).toThrow(/interpolation cycle/);
    expect(() => resolveAll({ a: { inner: "${a}" } })).toThrow(/interpolation cycle/);
    expect(() => resolveAll({ s: "${nope.x}" })).toThrow(
      'mem.yaml:1:1 s: interpolation ${nope.x}: key "nope" not found at the top level (expected an existing key path)',
    );
    expect(() => resolveAll({ s: "${a" })).toThrow(/unterminated interpolation/);
  });

  it("parses reference paths", () => {
    expect(parseRefPath("a.b[2].c", [])).toEqual(["a", "b", 2, "c"]);
    expect(parseRefPath("..x", ["t", "langs", "id"])).toEqual(["t", "x"]);
    expect(() => parseRefPath("", [])).toThrow(/invalid reference/);
  });
});
