import { afterEach, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "./dev-server.js";
import { parseDevServerArgs } from "./dev-server-args.js";
import type { DevServerOptions } from "./dev-server-options.js";

const servers: DevServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: DevServerOptions = {}): Promise<DevServer> {
  const s = await startDevServer(options);
  servers.push(s);
  return s;
}

type Json = Record<string, any>;

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; json: Json; text: string }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    // JSONL bodies stay text
  }
  return { status: res.status, json, text };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  call(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

const chat = (text: string) => ({ model: "m", max_tokens: 32, messages: [{ role: "user", content: text }] });

async function uploadBatchFile(server: DevServer, lines: unknown[]): Promise<string> {
  const form = new FormData();
  form.append("purpose", "batch");
  form.append("file", new Blob([lines.map((l) => JSON.stringify(l)).join("\n")]), "input.jsonl");
  const up = await call(`${server.url}/v1/files`, { method: "POST", body: form });
  expect(up.status).toBe(200);
  expect(up.json).toMatchObject({ object: "file", purpose: "batch", filename: "input.jsonl" });
  return up.json.id as string;
}

async function waitOpenAI(server: DevServer, id: string): Promise<Json> {
  for (;;) {
    const b = (await call(`${server.url}/v1/batches/${id}`)).json;
    if (["completed", "failed", "expired", "cancelled"].includes(b.status)) return b;
    await new Promise((r) => setTimeout(r, 10));
  }
}

const jsonl = (text: string): Json[] => text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Json);

