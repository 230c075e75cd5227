import { ConfigError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { parseYamlSource } from "./yaml-source.js";

/** A task config with `n` extra keys in one mapping. */
const manyKeys = (n: number): string => {
  const lines = ["toy:", "  metadata:", "    extra:"];
  for (let i = 0; i < n; i++) lines.push(`      k${i}: ${i}`);
  lines.push("  name: toy");
  return `${lines.join("\n")}\n`;
};

const timeToParse = (text: string): number => {
  const start = performance.now();
  parseYamlSource("config.yaml", text);
  return performance.now() - start;
};

describe("parseYamlSource", () => {
  it("takes time in proportion to the keys of a mapping, not their square (16,000 keys took 20 s, 100,000 never ended)", () => {
    const small = manyKeys(4_000);
    const large = manyKeys(64_000);
    timeToParse(small); // warm up the parser
    const fastest = (text: string): number => Math.min(timeToParse(text), timeToParse(text), timeToParse(text));
    const ratio = fastest(large) / fastest(small);
    // 16x the keys: about 16x the time when linear, 256x when quadratic; the margin absorbs a busy
    // machine (the suite runs files in parallel), which can stretch either side several times.
    expect(ratio).toBeLessThan(80);
  });

  it("still refuses a key given twice in one mapping, naming the key, its line and the mapping", () => {
    let caught: unknown;
    try {
      parseYamlSource("config.yaml", "toy:\n  name: a\n  languages:\n    id: {}\n  name: b\nother:\n  name: a\n");
    } catch (err) {
      caught = err;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toBe('config.yaml:5:3 toy: invalid YAML: the key "name" appears twice in this mapping (map keys must be unique)');
    // The same key in different mappings is fine.
    expect(() => parseYamlSource("config.yaml", "a:\n  name: x\nb:\n  name: x\n")).not.toThrow();
  });
});
