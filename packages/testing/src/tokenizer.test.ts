import { describe, expect, it } from "vitest";
import { countTokens, tokenize } from "./tokenizer.js";

describe("tokenize", () => {
  it("splits words with their leading space and punctuation alone", () => {
    expect(tokenize("Hello, world!").tokens).toEqual(["Hello", ",", " world", "!"]);
    expect(tokenize("  a  b\n").tokens).toEqual(["  a", "  b", "\n"]);
    expect(tokenize("don't").tokens).toEqual(["don", "'", "t"]);
  });

  it("gives one token per CJK character and keeps other scripts' words whole", () => {
    expect(tokenize("日本語 ok").tokens).toEqual(["日", "本", "語", " ok"]);
    expect(tokenize("Xin chào").tokens).toEqual(["Xin", " chào"]);
  });

  it("is lossless: tokens concatenate to the input and offsets point at them", () => {
    for (const text of ["", " ", "a", "Answer: B.\n\n", "x = 3.14 * r^2;", "  Paris  ", "emoji 😀 ok"]) {
      const { tokens, offsets } = tokenize(text);
      expect(tokens.join("")).toBe(text);
      for (const [i, t] of tokens.entries()) expect(text.slice(offsets[i], offsets[i]! + t.length)).toBe(t);
      expect(countTokens(text)).toBe(tokens.length);
    }
  });
});
