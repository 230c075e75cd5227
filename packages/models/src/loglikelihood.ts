import type { LoglikelihoodResult, TokenLogprobs } from "@yardstick/core";

/**
 * Scores a continuation from echoed prompt logprobs (prompt = context + continuation), as
 * lm-evaluation-harness does over `/v1/completions`: the continuation's tokens are the prompt tokens
 * that reach past the end of the context, their logprobs are summed, and the answer is greedy when each
 * of them is the top-1 entry of its `top_logprobs`.
 *
 * A token that straddles the boundary (starts inside the context, ends in the continuation, e.g. when the
 * context ends with a space that the tokenizer glues to the next word) counts as a continuation token,
 * since it carries continuation text. Tokens at or past the prompt's end (a server that generated
 * despite `max_tokens: 0`) are ignored. Returns undefined when a counted token has no logprob.
 */
export function scoreContinuation(lp: TokenLogprobs, contextLength: number, promptLength: number): LoglikelihoodResult | undefined {
  let logprob = 0;
  let isGreedy = true;
  let tokenCount = 0;
  const n = lp.tokens.length;
  for (let i = 0; i < n; i++) {
    const start = lp.textOffset[i];
    if (start === undefined || start >= promptLength) break;
    const token = lp.tokens[i]!;
    const end = lp.textOffset[i + 1] ?? start + token.length;
    if (end <= contextLength) continue;
    const value = lp.tokenLogprobs[i];
    if (value === null || value === undefined) return undefined;
    logprob += value;
    tokenCount++;
    const top = lp.topLogprobs?.[i];
    if (!top || topToken(top) !== token) isGreedy = false;
  }
  return { logprob, isGreedy, tokenCount };
}

function topToken(top: Record<string, number>): string | undefined {
  let best: string | undefined;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (const [token, value] of Object.entries(top)) {
    if (value > bestValue) {
      best = token;
      bestValue = value;
    }
  }
  return best;
}
