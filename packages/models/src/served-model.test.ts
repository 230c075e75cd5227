import { createServer, type IncomingHttpHeaders, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiCallError, ConfigError } from "@yardstick/core";
import { type DevServerOptions, startDevServer } from "@yardstick/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAICompatible } from "./openai-compatible.js";
import { servedModelInfo } from "./served-model.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function devBase(options: DevServerOptions): Promise<string> {
  const s = await startDevServer(options);
  cleanups.push(() => s.close());
  return `${s.url}/v1`;
}

/** A plain node:http server for `/v1/models` replies the dev server does not make. */
async function rawBase(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function provider(baseURLs: string[], modelId = "m", apiKey?: string) {
  const p = createOpenAICompatible({ modelId, baseURLs, maxAttempts: 2, backoff: { baseMs: 1, maxMs: 5 }, ...(apiKey ? { apiKey } : {}) });
  cleanups.push(() => p.close());
  return p;
}

describe("describeServedModel (GET /v1/models)", () => {
  it("reports the root, max_model_len and owned_by a vLLM-style server gives for the model", async () => {
    const base = await devBase({ models: ["other", "m"], root: "/ckpt/qwen3-8b/step-2000", maxModelLen: 8192 });
    expect(await provider([base]).describeServedModel()).toEqual({ root: "/ckpt/qwen3-8b/step-2000", maxModelLen: 8192, ownedBy: "yardstick" });
  });

  it("says nothing for a model the server does not list, and logs it", async () => {
    const base = await devBase({ models: ["someone-else"] });
    const lines: string[] = [];
    expect(await provider([base]).describeServedModel({ log: (l) => lines.push(l) })).toBeUndefined();
    expect(lines.join("\n")).toContain('does not list the model (it lists "someone-else")');
  });

  it("asks every base URL at once, and logs in base-URL order whatever answered first", async () => {
    // One server behind three base URLs that answers no /models request until all three have come:
    // asked one after another, the first would wait forever. It answers the last-asked first.
    const waiting: { path: string; answer: () => void }[] = [];
    const base = await rawBase((req, res) => {
      const answer = () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [{ id: `other-${req.url}`, object: "model", created: 0, owned_by: "x" }] }));
      };
      waiting.push({ path: req.url ?? "", answer });
      if (waiting.length === 3) for (const [i, w] of [...waiting].reverse().entries()) setTimeout(w.answer, 10 * i);
    });
    const root = base.slice(0, -"/v1".length);
    const bases = ["a", "b", "c"].map((p) => `${root}/${p}/v1`);
    const lines: string[] = [];
    expect(await provider(bases).describeServedModel({ log: (l) => lines.push(l) })).toBeUndefined();
    expect(waiting.map((w) => w.path).sort()).toEqual(["/a/v1/models", "/b/v1/models", "/c/v1/models"]);
    expect(lines.map((l) => l.match(/(\/[abc]\/v1)\/models does not list/)?.[1])).toEqual(["/a/v1", "/b/v1", "/c/v1"]);
  }, 10_000);

  it("agrees when every base URL serves the same checkpoint", async () => {
    const a = await devBase({ models: ["m"], root: "/ckpt/a" });
    const b = await devBase({ models: ["m"], root: "/ckpt/a" });
    expect((await provider([a, b]).describeServedModel())?.root).toBe("/ckpt/a");
  });

  it("refuses base URLs that serve different checkpoints under one name", async () => {
    const a = await devBase({ models: ["m"], root: "/ckpt/a" });
    const b = await devBase({ models: ["m"], root: "/ckpt/b" });
    const error = await provider([a, b])
      .describeServedModel()
      .catch((e: unknown) => e);
    expect(ConfigError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain("different checkpoints (root)");
    expect(message).toContain(`${a} reports root "/ckpt/a"`);
    expect(message).toContain(`${b} reports root "/ckpt/b"`);
  });

  it("refuses a base URL that reports a root beside one that reports nothing", async () => {
    const a = await devBase({ models: ["m"], root: "/ckpt/a" });
    const plain = await rawBase((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "m", object: "model", created: 0, owned_by: "openai" }] }));
    });
    const error = await provider([a, plain])
      .describeServedModel()
      .catch((e: unknown) => e);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`${plain} reports nothing about the checkpoint`);
  });

  it("says nothing for an OpenAI-style list (id and owned_by only) and for a server without /v1/models", async () => {
    const headers: IncomingHttpHeaders[] = [];
    const openai = await rawBase((req, res) => {
      headers.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "m", object: "model", created: 1686935002, owned_by: "openai" }] }));
    });
    expect(await provider([openai], "m", "sk-secret-key").describeServedModel()).toBeUndefined();
    expect(headers[0]?.authorization).toBe("Bearer sk-secret-key");
    const none = await rawBase((_req, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "Not Found" } }));
    });
    expect(await provider([none]).describeServedModel()).toBeUndefined();
  });

  it("rejects a /v1/models body of the wrong shape with an ApiCallError naming the field", async () => {
    const bad = await rawBase((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "m", max_model_len: "long" }] }));
    });
    const error = await provider([bad])
      .describeServedModel()
      .catch((e: unknown) => e);
    expect(ApiCallError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/GET .*\/v1\/models failed .*data\.0\.max_model_len/);
  });

  it("keeps only what identifies the checkpoint", () => {
    expect(servedModelInfo({ data: [{ id: "m", owned_by: "vllm", root: null, max_model_len: null }] }, "m")).toBeUndefined();
    expect(servedModelInfo({ data: [{ id: "m", root: "Qwen/Qwen3-8B" }] }, "m")).toEqual({ root: "Qwen/Qwen3-8B" });
    expect(servedModelInfo({ data: [{ id: "x", root: "r" }] }, "m")).toBeUndefined();
  });
});
