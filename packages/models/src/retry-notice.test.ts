import type { ModelRequest, RetryNotice } from "@yardstick/core";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { createAnthropic } from "./anthropic.js";
import { createOpenAICompatible } from "./openai-compatible.js";

// Both providers retry inside `generate`; `ctx.onRetry` is how a caller learns of the retries of a
// request that ends well (the progress display and run statistics count them).
const request: ModelRequest = { kind: "chat", messages: [{ role: "user", content: "x" }], params: { maxTokens: 8 } };

describe("ModelCallContext.onRetry", () => {
  it("the OpenAI-compatible provider reports each retried attempt with its kind and status", async () => {
    const server = await startDevServer({ faults: { script: ["500", "reset", "429"], retryAfterSeconds: 0 } });
    const p = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`], backoff: { baseMs: 1, maxMs: 2 } });
    try {
      const notices: RetryNotice[] = [];
      const r = await p.generate(request, { onRetry: (n) => notices.push(n) });
      expect(r.text).toBe("x");
      expect(notices.map((n) => [n.attempt, n.kind, n.status])).toEqual([
        [1, "api", 500],
        [2, "network", undefined],
        [3, "api", 429],
      ]);
      expect(notices.every((n) => n.maxAttempts === 6 && n.delayMs >= 0)).toBe(true);
      // Each retry says it is one (ATTEMPT_HEADER), so the server counts 3 retries of 4 requests.
      expect(server.stats().requests["/v1/chat/completions"]).toBe(4);
      expect(server.stats().retries["/v1/chat/completions"]).toBe(3);
    } finally {
      await p.close();
      await server.close();
    }
  });

  it("the Anthropic provider reports its retries too", async () => {
    const server = await startDevServer({ apiKey: "k-test", faults: { script: ["529"], retryAfterSeconds: 0 } });
    const p = createAnthropic({ modelId: "claude-test", baseURL: server.url, apiKey: "k-test", backoff: { baseMs: 1, maxMs: 2 } });
    try {
      const notices: RetryNotice[] = [];
      await p.generate(request, { onRetry: (n) => notices.push(n) });
      expect(notices.map((n) => [n.attempt, n.status])).toEqual([[1, 529]]);
      expect(server.stats().retries["/v1/messages"]).toBe(1);
    } finally {
      await p.close();
      await server.close();
    }
  });
});
