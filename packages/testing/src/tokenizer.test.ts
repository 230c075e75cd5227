import { describe, expect, it } from "vitest";
import { countTokens, cutToTokens, tokenize } from "./tokenizer.js";

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
    }
  });
});

describe("countTokens and cutToTokens (o200k BPE, as a real server counts)", () => {
  it("counts BPE tokens, not words", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("Hello, world!")).toBe(4);
    // A long word is several BPE tokens where the word splitter sees one.
    expect(countTokens("antidisestablishmentarianism")).toBeGreaterThan(1);
    expect(tokenize("antidisestablishmentarianism").tokens).toHaveLength(1);
    // Text that spells a special token is counted as plain text, not refused.
    expect(countTokens("a <|endoftext|> b")).toBeGreaterThan(3);
  });

  it("cuts at a token budget, never inside a character", () => {
    expect(cutToTokens("one two three four", 2)).toEqual({ text: "one two", count: 2, cut: true });
    expect(cutToTokens("one two", 5)).toEqual({ text: "one two", count: 2, cut: false });
    expect(cutToTokens("one two", 0)).toEqual({ text: "", count: 0, cut: true });
    for (let budget = 0; budget < 8; budget++) {
      const { text } = cutToTokens("emoji 😀🎉 日本語 ok", budget);
      expect("emoji 😀🎉 日本語 ok".startsWith(text)).toBe(true);
      expect(text).not.toContain("\uFFFD");
    }
  });
});
