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

/** The legacy `logprobs` object of a `/completions` choice, as the wire sends it. */
export interface LegacyChoiceLogprobs {
  tokens: string[];
  token_logprobs: (number | null)[];
  text_offset: number[];
  top_logprobs?: (Record<string, number> | null)[] | null;
}

/** Scores `continuation` from a choice's echoed logprobs for the prompt `context + continuation`. */
export function scoreEchoedChoice(lp: LegacyChoiceLogprobs | null | undefined, context: string, continuation: string): LoglikelihoodResult | undefined {
  if (!lp) return undefined;
  const topLogprobs = lp.top_logprobs ? { topLogprobs: lp.top_logprobs } : {};
  const scored = scoreContinuation(
    { tokens: lp.tokens, tokenLogprobs: lp.token_logprobs, textOffset: lp.text_offset, ...topLogprobs },
    context.length,
    context.length + continuation.length,
  );
  // No counted token for a non-empty continuation: the server did not echo the prompt.
  if (!scored || (scored.tokenCount === 0 && continuation !== "")) return undefined;
  return scored;
}

/**
 * The choices of a prompt-array reply put back in prompt order by their `index` (position when a
 * server leaves it out). Undefined when they are not exactly one per prompt.
 */
export function choicesInPromptOrder<C extends { index?: number | undefined }>(choices: readonly C[], promptCount: number): C[] | undefined {
  if (choices.length !== promptCount) return undefined;
  const ordered: C[] = new Array(promptCount);
  for (const [position, choice] of choices.entries()) {
    const at = choice.index ?? position;
    if (at < 0 || at >= promptCount || ordered[at] !== undefined) return undefined;
    ordered[at] = choice;
  }
  return ordered;
}

/** What the loglikelihood path reads of a `/completions` reply. */
export interface EchoedCompletion {
  choices: { index?: number | undefined; logprobs?: LegacyChoiceLogprobs | null | undefined }[];
}

/**
 * The common `/completions` reply checked by hand (zod costs more than the request on a local server):
 * a non-empty `choices` array of objects with a string `text`, an optional integer `index` and legacy
 * `logprobs` (or null). Undefined for anything else, which the zod schema then checks and explains.
 */
export function fastEchoedCompletion(json: unknown): EchoedCompletion | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const choices = (json as { choices?: unknown }).choices;
  if (!Array.isArray(choices) || choices.length === 0) return undefined;
  for (const choice of choices) {
    if (typeof choice !== "object" || choice === null) return undefined;
    const c = choice as { index?: unknown; text?: unknown; logprobs?: unknown };
    if (typeof c.text !== "string") return undefined;
    if (c.index !== undefined && !Number.isInteger(c.index)) return undefined;
    if (c.logprobs !== undefined && c.logprobs !== null && !isLegacyLogprobs(c.logprobs)) return undefined;
  }
  return json as EchoedCompletion;
}

function isLegacyLogprobs(value: unknown): value is LegacyChoiceLogprobs {
  if (typeof value !== "object" || value === null) return false;
  const lp = value as { tokens?: unknown; token_logprobs?: unknown; text_offset?: unknown; top_logprobs?: unknown };
  if (!Array.isArray(lp.tokens) || !Array.isArray(lp.token_logprobs) || !Array.isArray(lp.text_offset)) return false;
  for (const t of lp.tokens) if (typeof t !== "string") return false;
  for (const v of lp.token_logprobs) if (v !== null && typeof v !== "number") return false;
  for (const o of lp.text_offset) if (typeof o !== "number") return false;
  if (lp.top_logprobs === undefined || lp.top_logprobs === null) return true;
  if (!Array.isArray(lp.top_logprobs)) return false;
  for (const top of lp.top_logprobs) {
    if (top === null) continue;
    if (typeof top !== "object" || Array.isArray(top)) return false;
    for (const k in top) if (typeof (top as Record<string, unknown>)[k] !== "number") return false;
  }
  return true;
}
