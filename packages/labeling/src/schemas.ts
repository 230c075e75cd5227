import { z } from "zod";

/**
 * Quest Data Labeler formats, read as they are in its repository: task files, the dataset JSONL and
 * the results JSONL. Unknown task keys (e.g. the `label` on feedback items the corpus carries) are
 * kept; contradictory feedback definitions are refused with the reason.
 */

const text = z.string();
const nonEmpty = z.string().min(1, "must not be empty");

export const OptionSchema = z.object({ label: text, value: nonEmpty });

const base = {
  description: text,
  /** Quest: absent means required. */
  required: z.boolean().optional(),
  label: text.optional(),
};

function uniqueOptions(options: readonly { value: string }[], ctx: z.core.$RefinementCtx): void {
  const seen = new Set<string>();
  options.forEach((o, i) => {
    if (seen.has(o.value)) {
      ctx.addIssue({ code: "custom", path: ["options", i, "value"], message: `duplicate option value "${o.value}"` });
    }
    seen.add(o.value);
  });
}

const options = z.array(OptionSchema).min(1, "needs at least one option");

export const SelectFeedbackSchema = z.looseObject({ type: z.literal("select"), ...base, options });
export const MultiselectFeedbackSchema = z.looseObject({ type: z.literal("multiselect"), ...base, options });
export const RankingFeedbackSchema = z.looseObject({
  type: z.literal("ranking"),
  ...base,
  options: z.array(OptionSchema).min(2, "a ranking needs at least two options"),
});
export const TextFeedbackSchema = z.looseObject({
  type: z.literal("text"),
  ...base,
  maxLength: z.number().int().positive().optional(),
});
export const NumericFeedbackSchema = z.looseObject({
  type: z.literal("numeric"),
  ...base,
  min: z.number().finite(),
  max: z.number().finite(),
  /** Quest's UI falls back to the browser default of 1. */
  step: z.number().finite().positive("must be greater than 0").optional(),
  minLabel: text.optional(),
  maxLabel: text.optional(),
  defaultValue: z.number().finite().optional(),
});

export const FeedbackSchema = z
  .discriminatedUnion("type", [
    SelectFeedbackSchema,
    NumericFeedbackSchema,
    MultiselectFeedbackSchema,
    RankingFeedbackSchema,
    TextFeedbackSchema,
  ])
  .superRefine((f, ctx) => {
    if (f.type === "select" || f.type === "multiselect" || f.type === "ranking") uniqueOptions(f.options, ctx);
    if (f.type === "numeric") {
      if (f.min >= f.max) ctx.addIssue({ code: "custom", path: ["min"], message: `min (${f.min}) must be less than max (${f.max})` });
      const step = f.step ?? 1;
      if (step > f.max - f.min && f.min < f.max) {
        ctx.addIssue({ code: "custom", path: ["step"], message: `step (${step}) is larger than the range ${f.min}..${f.max}` });
      }
      if (f.defaultValue !== undefined && !onScale(f.defaultValue, f.min, f.max, step)) {
        ctx.addIssue({
          code: "custom",
          path: ["defaultValue"],
          message: `defaultValue ${f.defaultValue} is not on the scale ${f.min}..${f.max} step ${step}`,
        });
      }
    }
  });

export type Feedback = z.infer<typeof FeedbackSchema>;
export type NumericFeedback = z.infer<typeof NumericFeedbackSchema>;

/** True when `v` is within [min, max] and a whole number of steps from min (with float tolerance). */
export function onScale(v: number, min: number, max: number, step: number): boolean {
  if (!Number.isFinite(v) || v < min || v > max) return false;
  const steps = (v - min) / step;
  return Math.abs(steps - Math.round(steps)) < 1e-9;
}

