/** What every judge shares: option checking, the stored answers by turn, chat requests, formatting. */
import { pyFormat } from "@yardstick/config";
import { type ChatMessage, type ChatRequest, ConfigError, PY_W, type Sample, type StoredAnswer, type TaskSpec } from "@yardstick/core";
import type { z } from "zod";

/**
 * Parses a plugin's options with `schema`; the first problem is a ConfigError naming the plugin
 * (`"judge seahelm-pairwise"`, `"metric rubric-judge"`) and the key, at `keyPrefix` + the key's path.
 */
export function parseOptionsFor<T extends z.ZodType>(plugin: string, schema: T, options: unknown, keyPrefix: readonly string[] = []): z.infer<T> {
  const result = schema.safeParse(options ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const keyPath = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
  // An unknown key is reported at the object holding it; the key itself is what a reader looks for.
  if (issue.code === "unrecognized_keys" && issue.keys[0] !== undefined) keyPath.push(issue.keys[0]);
  const where = keyPath.length > 0 ? ` at ${keyPath.join(".")}` : "";
  throw new ConfigError(`${plugin}: ${issue.message}${where}`, { keyPath: [...keyPrefix, ...keyPath] });
}

/** A judge's options (`TaskSpec.judge.options`). */
export function parseJudgeOptions<T extends z.ZodType>(judgeId: string, schema: T, options: unknown): z.infer<T> {
  return parseOptionsFor(`judge ${judgeId}`, schema, options, ["judge", "options"]);
}

/** Options are the same object for every sample of a task: parse each object once. */
export function cachedParser<T>(parse: (options: Record<string, unknown>) => T): (options: Record<string, unknown>) => T {
  const cache = new WeakMap<object, T>();
  return (options) => {
    const known = cache.get(options);
    if (known !== undefined) return known;
    const parsed = parse(options);
    cache.set(options, parsed);
    return parsed;
  };
}

/** The judged model's answers and a baseline run's answers, by 1-based turn (the latest of each turn wins). */
export interface AnswersByTurn {
  model: Map<number, StoredAnswer>;
  baseline: Map<number, StoredAnswer>;
}

/** Entries of a baseline run carry `run: "baseline"`; everything else of the generate stage is the judged model's. */
export function answersByTurn(answers: readonly StoredAnswer[]): AnswersByTurn {
  const model = new Map<number, StoredAnswer>();
  const baseline = new Map<number, StoredAnswer>();
  for (const a of answers) {
    if (a.stage !== "generate") continue;
    (a.run === "baseline" ? baseline : model).set(a.turn, a);
  }
  return { model, baseline };
}

/** The turns the judged model answered, ascending. */
export function modelTurns(byTurn: AnswersByTurn): number[] {
  return [...byTurn.model.keys()].sort((a, b) => a - b);
}

/** A chat request with an optional system message; generation parameters come from the task's judge spec. */
export function chatRequest(system: string | undefined, user: string): ChatRequest {
  const messages: ChatMessage[] = [];
  if (system !== undefined && system !== "") messages.push({ role: "system", content: system });
  messages.push({ role: "user", content: user });
  return { kind: "chat", messages, params: {} };
}

/**
 * A sample the judge cannot build requests for (a baseline answer or a row field missing). Deliberately
 * not a YardstickError: the judge stage records it as an error judgement of that sample and goes on,
 * while a YardstickError (bad options) stops the run.
 */
export class JudgeInputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "JudgeInputError";
  }
}

/** `template.format(**kwargs)`; a missing key becomes a JudgeInputError naming the sample and what was built. */
export function formatFor(sample: Sample, what: string, template: string, kwargs: Record<string, unknown>): string {
  try {
    return pyFormat(template, kwargs);
  } catch (error) {
    throw new JudgeInputError(`sample ${sample.id}: cannot build the ${what}: ${(error as Error).message}`, { cause: error });
  }
}

/** A sample field the judge needs is missing or has the wrong shape. */
export function rowError(sample: Sample, message: string): JudgeInputError {
  return new JudgeInputError(`sample ${sample.id}: ${message}`);
}

/**
 * The user prompt of turn `turn` as SEA-HELM's judges show it: the task template formatted with the
 * turn's prompt values (no preamble). Falls back to the last user message that was sent, then to the
 * turn's `text` value, for tasks whose prompt builder has no `taskTemplate`.
 */
export function turnUserPrompt(sample: Sample, task: TaskSpec | undefined, turn: number, answer?: StoredAnswer): string {
  const values = sample.prompts[turn - 1] ?? {};
  const template = task?.prompt.options?.taskTemplate;
  if (typeof template === "string") return formatFor(sample, `prompt of turn ${turn}`, template, values);
  const sent = answer?.request?.messages;
  if (sent) {
    for (let i = sent.length - 1; i >= 0; i--) {
      const m = sent[i]!;
      if (m.role === "user") return contentText(m.content);
    }
  }
  if (answer?.request?.prompt !== undefined) return answer.request.prompt;
  return typeof values.text === "string" ? values.text : "";
}

export function contentText(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  return content
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("\n");
}

/** Python's `\bWORD\b` for a word of word characters (Python's `\b` is Unicode-aware, JS's is not). */
export function pyWordPattern(word: string): RegExp {
  return new RegExp(`(?<!${PY_W})${escapeRegex(word)}(?!${PY_W})`, "u");
}

export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The numbers in a request id like "turn2-criterion-11" or "criterion-3#retry". */
export function idNumber(id: string, name: string): number | undefined {
  const m = new RegExp(`(?:^|-)${name}(\\d+)`).exec(id.replace(/#retry$/, ""));
  return m ? Number(m[1]) : undefined;
}

/** A short excerpt of a reply for error messages. */
export function excerpt(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 3)}...` : flat);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
