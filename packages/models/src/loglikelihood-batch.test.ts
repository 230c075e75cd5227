import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterEach, describe, expect, it } from "vitest";
import { choicesInPromptOrder, fastEchoedCompletion } from "./loglikelihood.js";
import { createOpenAICompatible } from "./openai-compatible.js";

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function devServer(): Promise<DevServer> {
  const server = await startDevServer({ port: 0, policy: { fixed: "Paris is the capital" } });
  closers.push(() => server.close());
  return server;
}

/** A server in front of the dev server that refuses a prompt array (as some OpenAI-compatible servers do). */
async function singlePromptOnly(upstream: string): Promise<{ url: string; arraysRefused: () => number }> {
  let refused = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    if (Array.isArray(JSON.parse(body).prompt)) {
      refused++;
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "prompt must be a string" } }));
      return;
    }
    const r = await fetch(`${upstream}${req.url}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    res.writeHead(r.status, { "content-type": "application/json" });
    res.end(await r.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arraysRefused: () => refused };
}

const context = "Question: what is the capital of France? Answer:";
const requests = [" Paris", " Rome is", " the capital", " Berlin"].map((continuation) => ({ context, continuation }));

describe("openai-compatible loglikelihoodBatch", () => {
  it("sends the options in one prompt-array request; each result equals the one-request answer", async () => {
    const server = await devServer();
    const model = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`] });
    closers.push(() => model.close());
    const alone = [];
    for (const r of requests) alone.push(await model.loglikelihood(r));
    const before = server.stats().requests["/v1/completions"]!;
    const together = await model.loglikelihoodBatch(requests);
    expect(server.stats().requests["/v1/completions"]).toBe(before + 1);
    expect(together).toEqual(alone);
    // The policy's words are likely: " Paris" beats " Berlin".
    expect(together[0]!.logprob).toBeGreaterThan(together[3]!.logprob);
  });

  it("falls back to one prompt per request when the server refuses an array, and stops sending arrays", async () => {
    const server = await devServer();
    const proxy = await singlePromptOnly(server.url);
    const model = createOpenAICompatible({ modelId: "m", baseURLs: [`${proxy.url}/v1`] });
    closers.push(() => model.close());
    const logs: string[] = [];
    const first = await model.loglikelihoodBatch(requests, { log: (m) => logs.push(m) });
    const second = await model.loglikelihoodBatch(requests);
    expect(second).toEqual(first);
    expect(proxy.arraysRefused()).toBe(1);
    expect(server.stats().requests["/v1/completions"]).toBe(2 * requests.length);
    expect(logs.join("\n")).toContain("refused a prompt array");
  });

  it("rejects an empty context before sending anything", async () => {
    const server = await devServer();
    const model = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`] });
    closers.push(() => model.close());
    await expect(model.loglikelihoodBatch([{ context: "", continuation: "x" }, ...requests])).rejects.toThrow(/non-empty context/);
    expect(server.stats().requests["/v1/completions"] ?? 0).toBe(0);
  });
});

describe("choicesInPromptOrder", () => {
  it("orders choices by index, by position without one, and refuses a count or index that does not fit", () => {
    expect(choicesInPromptOrder([{ index: 1, t: "b" }, { index: 0, t: "a" }], 2)).toEqual([{ index: 0, t: "a" }, { index: 1, t: "b" }]);
    expect(choicesInPromptOrder([{ t: "a" }, { t: "b" }], 2)).toEqual([{ t: "a" }, { t: "b" }]);
    expect(choicesInPromptOrder([{ index: 0 }], 2)).toBeUndefined();
    expect(choicesInPromptOrder([{ index: 0 }, { index: 0 }], 2)).toBeUndefined();
    expect(choicesInPromptOrder([{ index: 0 }, { index: 5 }], 2)).toBeUndefined();
  });
});

describe("fastEchoedCompletion", () => {
  const lp = { tokens: ["a", " b"], token_logprobs: [null, -1.5], text_offset: [0, 1], top_logprobs: [null, { " b": -1.5 }] };
  it("takes the common reply as it is", () => {
    const body = { id: "x", choices: [{ index: 0, text: "a b", logprobs: lp, finish_reason: "length" }] };
    expect(fastEchoedCompletion(body)).toBe(body);
    expect(fastEchoedCompletion({ choices: [{ text: "", logprobs: null }] })).toBeDefined();
  });

  it("leaves anything else to the schema", () => {
    for (const bad of [
      null,
      { choices: [] },
      { choices: [{ logprobs: lp }] },
      { choices: [{ text: "", index: 0.5 }] },
      { choices: [{ text: "", logprobs: { ...lp, tokens: "a b" } }] },
      { choices: [{ text: "", logprobs: { ...lp, token_logprobs: [null, "-1"] } }] },
      { choices: [{ text: "", logprobs: { ...lp, top_logprobs: [{ a: "x" }] } }] },
    ]) {
      expect(fastEchoedCompletion(bad)).toBeUndefined();
    }
  });
});
