import type { ChatRequest } from "@yardstick/core";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropic } from "./anthropic.js";
import { ModelCallError } from "./model-call-error.js";
import { createOpenAICompatible } from "./openai-compatible.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function dev(port = 0, root?: string): Promise<DevServer> {
  const s = await startDevServer({ port, policy: { fixed: "fine" }, ...(root ? { root } : {}) });
  cleanups.push(() => s.close());
  return s;
}

/** A free port on 127.0.0.1 where nothing listens (yet). */
async function closedPort(): Promise<number> {
  const s = await startDevServer({ port: 0, policy: { fixed: "" } });
  await s.close();
  return s.port;
}

async function until(ready: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready() && Date.now() < deadline) await sleep(20);
}

const chat = (text: string): ChatRequest => ({ kind: "chat", messages: [{ role: "user", content: text }], params: { maxTokens: 8 } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a provider whose server goes away", () => {
  it("Anthropic: requests wait for the server to come back, spending no attempt meanwhile", async () => {
    const first = await dev();
    const model = createAnthropic({ modelId: "claude-test", baseURL: first.url, maxAttempts: 3 });
    cleanups.push(() => model.close());
    expect((await model.generate(chat("before"))).text).toBe("fine");
    await first.close();
    // With 3 attempts and no wait, these would fail within their short backoff.
    const pending = Promise.all(Array.from({ length: 6 }, (_, i) => model.generate(chat(`during ${i}`))));
    await sleep(1200);
    const again = await dev(first.port);
    const answers = await pending;
    expect(answers.map((a) => a.text)).toEqual(Array(6).fill("fine"));
    // Each was sent once to the server back: the waits sent nothing.
    expect(again.stats().requests["/v1/messages"]).toBe(6);
  });

  it("OpenAI-compatible: a base URL set aside at start joins once it answers with the checkpoint the others serve, not another", async () => {
    const a = await dev(0, "/models/ckpt-a");
    const port = await closedPort();
    const model = createOpenAICompatible({ modelId: "yardstick-dev", baseURLs: [`${a.url}/v1`, `http://127.0.0.1:${port}/v1`] });
    cleanups.push(() => model.close());
    model.setBaseURLAside(`http://127.0.0.1:${port}/v1`, "ECONNREFUSED");
    // The served model is asked of the base URLs that are up only.
    expect(await model.describeServedModel()).toMatchObject({ root: "/models/ckpt-a" });
    await Promise.all(Array.from({ length: 8 }, (_, i) => model.generate(chat(`${i}`))));
    expect(model.endpointStats()[1]).toMatchObject({ requests: 0, setAside: 1 });
    // Back with another checkpoint: answers would mix models, so it stays aside.
    const wrong = await dev(port, "/models/ckpt-b");
    await until(() => (wrong.stats().requests["/v1/models"] ?? 0) >= 2, 5000);
    await Promise.all(Array.from({ length: 8 }, (_, i) => model.generate(chat(`${i}`))));
    expect(model.endpointStats()[1]).toMatchObject({ requests: 0 });
    expect(wrong.stats().requests["/v1/chat/completions"]).toBeUndefined();
    await wrong.close();
    // Back with the same checkpoint: the next probe brings it back and it gets its share.
    const right = await dev(port, "/models/ckpt-a");
    await until(() => (right.stats().requests["/v1/models"] ?? 0) >= 1, 5000);
    await sleep(50);
    await Promise.all(Array.from({ length: 40 }, (_, i) => model.generate(chat(`${i}`))));
    expect(right.stats().requests["/v1/chat/completions"]).toBeGreaterThan(5);
  });

  it("OpenAI-compatible: a server that never comes back fails the waiting requests as network errors after maxOutageMs", async () => {
    const only = await dev();
    const model = createOpenAICompatible({ modelId: "m", baseURL: `${only.url}/v1`, maxOutageMs: 500 });
    cleanups.push(() => model.close());
    await model.generate(chat("before"));
    await only.close();
    const started = performance.now();
    const errors = await Promise.all(Array.from({ length: 4 }, (_, i) => model.generate(chat(`after ${i}`)).catch((e: unknown) => e)));
    const seconds = (performance.now() - started) / 1000;
    for (const error of errors) {
      expect(error).toBeInstanceOf(ModelCallError);
      expect((error as ModelCallError).kind).toBe("network");
      expect((error as ModelCallError).attempts).toBeLessThanOrEqual(2);
      expect((error as Error).message).toMatch(/the server did not answer for 0\.\d s, giving up \(http:\/\/127\.0\.0\.1:\d+\/v1: connection failed: ECONNREFUSED/);
    }
    expect(seconds).toBeLessThan(3);
    // Later requests fail at once, until the server answers again.
    const atOnce = performance.now();
    await expect(model.generate(chat("later"))).rejects.toThrow(/giving up/);
    expect(performance.now() - atOnce).toBeLessThan(200);
  });
});