describe("dev server: OpenAI Batch API", () => {
  it("answers each line as the online endpoint does, through validating → in_progress → completed", async () => {
    const server = await start({ batch: { processingMs: 60 } });
    const fileId = await uploadBatchFile(server, [
      { custom_id: "a", method: "POST", url: "/v1/chat/completions", body: chat("hello there") },
      { custom_id: "b", method: "POST", url: "/v1/chat/completions", body: chat("second question") },
    ]);
    const created = await post(`${server.url}/v1/batches`, { input_file_id: fileId, endpoint: "/v1/chat/completions", completion_window: "24h" });
    expect(created.json).toMatchObject({ object: "batch", status: "validating", input_file_id: fileId, output_file_id: null });
    await new Promise((r) => setTimeout(r, 20));
    expect((await call(`${server.url}/v1/batches/${created.json.id}`)).json.status).toBe("in_progress");
    const done = await waitOpenAI(server, created.json.id);
    expect(done).toMatchObject({ status: "completed", request_counts: { total: 2, completed: 2, failed: 0 }, error_file_id: null });
    const out = jsonl((await call(`${server.url}/v1/files/${done.output_file_id}/content`)).text);
    const online = await post(`${server.url}/v1/chat/completions`, chat("hello there"));
    const a = out.find((l) => l.custom_id === "a")!;
    expect(a.response.status_code).toBe(200);
    expect(a.response.body.choices).toEqual(online.json.choices);
    expect(a.response.body.usage).toEqual(online.json.usage);
    expect(a.error).toBeNull();
    expect(server.stats().batches).toEqual({ created: 1, requests: 2 });
  });

  it("fails validation with the line and reason, and rejects bad create requests", async () => {
    const server = await start();
    const fileId = await uploadBatchFile(server, [
      { custom_id: "a", method: "POST", url: "/v1/completions", body: { model: "m", prompt: "x" } },
    ]);
    const bad = await post(`${server.url}/v1/batches`, { input_file_id: fileId, endpoint: "/v1/chat/completions", completion_window: "1h" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe("completion_window");
    const created = await post(`${server.url}/v1/batches`, { input_file_id: fileId, endpoint: "/v1/chat/completions", completion_window: "24h" });
    const done = await waitOpenAI(server, created.json.id);
    expect(done.status).toBe("failed");
    expect(done.errors.data[0]).toMatchObject({ code: "mismatched_endpoint", line: 1 });
    expect(server.stats().batches).toEqual({ created: 1, requests: 1 });
    expect((await call(`${server.url}/v1/batches/nope`)).status).toBe(404);
  });

  it("writes partial failures and expired requests to the error file", async () => {
    const server = await start({ batch: { failRate: 0.5, expireRate: 0.25 }, seed: 3 });
    const lines = Array.from({ length: 8 }, (_, i) => ({ custom_id: `r${i}`, method: "POST", url: "/v1/chat/completions", body: chat(`q${i}`) }));
    const fileId = await uploadBatchFile(server, lines);
    const created = await post(`${server.url}/v1/batches`, { input_file_id: fileId, endpoint: "/v1/chat/completions", completion_window: "24h" });
    const done = await waitOpenAI(server, created.json.id);
    expect(done.status).toBe("expired");
    const errors = jsonl((await call(`${server.url}/v1/files/${done.error_file_id}/content`)).text);
    const expired = errors.filter((e) => e.error?.code === "batch_expired").map((e) => e.custom_id);
    expect(expired).toEqual(["r6", "r7"]);
    const failed = errors.filter((e) => e.response?.status_code === 500);
    expect(failed.length).toBeGreaterThan(0);
    expect(done.request_counts).toEqual({ total: 8, completed: 8 - errors.length, failed: errors.length });
  });

  it("cancels a batch in progress", async () => {
    const server = await start({ batch: { processingMs: 50 } });
    const fileId = await uploadBatchFile(server, [{ custom_id: "a", method: "POST", url: "/v1/chat/completions", body: chat("x") }]);
    const created = await post(`${server.url}/v1/batches`, { input_file_id: fileId, endpoint: "/v1/chat/completions", completion_window: "24h" });
    expect((await post(`${server.url}/v1/batches/${created.json.id}/cancel`, {})).json.status).toBe("cancelling");
    expect((await waitOpenAI(server, created.json.id)).status).toBe("cancelled");
  });
});

describe("dev server: Anthropic Message Batches API", () => {
  const headers = { "anthropic-version": "2023-06-01" };
  const params = (text: string) => ({ model: "claude", max_tokens: 32, messages: [{ role: "user", content: text }] });

  async function wait(server: DevServer, id: string): Promise<Json> {
    for (;;) {
      const b = (await call(`${server.url}/v1/messages/batches/${id}`, { headers })).json;
      if (b.processing_status === "ended") return b;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it("answers requests as POST /v1/messages does and lists results by custom_id", async () => {
    const server = await start({ batch: { processingMs: 30 } });
    const created = await post(`${server.url}/v1/messages/batches`, { requests: [{ custom_id: "one", params: params("hi") }, { custom_id: "two", params: { model: "claude", messages: [] } }] }, headers);
    expect(created.json).toMatchObject({ type: "message_batch", processing_status: "in_progress", results_url: null, request_counts: { processing: 2 } });
    const early = await call(`${server.url}/v1/messages/batches/${created.json.id}/results`, { headers });
    expect(early.status).toBe(400);
    const done = await wait(server, created.json.id);
    expect(done.request_counts).toEqual({ processing: 0, succeeded: 1, errored: 1, canceled: 0, expired: 0 });
    const results = jsonl((await call(done.results_url, { headers })).text);
    const online = await post(`${server.url}/v1/messages`, params("hi"), headers);
    const one = results.find((r) => r.custom_id === "one")!;
    expect(one.result.type).toBe("succeeded");
    expect(one.result.message.content).toEqual(online.json.content);
    expect(one.result.message.usage).toEqual(online.json.usage);
    expect(results.find((r) => r.custom_id === "two")!.result).toMatchObject({ type: "errored", error: { type: "error", error: { type: "invalid_request_error" } } });
    expect(server.stats().batches).toEqual({ created: 1, requests: 2 });
  });

  it("cancels a batch in progress: canceling, then ended with its requests canceled", async () => {
    const server = await start({ batch: { processingMs: 50 } });
    const created = await post(`${server.url}/v1/messages/batches`, { requests: [{ custom_id: "a", params: params("x") }] }, headers);
    const cancel = await post(`${server.url}/v1/messages/batches/${created.json.id}/cancel`, {}, headers);
    expect(cancel.json).toMatchObject({ processing_status: "canceling", cancel_initiated_at: expect.any(String) });
    const done = await wait(server, created.json.id);
    expect(done.request_counts).toMatchObject({ canceled: 1, succeeded: 0 });
    expect(jsonl((await call(done.results_url, { headers })).text)).toEqual([{ custom_id: "a", result: { type: "canceled" } }]);
  });

  it("rejects bad custom_ids and batches over the request limit, and reports expired requests", async () => {
    const server = await start({ batch: { maxRequests: 2, expireRate: 0.5 } });
    expect((await post(`${server.url}/v1/messages/batches`, { requests: [{ custom_id: "a b", params: params("x") }] }, headers)).status).toBe(400);
    const three = [1, 2, 3].map((i) => ({ custom_id: `c${i}`, params: params(`q${i}`) }));
    expect((await post(`${server.url}/v1/messages/batches`, { requests: three }, headers)).json.error.message).toMatch(/at most 2/);
    const created = await post(`${server.url}/v1/messages/batches`, { requests: three.slice(0, 2) }, headers);
    const done = await wait(server, created.json.id);
    expect(done.request_counts).toMatchObject({ succeeded: 1, expired: 1 });
  });
});

describe("dev server CLI: batch flags", () => {
  it("parses the batch flags into the batch options", () => {
    const { options } = parseDevServerArgs(["--batch-delay-ms", "5", "--batch-fail-rate=0.2", "--batch-expire-rate", "0.1", "--batch-max-requests", "3"]);
    expect(options.batch).toEqual({ processingMs: 5, failRate: 0.2, expireRate: 0.1, maxRequests: 3 });
    expect(() => parseDevServerArgs(["--batch-fail-rate", "2"])).toThrow();
  });
});
