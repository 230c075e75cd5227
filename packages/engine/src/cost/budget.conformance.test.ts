/** The budget guard is a provider too: wrapped around a real provider, it passes the provider conformance suite. */
import { createOpenAICompatible } from "@yardstick/models";
import { type DevServer, startDevServer, testProvider } from "@yardstick/testing";
import { afterAll, beforeAll } from "vitest";
import { CostBudget, withBudget } from "./budget.js";

let healthy: DevServer;
let failing: DevServer;
beforeAll(async () => {
  healthy = await startDevServer({ policy: { fixed: "Paris" } });
  failing = await startDevServer({ faults: { rate500: 0.5, rateMalformed: 0.25, rateReset: 0.25 }, seed: 3 });
});
afterAll(async () => {
  await healthy?.close();
  await failing?.close();
});

const fast = { maxAttempts: 2, backoff: { baseMs: 1, maxMs: 5 }, timeoutMs: 5_000 };
// A budget the suite's few requests stay well under.
const guarded = (url: () => string, apiKey: string) =>
  withBudget(createOpenAICompatible({ modelId: "yardstick-dev", baseURL: `${url()}/v1`, apiKey, ...fast }), {
    budget: new CostBudget(1_000, () => {}),
    price: { input: 1, output: 1 },
  });

testProvider("openai-compatible under withBudget", ({ apiKey }) => guarded(() => healthy.url, apiKey), {
  tools: true,
  makeFailingProvider: ({ apiKey }) => guarded(() => failing.url, apiKey),
});
