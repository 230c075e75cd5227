import { describe, expect, it } from "vitest";
import { describeRunDifference } from "./run-difference.js";
import type { RunManifest } from "./run-store.js";

const task = (key: string, maxTokens: number, extra: Record<string, unknown> = {}) => ({ key, generation: { maxTokens }, metrics: [{ id: "accuracy" }], dataDigest: "sha256:a", ...extra });

function manifest(over: { model?: string; options?: Record<string, unknown>; tasks?: unknown[]; data?: Record<string, string> } = {}): RunManifest {
  const tasks = over.tasks ?? [task("t/en", 64)];
  return {
    formatVersion: 2,
    yardstickVersion: "0.1.0",
    versions: {},
    fingerprint: "f",
    fingerprintParts: { tasks: "h", data: over.data ?? { "t/en": "sha256:a" }, model: over.model ?? "p:m", options: over.options ?? { seed: 1 } },
    createdAt: "2026-01-01T00:00:00.000Z",
    models: { generate: { provider: "p", modelId: "m", identity: "p:m" } },
    options: {},
    tasks: tasks as RunManifest["tasks"],
  };
}

describe("describeRunDifference", () => {
  it("names the model, the options, a task's changed keys with both values, and its data", () => {
    expect(describeRunDifference(manifest(), manifest({ model: "p:n" }))).toBe("the model (p:m → p:n)");
    expect(describeRunDifference(manifest(), manifest({ options: { seed: 2, limit: 5 } }))).toBe("option limit (not set) → 5; option seed 1 → 2");
    expect(describeRunDifference(manifest(), manifest({ tasks: [task("t/en", 99)] }))).toBe("t/en: generation.maxTokens 64 → 99");
    expect(describeRunDifference(manifest(), manifest({ tasks: [task("t/en", 64, { metrics: [{ id: "bleu" }] })] }))).toBe('t/en: metrics[0].id "accuracy" → "bleu"');
    expect(describeRunDifference(manifest(), manifest({ data: { "t/en": "sha256:b" } }))).toBe("t/en: its data (the file's contents or the dataset revision)");
  });

  it("names tasks present on one side only, and counts what it does not name", () => {
    const both = manifest({ tasks: [task("t/en", 64), task("t/id", 64)] });
    expect(describeRunDifference(manifest(), both)).toBe("tasks only in this run: t/id");
    expect(describeRunDifference(both, manifest())).toBe("tasks only in the stored run: t/id");
    const many = manifest({ model: "p:n", options: { seed: 9, a: 1, b: 2, c: 3 } });
    expect(describeRunDifference(manifest(), many)).toBe("the model (p:m → p:n); option a (not set) → 1; option b (not set) → 2; option c (not set) → 3; and 1 more difference(s)");
  });

  it("shortens long values and falls back to a general phrase when nothing differs in what it can see", () => {
    const long = "x".repeat(100);
    expect(describeRunDifference(manifest(), manifest({ options: { seed: 1, prompt: long } }))).toMatch(/^option prompt \(not set\) → "x{36}\.\.\.$/);
    expect(describeRunDifference(manifest(), manifest())).toBe("the config, data, model or options changed");
  });
});
