import { ApiCallError, type ModelProviderV1, type ModelResponse } from "@yardstick/core";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../dev-server.js";
import type { ProviderConformanceOptions, ProviderFactory } from "./provider-checks.js";
import { checkProviderConformance, testProvider } from "./test-provider.js";

let healthy: DevServer;
let failing: DevServer;
beforeAll(async () => {
  healthy = await startDevServer({ policy: { fixed: "yes" } });
  failing = await startDevServer({ faults: { rate500: 1 } });
});
afterAll(async () => {
  await healthy.close();
  await failing.close();
});

/** A deliberately small chat/completions client against the dev server, written for this test only. */
function createTinyProvider(baseUrl: () => string, apiKey: string): ModelProviderV1 {
  const post = async (path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const res = await request(`${baseUrl()}/v1${path}`, { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const json = (await res.body.json()) as Record<string, unknown>;
    if (res.statusCode !== 200) throw new ApiCallError(`${path} answered ${res.statusCode}`, { status: res.statusCode, retryable: res.statusCode >= 500 });
    return json;
  };
  return {
    specVersion: "v1",
    id: "tiny",
    modelId: "yardstick-dev",
    identity: () => "tiny:yardstick-dev",
    async generate(req): Promise<ModelResponse> {
      const n = req.params.n;
      const json =
        req.kind === "chat"
          ? await post("/chat/completions", { model: "yardstick-dev", messages: req.messages, max_tokens: req.params.maxTokens, n })
          : await post("/completions", { model: "yardstick-dev", prompt: req.prompt, max_tokens: req.params.maxTokens, n });
      const choices = (json.choices as { message?: { content: string }; text?: string; finish_reason: "stop" | "length" }[]).map((c) => ({
        text: c.message?.content ?? c.text ?? "",
        finishReason: c.finish_reason,
      }));
      return { text: choices[0]?.text ?? "", finishReason: choices[0]?.finishReason ?? "unknown", choices };
    },
    async close() {},
  };
}

const make: ProviderFactory = ({ apiKey }) => createTinyProvider(() => healthy.url, apiKey);
const options = (): ProviderConformanceOptions => ({ makeFailingProvider: ({ apiKey }) => createTinyProvider(() => failing.url, apiKey) });

testProvider("tiny", make, { makeFailingProvider: ({ apiKey }) => createTinyProvider(() => failing.url, apiKey) });

async function failures(factory: ProviderFactory, opts: ProviderConformanceOptions = options()): Promise<string> {
  const report = await checkProviderConformance("tiny", factory, opts);
  return report.failures.map((f) => `${f.check}: ${f.message}`).join("\n");
}

describe("checkProviderConformance", () => {
  it("passes the tiny provider", async () => {
    expect(await failures(make)).toBe("");
  });

  it("catches the API key in identity() and in error messages", async () => {
    const leaky: ProviderFactory = ({ apiKey }) => ({ ...createTinyProvider(() => healthy.url, apiKey), identity: () => `tiny:${apiKey}` });
    const messages = await failures(leaky);
    expect(messages).toMatch(/identity\(\) contains the API key/);
    expect(messages).toMatch(/identity\(\) depends on the API key/);
    const tells: ProviderFactory = ({ apiKey }) => {
      const p = createTinyProvider(() => failing.url, apiKey);
      return { ...p, generate: (r, c) => p.generate(r, c).catch((e) => Promise.reject(new ApiCallError(`failed with key ${apiKey}`, { retryable: false, cause: e }))) };
    };
    expect(await failures(make, { makeFailingProvider: tells })).toMatch(/the error \(message, fields, stack or cause\) contains the API key/);
  });

  it("catches bare errors from a failing server, a wrong choice count and text that is not choices[0].text", async () => {
    const bare: ProviderFactory = ({ apiKey }) => {
      const p = createTinyProvider(() => failing.url, apiKey);
      return { ...p, generate: (r, c) => p.generate(r, c).catch(() => Promise.reject(new Error("HTTP 500"))) };
    };
    expect(await failures(make, { makeFailingProvider: bare })).toMatch(/generate \(chat\) threw Error: HTTP 500, expected an ApiCallError/);
    const sloppy: ProviderFactory = ({ apiKey }) => {
      const p = createTinyProvider(() => healthy.url, apiKey);
      return { ...p, generate: async (r, c) => ({ ...(await p.generate({ ...r, params: { ...r.params, n: 1 } }, c)), text: "other" }) };
    };
    const messages = await failures(sloppy);
    expect(messages).toMatch(/1 choice\(s\), expected 3/);
    expect(messages).toMatch(/text "other" is not choices\[0\]\.text "yes"/);
  });

  it("catches a loglikelihood above 0, a close that throws twice and a label-set provider answering off its labels", async () => {
    const odd: ProviderFactory = ({ apiKey }) => {
      let closed = false;
      return {
        ...createTinyProvider(() => healthy.url, apiKey),
        needsLabelSet: true,
        loglikelihood: async () => ({ logprob: 0.5, isGreedy: true, tokenCount: 1.5 }),
        async close() {
          if (closed) throw new Error("already closed");
          closed = true;
        },
      };
    };
    const messages = await failures(odd, { completion: false, multipleChoices: false });
    expect(messages).toMatch(/logprob is 0\.5, expected a finite number <= 0/);
    expect(messages).toMatch(/tokenCount is 1\.5/);
    expect(messages).toMatch(/close #2 threw Error: already closed/);
    expect(messages).toMatch(/with labels positive\/negative\/neutral it answered \["yes"\]/);
    expect(messages).toMatch(/generate without a label set succeeded/);
  });

  it("catches a loglikelihoodBatch whose results come back out of order", async () => {
    // A logprob that depends on the continuation, so an order mix-up shows.
    const score = (continuation: string) => ({ logprob: -continuation.length, isGreedy: false, tokenCount: 1 });
    const shuffled: ProviderFactory = ({ apiKey }) => ({
      ...createTinyProvider(() => healthy.url, apiKey),
      loglikelihood: async (r) => score(r.continuation),
      loglikelihoodBatch: async (rs) => rs.map((r) => score(r.continuation)).reverse(),
    });
    const messages = await failures(shuffled, { completion: false, multipleChoices: false });
    expect(messages).toMatch(/result 0 \(" Paris"\) is \{"logprob":-5,/);
  });

  it("with tools: true, checks that a forced tool call comes back parsed in toolCalls", async () => {
    /** The tiny provider plus tools: arguments parsed or (`raw`) left as the wire's JSON string. */
    const withTools =
      (raw: boolean): ProviderFactory =>
      ({ apiKey }) => {
        const p = createTinyProvider(() => healthy.url, apiKey);
        return {
          ...p,
          async generate(req, ctx) {
            if (req.kind !== "chat" || req.params.tools === undefined) return p.generate(req, ctx);
            const choice = req.params.toolChoice;
            const res = await request(`${healthy.url}/v1/chat/completions`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({
                model: "yardstick-dev",
                messages: req.messages,
                tools: req.params.tools.map((t) => ({ type: "function", function: t })),
                tool_choice: typeof choice === "object" ? { type: "function", function: choice } : choice,
              }),
            });
            const json = (await res.body.json()) as { choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[] };
            const toolCalls = json.choices[0]!.message.tool_calls.map((c) => ({
              name: c.function.name,
              arguments: raw ? (c.function.arguments as unknown as Record<string, unknown>) : (JSON.parse(c.function.arguments) as Record<string, unknown>),
            }));
            const choices = [{ text: "", finishReason: "tool_calls" as const, toolCalls }];
            return { text: "", finishReason: "tool_calls", toolCalls, choices };
          },
        };
      };
    expect(await failures(withTools(false), { ...options(), tools: true })).toBe("");
    expect(await failures(make, { ...options(), tools: true })).toMatch(/toolCalls is undefined, expected the forced call/);
    expect(await failures(withTools(true), { ...options(), tools: true })).toMatch(/toolCalls\[0\]\.arguments is "\{.*expected the parsed arguments object/);
    // Without the flag the tool check does not run.
    expect(await failures(make)).toBe("");
  });
});
