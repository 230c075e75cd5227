import type { ModelResponse } from "@yardstick/core";

const FINISH_REASONS = new Set(["stop", "length", "content_filter", "tool_calls", "error", "unknown"]);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** Problems with the shape of a ModelResponse; `n` is the number of choices expected. */
export function responseProblems(response: ModelResponse, expect: { n: number }): string[] {
  const r = response as unknown;
  if (!isRecord(r)) return [`generate returned ${String(r)}, expected a ModelResponse`];
  const problems: string[] = [];
  if (typeof r.text !== "string") problems.push(`text is ${typeof r.text}, expected a string`);
  if (!FINISH_REASONS.has(r.finishReason as string)) problems.push(`finishReason is ${JSON.stringify(r.finishReason)}, expected one of ${[...FINISH_REASONS].join(", ")}`);
  if (!Array.isArray(r.choices)) return [...problems, "choices is not an array"];
  if (r.choices.length !== expect.n) problems.push(`${r.choices.length} choice(s), expected ${expect.n}`);
  r.choices.forEach((c: unknown, i) => {
    if (!isRecord(c)) {
      problems.push(`choices[${i}] is not an object`);
      return;
    }
    if (typeof c.text !== "string") problems.push(`choices[${i}].text is not a string`);
    if (!FINISH_REASONS.has(c.finishReason as string)) problems.push(`choices[${i}].finishReason is ${JSON.stringify(c.finishReason)}`);
    if (c.reasoningContent !== undefined && typeof c.reasoningContent !== "string") problems.push(`choices[${i}].reasoningContent is not a string`);
    if (c.logprobs !== undefined) problems.push(...logprobsProblems(c.logprobs, `choices[${i}].logprobs`));
    if (c.toolCalls !== undefined) problems.push(...toolCallsProblems(c.toolCalls, `choices[${i}].toolCalls`));
  });
  const first = r.choices[0] as Record<string, unknown> | undefined;
  if (first !== undefined && first.text !== r.text) problems.push(`text ${JSON.stringify(r.text)} is not choices[0].text ${JSON.stringify(first.text)}`);
  if (first !== undefined && first.finishReason !== r.finishReason) problems.push("finishReason is not choices[0].finishReason");
  if (r.reasoningContent !== undefined && typeof r.reasoningContent !== "string") problems.push("reasoningContent is present but not a string");
  if (first !== undefined && JSON.stringify(r.toolCalls) !== JSON.stringify(first.toolCalls)) problems.push("toolCalls is not choices[0].toolCalls");
  if (r.usage !== undefined) {
    const u = r.usage;
    if (!isRecord(u)) problems.push("usage is present but not an object");
    else {
      for (const key of ["promptTokens", "completionTokens", "totalTokens"]) if (!isCount(u[key])) problems.push(`usage.${key} is ${String(u[key])}, expected a count`);
      if (u.reasoningTokens !== undefined && !isCount(u.reasoningTokens)) problems.push(`usage.reasoningTokens is ${String(u.reasoningTokens)}, expected a count`);
      if (isCount(u.totalTokens) && isCount(u.promptTokens) && isCount(u.completionTokens) && u.totalTokens < Math.max(u.promptTokens, u.completionTokens)) {
        problems.push(`usage.totalTokens ${u.totalTokens} is less than its parts`);
      }
    }
  }
  if (r.logprobs !== undefined) problems.push(...logprobsProblems(r.logprobs, "logprobs"));
  if (r.model !== undefined && typeof r.model !== "string") problems.push("model is present but not a string");
  if (r.latencyMs !== undefined && !(typeof r.latencyMs === "number" && r.latencyMs >= 0)) problems.push(`latencyMs is ${String(r.latencyMs)}`);
  return problems;
}

function toolCallsProblems(value: unknown, at: string): string[] {
  if (!Array.isArray(value)) return [`${at} is present but not an array`];
  const problems: string[] = [];
  value.forEach((call: unknown, i) => {
    if (!isRecord(call)) {
      problems.push(`${at}[${i}] is not an object`);
      return;
    }
    if (typeof call.name !== "string" || call.name === "") problems.push(`${at}[${i}].name is ${JSON.stringify(call.name)}, expected a tool name`);
    if (!isRecord(call.arguments)) problems.push(`${at}[${i}].arguments is ${JSON.stringify(call.arguments)}, expected the parsed arguments object`);
    if (call.id !== undefined && typeof call.id !== "string") problems.push(`${at}[${i}].id is present but not a string`);
  });
  return problems;
}

function logprobsProblems(value: unknown, at: string): string[] {
  if (!isRecord(value)) return [`${at} is not an object`];
  const { tokens, tokenLogprobs, textOffset } = value;
  if (!Array.isArray(tokens) || !Array.isArray(tokenLogprobs) || !Array.isArray(textOffset)) return [`${at} lacks tokens, tokenLogprobs or textOffset arrays`];
  const problems: string[] = [];
  if (tokenLogprobs.length !== tokens.length || textOffset.length !== tokens.length) problems.push(`${at}: tokens, tokenLogprobs and textOffset differ in length`);
  if (tokenLogprobs.some((lp) => lp !== null && !(typeof lp === "number" && lp <= 0))) problems.push(`${at}: a token logprob is not a number <= 0 or null`);
  return problems;
}
