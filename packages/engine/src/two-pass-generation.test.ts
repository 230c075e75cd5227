import type { ModelRequest } from "@yardstick/core";
import { createOpenAICompatible } from "@yardstick/models";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withTwoPassGeneration } from "./two-pass-generation.js";

let server: DevServer;
const bodies: Record<string, unknown>[] = [];
beforeAll(async () => {
  server = await startDevServer({
    port: 0,
    policy: (req) => {
      bodies.push(req.body);
      const prompt = req.prompt ?? "";
      if (prompt.startsWith("long")) return "one two three four five six seven eight nine ten Answer: B";
      return prompt.endsWith("Answer:") ? " B\n\nnext question" : "thinking Answer: B";
    },
  });
});
afterAll(async () => {
  await server.close();
});

const model = () => withTwoPassGeneration(createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`] }));
const ask = (prompt: string, maxTokens: number, stopAtFirst?: string): ModelRequest => ({
  kind: "completion",
  prompt,
  params: { maxTokens, stop: ["\n\n"], ...(stopAtFirst !== undefined ? { stopAtFirst } : {}) },
});

describe("two-pass generation (SEA-HELM base models)", () => {
  it("joins the passes: the tag kept, the second within the tokens left, with the task's stop strings, usage summed", async () => {
    bodies.length = 0;
    const answer = await model().generate(ask("Q\n\n", 10, "Answer:"));
    expect(answer.text).toBe("thinking Answer: B");
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({ prompt: "Q\n\n", stop: ["Answer:"], max_tokens: 10 });
    const used = 10 - (bodies[1]!.max_tokens as number);
    expect(used).toBeGreaterThan(0);
    expect(bodies[1]).toMatchObject({ prompt: "Q\n\nthinking Answer:", stop: ["\n\n"] });
    expect(answer.usage!.completionTokens).toBeGreaterThan(used);
  });

  it("one pass when the first does not reach the tag (cut by max_tokens), or when no token is left", async () => {
    bodies.length = 0;
    const cut = await model().generate(ask("long\n\n", 3, "Answer:"));
    expect(cut.finishReason).toBe("length");
    expect(bodies).toHaveLength(1);
    bodies.length = 0;
    const spent = await model().generate(ask("Q\n\n", 2, "Answer:"));
    expect(bodies).toHaveLength(1);
    expect(spent.text.endsWith("Answer:")).toBe(true);
  });

  it("leaves requests without stopAtFirst alone", async () => {
    bodies.length = 0;
    const answer = await model().generate(ask("Q\n\n", 10));
    expect(answer.text).toBe("thinking Answer: B");
    expect(bodies).toEqual([expect.objectContaining({ prompt: "Q\n\n", stop: ["\n\n"], max_tokens: 10 })]);
  });
});
