import type { TokenLogprobs } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { scoreContinuation } from "./loglikelihood.js";

const lp = (tokens: string[], values: (number | null)[], top?: (Record<string, number> | null)[]): TokenLogprobs => {
  const textOffset: number[] = [];
  let at = 0;
  for (const t of tokens) {
    textOffset.push(at);
    at += t.length;
  }
  return { tokens, tokenLogprobs: values, textOffset, ...(top ? { topLogprobs: top } : {}) };
};

describe("scoreContinuation", () => {
  it("sums the tokens after the context and checks greediness", () => {
    const r = scoreContinuation(
      lp(["The", " sky", " is", " blue", " today"], [null, -3, -1, -0.5, -0.25], [null, { " sky": -3 }, { " is": -1 }, { " blue": -0.5 }, { " now": -0.1, " today": -0.25 }]),
      "The sky is".length,
      "The sky is blue today".length,
    );
    expect(r).toEqual({ logprob: -0.75, isGreedy: false, tokenCount: 2 });
  });

  it("counts a token that starts in the context and ends in the continuation", () => {
    const r = scoreContinuation(lp(["A", ":", " B"], [null, -1, -2], [null, { ":": -1 }, { " B": -2 }]), "A: ".length, "A: B".length);
    expect(r).toEqual({ logprob: -2, isGreedy: true, tokenCount: 1 });
  });

  it("ignores tokens past the prompt and treats missing top logprobs as not greedy", () => {
    const r = scoreContinuation(lp(["x", " y", " extra"], [null, -1, -5]), 1, 3);
    expect(r).toEqual({ logprob: -1, isGreedy: false, tokenCount: 1 });
  });

  it("gives up when a continuation token has no logprob", () => {
    expect(scoreContinuation(lp(["x", " y"], [null, null]), 1, 3)).toBeUndefined();
  });
});
