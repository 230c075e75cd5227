/** Every built-in model provider runs the provider conformance suite of @yardstick/testing. */
import { type DevServer, startDevServer, testProvider } from "@yardstick/testing";
import { afterAll, beforeAll } from "vitest";
import { createAnthropic } from "./anthropic.js";
import { createMajorityBaseline } from "./majority-baseline.js";
import { createOpenAICompatible } from "./openai-compatible.js";
import { createRandomBaseline } from "./random-baseline.js";

let healthy: DevServer;
let failing: DevServer;
beforeAll(async () => {
  healthy = await startDevServer({ policy: { fixed: "Paris" } });
  // Every request fails: 500s, then malformed bodies and resets once the retries see those.
  failing = await startDevServer({ faults: { rate500: 0.5, rateMalformed: 0.25, rateReset: 0.25 }, seed: 3 });
});
afterAll(async () => {
  await healthy?.close();
  await failing?.close();
});

const fast = { maxAttempts: 2, backoff: { baseMs: 1, maxMs: 5 }, timeoutMs: 5_000 };

testProvider("openai-compatible", ({ apiKey }) => createOpenAICompatible({ modelId: "yardstick-dev", baseURL: `${healthy.url}/v1`, apiKey, ...fast }), {
  tools: true,
  makeFailingProvider: ({ apiKey }) => createOpenAICompatible({ modelId: "yardstick-dev", baseURL: `${failing.url}/v1`, apiKey, ...fast }),
});

// The Messages API has no completions: chat checks only. The failing server also answers 529s.
let failingMessages: DevServer;
beforeAll(async () => {
  failingMessages = await startDevServer({ faults: { rate500: 0.3, rate529: 0.3, rateMalformed: 0.2, rateReset: 0.2, retryAfterSeconds: 0 }, seed: 5 });
});
afterAll(async () => {
  await failingMessages?.close();
});
const anthropicAt = (server: () => DevServer, apiKey: string) =>
  createAnthropic({ modelId: "claude-dev", baseURL: server().url, apiKey, ...fast });
testProvider("anthropic", ({ apiKey }) => anthropicAt(() => healthy, apiKey), {
  completion: false,
  tools: true,
  makeFailingProvider: ({ apiKey }) => anthropicAt(() => failingMessages, apiKey),
});

testProvider("baseline:random", () => createRandomBaseline({ seed: 7 }));
testProvider("baseline:majority", () => createMajorityBaseline());
