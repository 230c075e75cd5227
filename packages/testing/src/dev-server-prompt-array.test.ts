import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "./dev-server.js";

const servers: DevServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function completions(server: DevServer, body: unknown) {
  const res = await request(`${server.url}/v1/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, json: (await res.body.json()) as { choices: { index: number; text: string; logprobs: unknown }[]; usage: { prompt_tokens: number } } };
}

describe("dev server /v1/completions with a prompt array", () => {
  it("answers each prompt as if it came alone, choices indexed prompt by prompt (n per prompt)", async () => {
    const server = await startDevServer({ port: 0, policy: { fixed: "Paris is big" } });
    servers.push(server);
    const prompts = ["The capital is Paris", "The capital is Rome", "Big"];
    const common = { model: "m", max_tokens: 0, echo: true, logprobs: 1 };
    const alone = await Promise.all(prompts.map((prompt) => completions(server, { ...common, prompt })));
    const together = await completions(server, { ...common, prompt: prompts, n: 2 });
    expect(together.status).toBe(200);
    expect(together.json.choices.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const [j, one] of alone.entries()) {
      for (const i of [0, 1]) {
        const choice = together.json.choices[j * 2 + i]!;
        expect(choice.text).toBe(prompts[j]);
        expect(choice.logprobs).toEqual(one.json.choices[0]!.logprobs);
      }
    }
    expect(together.json.usage.prompt_tokens).toBe(alone.reduce((n, a) => n + a.json.usage.prompt_tokens, 0));
    // One request, three prompts counted.
    expect(server.stats().requests["/v1/completions"]).toBe(4);
    expect(Object.values(server.stats().byPromptHash).reduce((a, b) => a + b, 0)).toBe(6);
  });

  it("refuses an empty prompt array and a streamed one", async () => {
    const server = await startDevServer({ port: 0 });
    servers.push(server);
    expect((await completions(server, { model: "m", prompt: [] })).status).toBe(400);
    expect((await completions(server, { model: "m", prompt: ["a", "b"], stream: true })).status).toBe(400);
  });
});
