import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import type { ModelProviderV1 } from "@yardstick/core";
import { afterEach, describe, expect, it } from "vitest";
import { JUDGE_SERVER, preflight } from "./model-setup.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const openaiCompatible = { id: "openai-compatible" } as ModelProviderV1;

describe("preflight (GET /models of every base URL)", () => {
  it("asks every base URL of a fleet at once", async () => {
    // No answer until all three requests have come: asked one after another, the first would wait.
    const waiting: (() => void)[] = [];
    const root = await serve((_req, res) => {
      waiting.push(() => res.end('{"object":"list","data":[]}'));
      if (waiting.length === 3) for (const answer of waiting) answer();
    });
    await preflight(openaiCompatible, [`${root}/a/v1`, `${root}/b/v1`, `${root}/c/v1`]);
    expect(waiting).toHaveLength(3);
  }, 10_000);

  it("reports the first failing base URL in the order given, even when a later one fails first", async () => {
    // The first base URL answers 404 late; the second refuses connections at once.
    const slow404 = await serve((_req, res) => {
      setTimeout(() => {
        res.statusCode = 404;
        res.end();
      }, 100);
    });
    const refusing = await serve((_req, res) => res.end());
    await cleanups.pop()!(); // closed: connections are refused
    const error = await preflight(openaiCompatible, [`${slow404}/v1`, `${refusing}/v1`]).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`no OpenAI-compatible API at ${slow404}/v1: GET ${slow404}/v1/models answered 404`);
  });

  it("names the first unreachable server when none can be reached", async () => {
    const gone1 = await serve((_req, res) => res.end());
    const gone2 = await serve((_req, res) => res.end());
    await cleanups.pop()!();
    await cleanups.pop()!();
    await expect(preflight(openaiCompatible, [`${gone1}/v1`, `${gone2}/v1`])).rejects.toThrow(`cannot reach the model server at ${gone1}/v1 (ECONNREFUSED); is it running?`);
  });

  it("names the judge's server and its key flag when the judge's base URL is checked", async () => {
    const gone = await serve((_req, res) => res.end());
    await cleanups.pop()!();
    await expect(preflight(openaiCompatible, [`${gone}/v1`], undefined, undefined, undefined, JUDGE_SERVER)).rejects.toThrow(
      `cannot reach the judge model's server at ${gone}/v1 (ECONNREFUSED); is it running?`,
    );
    const refusing = await serve((_req, res) => res.writeHead(401).end());
    await expect(preflight(openaiCompatible, [`${refusing}/v1`], "k", undefined, undefined, JUDGE_SERVER)).rejects.toThrow(
      `the judge model's server at ${refusing}/v1 refused the credentials (HTTP 401); pass the key with --judge-api-key-env NAME`,
    );
  });

  it("sets a replica that is down at start aside, with a warning, when another answers", async () => {
    const ok = await serve((_req, res) => res.end('{"object":"list","data":[]}'));
    const gone = await serve((_req, res) => res.end());
    await cleanups.pop()!();
    const setAside: [string, string][] = [];
    const fleet = { id: "openai-compatible", setBaseURLAside: (url: string, why: string) => setAside.push([url, why]) } as unknown as ModelProviderV1;
    const log: string[] = [];
    await preflight(fleet, [`${ok}/v1`, `${gone}/v1`], undefined, undefined, (m) => log.push(m));
    expect(setAside).toEqual([[`${gone}/v1`, "ECONNREFUSED"]]);
    expect(log).toEqual([
      `warning: cannot reach the model server at ${gone}/v1 (ECONNREFUSED): set aside and probed until it answers; the run goes on with the other 1 base URL`,
    ]);
    // A provider that cannot set a base URL aside still refuses the run.
    await expect(preflight(openaiCompatible, [`${ok}/v1`, `${gone}/v1`])).rejects.toThrow(`cannot reach the model server at ${gone}/v1 (ECONNREFUSED)`);
  });
});