/** A path inside `datasets/` or `results/`: relative, no `..`, no backslashes, no NUL. */
export const RelativeFileName = z
  .string()
  .min(1, "must not be empty")
  .max(255)
  .refine((s) => !s.startsWith("/") && !/^[A-Za-z]:/.test(s), "must be a relative path inside the data folder")
  .refine((s) => !s.includes("\\") && !s.includes("\0"), "must not contain backslashes or NUL")
  .refine((s) => !s.split("/").some((part) => part === ".." || part === "."), 'must not contain "." or ".." segments');

/** The docs show a plain string; the code and committed tasks use `{type, name}`. Both are read. */
export const DatasetRefSchema = z.preprocess(
  (v) => (typeof v === "string" ? { type: "jsonl", name: v } : v),
  z.object({
    type: z.literal("jsonl", { message: 'only "jsonl" datasets exist ("corruption" is not implemented upstream)' }),
    name: RelativeFileName,
  }),
);
export type DatasetRef = { type: "jsonl"; name: string };

export const TaskSchema = z.looseObject({
  taskInfo: z.looseObject({ name: nonEmpty, description: text, instructions: text }),
  presentation: z.looseObject({
    type: z.enum(["comparison", "single"]),
    displayType: z.enum(["side_by_side", "stacked", "standard"]),
  }),
  /** May be left out when `rubric` gives the task's question. */
  feedback: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, "feedback keys are letters, digits, _ . -"), FeedbackSchema).default({}),
  dataset: DatasetRefSchema,
  results: RelativeFileName,
  /** Yardstick addition: how many distinct labelers label each sample (default: the server's). */
  labelsPerSample: z.number().int().min(1).max(1000).optional(),
  /**
   * Yardstick addition: a `rubric.yaml` (path relative to the task file's folder) whose question
   * becomes the select feedback item `rubric`, its choices the options (value = the choice label).
   */
  rubric: RelativeFileName.optional(),
}).superRefine((t, ctx) => {
  if (Object.keys(t.feedback).length === 0 && t.rubric === undefined) {
    ctx.addIssue({ code: "custom", path: ["feedback"], message: "needs at least one feedback item (or a rubric)" });
  }
});
export type TaskDef = z.output<typeof TaskSchema>;

export const DatasetMetaSchema = z.looseObject({
  total_samples: z.number().int().nonnegative().optional(),
  sample_type: z.enum(["text", "text_completion", "chat_completion"]),
  samples_per_line: z.number().int().min(1, "must be at least 1"),
  hidden_metadata: z.array(z.string()).optional(),
});
export type DatasetMeta = z.infer<typeof DatasetMetaSchema>;

const metadata = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional();
const id = z.union([nonEmpty, z.number().transform(String)]);
const Message = z.looseObject({ role: z.enum(["system", "user", "assistant"]), content: text });

export const TextSampleSchema = z.looseObject({ type: z.literal("text"), id, metadata, text });
export const TextCompletionSampleSchema = z.looseObject({
  type: z.literal("text_completion"),
  id,
  metadata,
  prompt: text,
  completion: text,
});
export const ChatCompletionSampleSchema = z.looseObject({
  type: z.literal("chat_completion"),
  id,
  metadata,
  prompt: z.array(Message),
  completion: z.array(Message),
});
export const SampleSchema = z.discriminatedUnion("type", [
  TextSampleSchema,
  TextCompletionSampleSchema,
  ChatCompletionSampleSchema,
]);
export type Sample = z.infer<typeof SampleSchema>;

/** One results line: Quest's `{sample, feedback, timestamp}` plus who, which task, which line, when. */
export const ResultLineSchema = z.looseObject({
  sample: z.union([SampleSchema, z.array(SampleSchema)]),
  feedback: z.record(z.string(), z.unknown()),
  timestamp: z.string(),
  labeler: z.string().optional(),
  task: z.string().optional(),
  sampleIds: z.array(z.string()).optional(),
  line: z.number().int().optional(),
  serverTime: z.string().optional(),
});
export type ResultLine = z.infer<typeof ResultLineSchema>;
