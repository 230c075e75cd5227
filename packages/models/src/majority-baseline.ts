import type { ModelCallContext, ModelProviderV1, ModelRequest, ModelResponse, TaskSpec } from "@yardstick/core";
import { z } from "zod";
import { baselineResponse, formatAnswer, taskLabels } from "./baseline-answer.js";
import { parseSettings } from "./config-error.js";

export const majorityBaselineSettingsSchema = z.strictObject({
  modelId: z.string().min(1).default("majority"),
});
export type MajorityBaselineSettings = z.input<typeof majorityBaselineSettingsSchema>;

const labelCountsSchema = z.record(z.string(), z.number().min(0));

/**
 * Always answers the task's most frequent label. The counts come from `task.extra.labelCounts`
 * (`{label: count}`, e.g. filled in by whoever loaded the data); without them, or when none of the
 * labels is counted, the first label of `task.labels` is used. Ties go to the label listed first.
 */
export function createMajorityBaseline(settings: MajorityBaselineSettings = {}): ModelProviderV1 {
  const s = parseSettings(majorityBaselineSettingsSchema, settings, "baseline:majority");
  return {
    specVersion: "v1",
    id: "baseline:majority",
    modelId: s.modelId,
    identity: () => `baseline:majority:${s.modelId}`,
    async generate(request: ModelRequest, ctx?: ModelCallContext): Promise<ModelResponse> {
      const labels = taskLabels("baseline:majority", ctx);
      const text = formatAnswer(majorityLabel(labels, ctx?.task), ctx);
      return baselineResponse(Array.from({ length: Math.max(1, request.params.n ?? 1) }, () => text));
    },
  };
}

export function majorityLabel(labels: readonly string[], task: TaskSpec | undefined): string {
  const parsed = labelCountsSchema.safeParse(task?.extra?.labelCounts);
  let best = labels[0]!;
  if (!parsed.success) return best;
  let bestCount = -1;
  for (const label of labels) {
    const count = parsed.data[label] ?? -1;
    if (count > bestCount) {
      best = label;
      bestCount = count;
    }
  }
  return best;
}
