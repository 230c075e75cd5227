import { ConfigError, MetricError, type MetricInput, type MetricResult, type MetricV1 } from "@yardstick/core";
import { InstructionArgumentError } from "../checkers/arguments.js";
import type { CheckerContext } from "../checkers/types.js";
import { InstructionRowError } from "../instruction-row.js";
import { detectLanguage } from "../language/detect-language.js";
import { ENGLISH_CHECKERS } from "./checkers.js";
import { type EnglishInstruction, readEnglishInstructions } from "./english-row.js";

export const IFEVAL_EN_METRIC_ID = "ifeval:en";

export interface IfevalEnglishSettings {
  /** Replaces the built-in language identifier (upstream uses langdetect); returns an ISO 639-1 code. */
  detectLanguage?: (text: string) => string;
}

export type IfevalEnglishMetric = MetricV1 & { readonly orderIndependent: true };

/**
 * The variants of a response the loose score also tries: without its first line, its last line or
 * both, each with and without asterisks (so Markdown emphasis and a chatty opener do not count
 * against it).
 */
export function looseVariants(response: string): string[] {
  const lines = response.split("\n");
  const withoutFirst = lines.slice(1).join("\n").trim();
  const withoutLast = lines.slice(0, -1).join("\n").trim();
  const withoutBoth = lines.slice(1, -1).join("\n").trim();
  const plain = (s: string) => s.replaceAll("*", "");
  return [response, plain(response), withoutFirst, withoutLast, withoutBoth, plain(withoutFirst), plain(withoutLast), plain(withoutBoth)];
}

/** Whether each instruction is followed by the response (strict) or by any loose variant (loose). */
export function followInstructions(
  response: string,
  instructions: readonly EnglishInstruction[],
  ctx: CheckerContext,
): { strict: boolean[]; loose: boolean[] } {
  // An empty response follows nothing, as upstream's `response.strip() and ...`.
  const follows = (text: string, inst: EnglishInstruction): boolean => {
    if (text.trim() === "") return false;
    try {
      return ENGLISH_CHECKERS[inst.id](text, inst.kwargs, ctx);
    } catch (error) {
      if (error instanceof InstructionArgumentError) throw new InstructionArgumentError(`${inst.id}: ${error.message}`);
      throw error;
    }
  };
  const variants = looseVariants(response);
  return {
    strict: instructions.map((inst) => follows(response, inst)),
    loose: instructions.map((inst) => variants.some((text) => follows(text, inst))),
  };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const share = (bits: readonly boolean[]) => mean(bits.map(Number));

/**
 * google's IFEval as SEA-HELM's English `IFEvalMetric` computes it: every row has one or more of 25
 * verifiable instructions. Prompt level: the share of rows following all of theirs; instruction
 * level: the mean over rows of each row's share of followed instructions (SEA-HELM averages per row;
 * lm-evaluation-harness pools all instructions). Strict checks the response as given, loose also
 * its variants (`looseVariants`). Main score `normalized_prompt_level_strict_acc` (0–100).
 */
export function createIfevalEnglishMetric(settings: IfevalEnglishSettings = {}): IfevalEnglishMetric {
  if (settings.detectLanguage !== undefined && typeof settings.detectLanguage !== "function") {
    throw new MetricError("settings.detectLanguage must be a function", { metricId: IFEVAL_EN_METRIC_ID });
  }
  const detect = settings.detectLanguage ?? ((text: string) => detectLanguage(text).language);
  const ctx: CheckerContext = { language: "en", pythonWordChars: false, upstreamResponseLanguage: false, detectLanguage: detect };

  return {
    specVersion: "v1",
    id: IFEVAL_EN_METRIC_ID,
    description: "google's IFEval (SEA-HELM english_evals/ifeval): prompt- and instruction-level accuracy, strict and loose (normalized_prompt_level_strict_acc)",
    textPairs: false,
    orderIndependent: true,
    checkOptions: (options) => checkNoOptions(options),
    compute(inputs: readonly MetricInput[], options: Record<string, unknown>): MetricResult {
      checkNoOptions(options);
      if (inputs.length === 0) throw new MetricError("no samples to score", { metricId: IFEVAL_EN_METRIC_ID });
      const perSample = inputs.map((input) => {
        const { strict, loose } = scoreRow(input, ctx);
        return {
          sampleId: input.sampleId,
          scores: {
            prompt_level_strict_acc: strict.every(Boolean) ? 1 : 0,
            inst_level_strict_acc: share(strict),
            prompt_level_loose_acc: loose.every(Boolean) ? 1 : 0,
            inst_level_loose_acc: share(loose),
          },
        };
      });
      const avg = (key: keyof (typeof perSample)[number]["scores"]) => mean(perSample.map((s) => s.scores[key]));
      return {
        scores: {
          prompt_level_strict_acc: avg("prompt_level_strict_acc"),
          inst_level_strict_acc: avg("inst_level_strict_acc"),
          prompt_level_loose_acc: avg("prompt_level_loose_acc"),
          inst_level_loose_acc: avg("inst_level_loose_acc"),
          normalized_prompt_level_strict_acc: 100 * avg("prompt_level_strict_acc"),
        },
        perSample,
        details: { count: inputs.length },
      };
    },
  };
}

function scoreRow(input: MetricInput, ctx: CheckerContext): { strict: boolean[]; loose: boolean[] } {
  const fail = (message: string, cause?: unknown) => new MetricError(message, { metricId: IFEVAL_EN_METRIC_ID, sampleId: input.sampleId, cause });
  if (typeof input.prediction !== "string") {
    throw fail(`prediction is ${input.prediction === null ? "null" : typeof input.prediction}, expected the response text (a string)`);
  }
  let instructions: EnglishInstruction[];
  try {
    instructions = readEnglishInstructions(input);
  } catch (error) {
    if (error instanceof InstructionRowError || error instanceof InstructionArgumentError) throw fail(error.message, error);
    throw error;
  }
  try {
    return followInstructions(input.prediction, instructions, ctx);
  } catch (error) {
    if (error instanceof InstructionArgumentError) throw fail(error.message, error);
    throw error;
  }
}

function checkNoOptions(options: unknown): void {
  if (options === undefined || options === null) return;
  const keys = typeof options === "object" && !Array.isArray(options) ? Object.keys(options).filter((k) => (options as Record<string, unknown>)[k] !== undefined) : ["(not an object)"];
  if (keys.length > 0) {
    throw new ConfigError(`ifeval:en options: unknown key "${keys[0]}"`, { keyPath: [keys[0]!], expected: "no options (the English IFEval metric has none)" });
  }
}
