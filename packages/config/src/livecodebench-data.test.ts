/** LiveCodeBench: the corpus's six version tasks read their releases through seahelm-livecodebench and score with its metric port. */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSeaHelmConfigs } from "./load-seahelm.js";
import { CORPUS_TASKS } from "./test-files.test-helper.js";
import { toTaskSpecs } from "./to-task-specs.js";

describe("SEA-HELM LiveCodeBench tasks", () => {
  it("livecodebench_vN reads releases up to N of livecodebench/code_generation_lite and is scored by seahelm-livecodebench (pass@1)", async () => {
    const corpus = await loadSeaHelmConfigs([path.join(CORPUS_TASKS, "code_generation", "livecodebench")]);
    const specs = toTaskSpecs(corpus);
    expect(specs.map((s) => [s.key, s.data.options?.version])).toEqual(["v6", "v5", "v4", "v3", "v2", "v1"].map((v) => [`livecodebench_${v}/en`, v]));
    for (const spec of specs) {
      expect(spec.data).toMatchObject({ id: "seahelm-livecodebench", options: { repo: "livecodebench/code_generation_lite" } });
      expect(spec.metrics).toEqual([{ id: "seahelm-livecodebench", options: {} }]);
      expect(spec.mainScore).toBe("pass@1");
      expect(spec.prompt.options?.taskTemplate).toContain("{format_prompt}");
    }
  });
});
